/**
 * The tree behind Node's HTTP/2 compatibility API: `http2.createSecureServer({ allowHTTP1: true })`
 * answering h2 and HTTP/1.1 clients alike, and a cleartext h2c server. HTTP/2 carries the host in
 * `:authority`, not in a Host header, so the URL a handler sees must be built from it.
 */
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { mountEndpoints } from '../../src';
import { h2Request } from '../support/h2';

const DIR = path.join(__dirname, '../fixtures/app');
const TLS = path.join(__dirname, '../fixtures/tls');

// HTTP/2 has no reason phrase: Node warns (once per process) when one is read or set on a response.
const warnings: string[] = [];
const onWarning = (warning: Error) => void warnings.push(`${warning.name}: ${warning.message}`);
before(() => process.on('warning', onWarning));
after(() => {
  process.off('warning', onWarning);
  expect(
    warnings.filter((w) => /status message/i.test(w)),
    'no reason phrase on HTTP/2',
  ).to.deep.equal([]);
});

for (const secure of [true, false]) {
  describe(`HTTP/2: ${secure ? 'h2 over TLS, with HTTP/1.1 allowed' : 'cleartext h2c'}`, () => {
    let server: http2.Http2Server | http2.Http2SecureServer;
    let session: http2.ClientHttp2Session;
    let port: number;
    const scheme = secure ? 'https' : 'http';

    before(async () => {
      const endpoints = mountEndpoints({ dir: DIR });
      await endpoints.ready;
      const handler = endpoints as unknown as (
        req: http2.Http2ServerRequest,
        res: http2.Http2ServerResponse,
      ) => void;
      server = secure
        ? http2.createSecureServer(
            {
              key: readFileSync(path.join(TLS, 'key.pem')),
              cert: readFileSync(path.join(TLS, 'cert.pem')),
              allowHTTP1: true,
            },
            handler,
          )
        : http2.createServer(handler);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
      session = http2.connect(`${scheme}://127.0.0.1:${port}`, { rejectUnauthorized: false });
    });

    after(async () => {
      session.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it("a handler's request.url names the host the client asked for, from :authority", async () => {
      const reply = await h2Request(session, {
        ':method': 'GET',
        ':path': '/whoami?x=1',
        ':authority': `api.example.test:${port}`,
        ':scheme': scheme,
      });
      expect(reply.status).to.equal(200);
      expect(JSON.parse(reply.body).url).to.equal(`${scheme}://api.example.test:${port}/whoami?x=1`);
    });

    it(':authority and a Host header that disagree: 400 (RFC 9113, section 8.3.1)', async () => {
      const reply = await h2Request(session, {
        ':method': 'GET',
        ':path': '/whoami',
        ':authority': 'public.example',
        ':scheme': scheme,
        host: 'admin.internal',
      });
      expect(reply.status).to.equal(400);
      expect(reply.body).to.not.include('admin.internal');
    });

    it(':authority and a Host header that agree (in any case): served', async () => {
      const reply = await h2Request(session, {
        ':method': 'GET',
        ':path': '/whoami',
        ':authority': 'public.example',
        ':scheme': scheme,
        host: 'PUBLIC.example',
      });
      expect(reply.status).to.equal(200);
      expect(JSON.parse(reply.body).url).to.equal(`${scheme}://public.example/whoami`);
    });

    it('params, JSON and a body sent back', async () => {
      const user = await h2Request(session, { ':method': 'GET', ':path': '/api/users' });
      expect(user.status).to.equal(200);
      expect(user.headers['content-type']).to.match(/^application\/json/);
      const echo = await h2Request(
        session,
        { ':method': 'POST', ':path': '/echo?as=json', 'content-type': 'application/json' },
        JSON.stringify({ a: [1, 'é'] }),
      );
      expect(echo.status).to.equal(200);
      expect(JSON.parse(echo.body)).to.deep.equal({ received: { a: [1, 'é'] } });
    });

    it('a stream goes out as it is written', async () => {
      const reply = await h2Request(session, { ':method': 'GET', ':path': '/stream' });
      expect(reply.status).to.equal(200);
      expect(reply.body).to.equal('first\nsecond\nthird\n');
      expect(reply.firstByte).to.be.lessThan(reply.total - 150);
    });

    it('HEAD, a method the file does not serve, and a body over the limit', async () => {
      const head = await h2Request(session, { ':method': 'HEAD', ':path': '/api/users' });
      expect(head.status).to.equal(200);
      expect(head.body).to.equal('');
      const notAllowed = await h2Request(session, { ':method': 'PATCH', ':path': '/stream' });
      expect(notAllowed.status).to.equal(405);
      const big = await h2Request(
        session,
        { ':method': 'POST', ':path': '/echo?as=text', 'content-type': 'text/plain' },
        'x'.repeat(1024 * 1024 + 1),
      );
      expect(big.status).to.equal(413);
      // The session is still usable: a refusal does not tear down the other streams.
      expect((await h2Request(session, { ':method': 'GET', ':path': '/api/users' })).status).to.equal(200);
    });

    if (secure) {
      it('an HTTP/1.1 client on the same server gets the Host it sent', async () => {
        const body = await new Promise<string>((resolve, reject) => {
          https
            .get(
              {
                host: '127.0.0.1',
                port,
                path: '/whoami',
                headers: { host: 'h1.example.test' },
                rejectUnauthorized: false,
              },
              (res) => {
                const chunks: Buffer[] = [];
                res.on('data', (c: Buffer) => chunks.push(c));
                res.on('end', () => resolve(Buffer.concat(chunks).toString()));
              },
            )
            .on('error', reject);
        });
        expect(JSON.parse(body).url).to.equal('https://h1.example.test/whoami');
      });
    }
  });
}
