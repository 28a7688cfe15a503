/**
 * Ports https://github.com/h3js/srvx/blob/main/test/node-host-header.test.ts onto endpoints mounted by
 * this library (test/fixtures/peers-app, `/srvx/url` and `/srvx/url-info`), on Express 5 and a bare
 * node:http server.
 *
 * Peers disagree on a malformed Host: srvx serves the request with `_invalid_` as its host, hono answers
 * 400. The library answers 400 (through the app's error handler when there is one). On a missing Host,
 * srvx uses the socket's address and hono answers 400; the library names `localhost`. And where srvx
 * lets an absolute-form target's authority win over Host, or drops its userinfo, the library refuses
 * the request: a guard reading Host and a handler reading `request.url` must see one host.
 */
import { expect } from 'chai';
import { eachHost, rawRequest } from './hosts';

const MALFORMED_HOSTS = [
  'localhost:3000/foobar',
  'example.com?query=1',
  'host with spaces',
  'evil@host.com',
  '<script>alert(1)</script>',
  'host:port:extra',
];

describe('peers: srvx node-host-header.test', function () {
  this.timeout(10_000);

  eachHost('malformed Host header handling', (app, host) => {
    const withHost = (value: string) => rawRequest(app().port, `GET /srvx/url HTTP/1.1\r\nHost: ${value}`);

    it('srvx node-host-header.test: malformed Host is replaced with _invalid_, not crash (400 here)', async () => {
      const result = await withHost('localhost:3000/malicious-path');
      expect(result.status).to.equal(400);
      expect(result.body.toString()).to.not.include('malicious-path');
      if (host.appErrorHandler) expect(result.header('x-app-error-handler')).to.equal('1');
    });

    it('srvx node-host-header.test: server remains operational after malformed request', async () => {
      expect((await withHost('localhost:3000/evil')).status).to.equal(400);
      const valid = await withHost('localhost');
      expect(valid.status).to.equal(200);
      expect(valid.body.toString()).to.equal('http://localhost/srvx/url');
    });

    for (const value of MALFORMED_HOSTS) {
      it(`srvx node-host-header.test: malformed Host ${value} is replaced with _invalid_ (400 here)`, async () => {
        const result = await withHost(value);
        expect(result.status).to.equal(400);
      });
    }

    it('srvx node-host-header.test: valid Host headers work normally', async () => {
      for (const value of [
        'localhost',
        'localhost:3000',
        'example.com',
        'sub.example.com:8080',
        '127.0.0.1',
        '127.0.0.1:3000',
        '[::1]',
        '[::1]:3000',
      ]) {
        const result = await withHost(value);
        expect(result.status, value).to.equal(200);
        expect(result.body.toString(), value).to.equal(`http://${value}/srvx/url`);
      }
    });

    it('srvx node-host-header.test: missing Host header falls back to socket address (localhost here)', async () => {
      const result = await rawRequest(app().port, 'GET /srvx/url HTTP/1.0');
      expect(result.status).to.equal(200);
      expect(result.body.toString()).to.equal('http://localhost/srvx/url');
    });
  });

  eachHost('absolute-form request target', (app) => {
    const rawLine = (line: string, hostHeader = 'good.example') =>
      rawRequest(app().port, `${line}\r\nHost: ${hostHeader}`);

    it('srvx node-host-header.test: cannot claim https: on a plaintext socket', async () => {
      const result = await rawLine('GET https://good.example/srvx/url-info HTTP/1.1');
      expect(result.status).to.equal(200);
      const data = JSON.parse(result.body.toString());
      expect(data.protocol).to.equal('http:');
      expect(data.origin).to.equal('http://good.example');
      expect(data.url).to.equal('http://good.example/srvx/url-info');
      // srvx serves another authority's target (as http://evil.example.com/x); the library refuses it.
      expect((await rawLine('GET https://evil.example.com/srvx/url-info HTTP/1.1')).status).to.equal(400);
    });

    it('srvx node-host-header.test: userinfo is dropped instead of crashing the native Request (refused: 400)', async () => {
      const result = await rawLine(
        'GET http://evil.example.com@real.example/srvx/url-info HTTP/1.1',
        'real.example',
      );
      expect(result.status).to.equal(400);
    });

    it('srvx node-host-header.test: a HOST_RE-invalid request-line authority becomes _invalid_ (400 here)', async () => {
      const result = await rawLine('GET http://evil.example.com./x HTTP/1.1');
      expect(result.status).to.equal(400);
    });

    it('srvx node-host-header.test: non-http(s) schemes are rejected with 400', async () => {
      for (const line of [
        'GET file:///etc/passwd HTTP/1.1',
        'GET file://hehe/x HTTP/1.1',
        'GET ftp://evil.com/ HTTP/1.1',
        'GET zzz://evil/x HTTP/1.1',
      ]) {
        expect((await rawLine(line)).status, line).to.equal(400);
      }
    });

    it('srvx node-host-header.test: control: x-forwarded-* stays ignored with trustProxy: false', async () => {
      const result = await rawRequest(
        app().port,
        'GET /srvx/url-info HTTP/1.1\r\nHost: good.example\r\nX-Forwarded-Host: evil.example.com\r\nX-Forwarded-Proto: https',
      );
      expect(result.status).to.equal(200);
      expect(JSON.parse(result.body.toString()).url).to.equal('http://good.example/srvx/url-info');
    });
  });
});
