/**
 * Ports https://github.com/h3js/srvx/blob/main/test/node-headers.test.ts onto endpoints mounted by this
 * library (test/fixtures/peers-app, `/srvx/echo-headers`). srvx tests its lazy `NodeRequestHeaders` over
 * mock requests; here real clients send the repeats, over HTTP/1.1 on Express 5 and a bare node:http
 * server, and over HTTP/2 (h2c), where cookies arrive as separate header fields.
 */
import { expect } from 'chai';
import { h2Request } from '../support/h2';
import { eachHost, rawRequest, h2cServer } from './hosts';

describe('peers: srvx node-headers.test', function () {
  this.timeout(10_000);

  eachHost('NodeRequestHeaders', (app) => {
    async function echo(lines: string[]) {
      const res = await rawRequest(
        app().port,
        ['GET /srvx/echo-headers HTTP/1.1', 'Host: localhost', ...lines].join('\r\n'),
      );
      expect(res.status).to.equal(200);
      return JSON.parse(res.body.toString());
    }

    it('srvx node-headers.test: entries() combines duplicate headers (#188)', async () => {
      const body = await echo(['Cookie: a=1', 'Cookie: b=2']);
      expect(body.entries.cookie).to.include('a=1');
      expect(body.entries.cookie).to.include('b=2');
      expect(body.entries.host).to.equal('localhost');
    });

    it('srvx node-headers.test: [Symbol.iterator] combines duplicate headers (#188)', async () => {
      const body = await echo(['Cookie: first=1', 'Cookie: second=2']);
      expect(body.iterated.cookie).to.include('first=1');
      expect(body.iterated.cookie).to.include('second=2');
    });

    it('srvx node-headers.test: get() combines duplicate headers', async () => {
      const body = await echo(['Cookie: a=1', 'Cookie: b=2']);
      expect(body.cookie).to.include('a=1');
      expect(body.cookie).to.include('b=2');
    });

    it('srvx node-headers.test: get()/has() combine duplicate single-value headers regardless of iteration order', async () => {
      // Node keeps only the first of these in `req.headers`; a Request joins every one.
      const body = await echo([
        'Authorization: Bearer AAA',
        'Authorization: Bearer BBB',
        'Content-Type: text/plain',
        'Content-Type: application/json',
      ]);
      expect(body.authorization).to.equal('Bearer AAA, Bearer BBB');
      expect(body.contentType).to.equal('text/plain, application/json');
      expect(body.hasAuthorization).to.equal(true);
      expect(body.entries.authorization).to.equal('Bearer AAA, Bearer BBB');
    });

    it('srvx node-headers.test: get()/has() see a literal `__proto__` header', async () => {
      const withProto = await echo(['__proto__: evil', 'x-a: 1']);
      expect(withProto.proto).to.equal('evil');
      expect(withProto.hasProto).to.equal(true);
      const withoutProto = await echo(['x-a: 1']);
      expect(withoutProto.proto).to.equal(null);
      expect(withoutProto.hasProto).to.equal(false);
    });

    it('srvx node-headers.test: get()/has() ignore `req.headers` prototype artifacts and reject invalid names', async () => {
      const body = await echo(['x-a: 1']);
      expect(body.toString).to.equal(null);
      expect(body.hasToString).to.equal(false);
      expect(body.getInvalid).to.equal('TypeError');
      expect(body.hasInvalid).to.equal('TypeError');
      expect(body.getPseudo).to.equal('TypeError');
    });

    it("srvx node-headers.test: repeated cookie joins with '; ' like native Headers", async () => {
      const body = await echo(['Cookie: a=1', 'Cookie: b=2']);
      expect(body.cookie).to.equal('a=1; b=2');
      const ref = new Headers();
      ref.append('cookie', 'a=1');
      ref.append('cookie', 'b=2');
      expect(body.cookie).to.equal(ref.get('cookie'));
    });
  });

  describe('NodeRequestHeaders over HTTP/2 (h2c)', () => {
    const h2c = h2cServer();

    it('srvx node-headers.test: entries() combines duplicate headers (#188) - HTTP/2 cookies in separate fields', async () => {
      const res = await h2Request(h2c.session(), { ':path': '/srvx/echo-headers', cookie: ['a=1', 'b=2'] });
      const body = JSON.parse(res.body);
      expect(body.cookie).to.equal('a=1; b=2');
      expect(body.entries.cookie).to.equal('a=1; b=2');
      expect(body.iterated.cookie).to.equal('a=1; b=2');
    });
  });
});
