/**
 * Ports https://github.com/h3js/srvx/blob/main/test/_tests.ts (the shared suite, with its app
 * https://github.com/h3js/srvx/blob/main/test/_fixture.ts) and what
 * https://github.com/h3js/srvx/blob/main/test/node.test.ts adds to it (HTTP/2, absolute-form over TLS)
 * onto endpoints mounted by this library: test/fixtures/peers-app, `/srvx/*`, on Express 5 and a bare
 * node:http server. srvx's plugins, middleware option, NodeResponse/FastResponse and `request.ip` are its
 * own API; the client's address is read from `context.node` instead.
 */
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import path from 'node:path';
import tls from 'node:tls';
import { expect } from 'chai';
import { mountEndpoints } from '../../src';
import type { AbortEntry } from '../fixtures/peers-app/_lib/state';
import { h2Request } from '../support/h2';
import { delay, eachHost, PEERS_APP, rawRequest, within } from './hosts';

const TLS = path.join(__dirname, '../fixtures/tls');
const key = fs.readFileSync(path.join(TLS, 'key.pem'));
const cert = fs.readFileSync(path.join(TLS, 'cert.pem'));

describe('peers: srvx _tests', function () {
  this.timeout(10_000);

  eachHost('addTests', (app, host) => {
    const url = (p: string) => `${app().url}${p}`;

    it('srvx _tests: GET works', async () => {
      const response = await fetch(url('/srvx'));
      expect(response.status).to.equal(200);
      expect(await response.text()).to.equal('ok');
    });

    it('srvx _tests: request instanceof Request', async () => {
      const response = await fetch(url('/srvx/req-instanceof'));
      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.equal({ instanceofRequest: 'yes', instanceofExtended: 'no' });
    });

    it('srvx _tests: extended request instanceof Request', async () => {
      const response = await fetch(url('/srvx/extended-req-instanceof'));
      expect(await response.json()).to.deep.equal({ instanceofRequest: 'yes', instanceofExtended: 'yes' });
    });

    it('srvx _tests: request.headers instanceof Headers', async () => {
      const response = await fetch(url('/srvx/req-headers-instanceof'));
      expect(await response.text()).to.equal('yes');
    });

    for (const pathname of ['/srvx/req-clone', '/srvx/req-new-req']) {
      it(`srvx _tests: clone request ${pathname.slice(5)}`, async () => {
        const response = await fetch(url(pathname), { method: 'DELETE', headers: { 'x-test': '123' } });
        expect(response.status).to.equal(200);
        const body = await response.json();
        expect(body.pathname).to.equal(pathname);
        expect(body.method).to.equal('DELETE');
        expect(body.headers['x-test']).to.equal('123');
      });
    }

    it('srvx _tests: headers', async () => {
      const response = await fetch(url('/srvx/headers'), { headers: { foo: 'bar', bar: 'baz' } });
      expect(response.status).to.equal(200);
      const body = await response.json();
      expect(body).to.include({ foo: 'bar', bar: 'baz', unsetHeader: null });
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      expect(response.headers.get('x-req-foo')).to.equal('bar');
      expect(response.headers.get('x-req-bar')).to.equal('baz');
    });

    it('srvx _tests: response headers mutated', async () => {
      const response = await fetch(url('/srvx/headers/response/mutation'));
      expect(response.status).to.equal(200);
      expect(response.headers.get('x-ignored-mutation')).to.equal(null);
      expect(response.headers.get('x-test-header-1')).to.equal('1');
      expect(response.headers.get('x-test-header-2')).to.equal('2');
      await response.text();
    });

    it('srvx _tests: POST works (binary body)', async () => {
      const response = await fetch(url('/srvx/body/binary'), {
        method: 'POST',
        body: new Uint8Array([1, 2, 3]),
      });
      expect(response.status).to.equal(200);
      expect([...new Uint8Array(await response.arrayBuffer())]).to.deep.equal([1, 2, 3]);
    });

    it('srvx _tests: POST works (binary body streamed back as it arrives, 1 MiB)', async () => {
      const big = Buffer.alloc(1024 * 1024 - 1, 7);
      const response = await fetch(url('/srvx/body/binary'), { method: 'POST', body: big });
      expect(response.status).to.equal(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(big)).to.equal(true);
    });

    it('srvx _tests: POST works (text body)', async () => {
      const response = await fetch(url('/srvx/body/text'), { method: 'POST', body: 'hello world' });
      expect(response.status).to.equal(200);
      expect(await response.text()).to.equal('hello world');
    });

    it('srvx _tests: ip (the socket address, from context.node)', async () => {
      const response = await fetch(url('/srvx/ip'));
      expect(await response.text()).to.match(/ip: (::1|127\.0\.0\.1|::ffff:127\.0\.0\.1)/);
    });

    it('srvx _tests: runtime agnostic error handler', async () => {
      const response = await fetch(url('/srvx/error'));
      expect(response.status).to.equal(500);
      if (host.appErrorHandler) expect(await response.text()).to.equal('error: test error');
      else expect(await response.text()).to.equal('Internal Server Error');
    });

    it('srvx _tests: abort request', async () => {
      const controller = new AbortController();
      const response = await fetch(url('/srvx/abort'), { signal: controller.signal });
      controller.abort();
      expect(response.status).to.equal(200);
      const failed = await response.text().then(
        () => undefined,
        (error: Error) => error,
      );
      expect(failed?.name).to.equal('AbortError');

      let abort: AbortEntry | undefined;
      for (let i = 0; i < 50 && !abort; i++) {
        await delay(10);
        const aborts = (await (await fetch(url('/srvx/abort-log'))).json()) as AbortEntry[];
        abort = aborts.find((entry) => entry.request === 'GET /srvx/abort');
      }
      expect(abort, 'the abort was logged').to.not.equal(undefined);
      // Peers disagree on `signal.reason` (srvx: an AbortError or "aborted"); the library's says the client left.
      expect(abort!.reasonName).to.equal('ClientClosedError');
      expect(abort!.reason).to.match(/ClientClosedError: The client closed the connection/);
    });

    it('srvx _tests: total aborts', async () => {
      const aborts = (await (await fetch(url('/srvx/abort-log'))).json()) as AbortEntry[];
      // Every other request so far was answered in full: only the one above aborted.
      expect(aborts.map((entry) => entry.request)).to.deep.equal(['GET /srvx/abort']);
    });

    it('srvx _tests: cancel reading body', async () => {
      const res = await fetch(url('/srvx/body-cancel'), {
        method: 'POST',
        duplex: 'half',
        body: new ReadableStream({
          async pull(controller) {
            await delay(20);
            controller.enqueue(new TextEncoder().encode('hello'));
          },
        }),
      } as RequestInit);
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ abortedAfterCancel: false, abortedAfterTimeout: false });
    });

    it('srvx _tests: response stream error', async () => {
      const res = await fetch(url('/srvx/response/stream-error'));
      expect(res.status).to.equal(200);
      const reader = res.body!.getReader();
      const chunks: Uint8Array[] = [];
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (value) chunks.push(value);
        if (done) break;
      }
      expect(Buffer.concat(chunks).toString('utf8').trim()).to.equal('chunk1\nchunk2');
    });

    for (const [kind, expected] of [
      ['ReadableStream', 'chunk0\nchunk1\nchunk2\n'],
      ['NodeReadable', 'chunk0\nchunk1\nchunk2\n'],
      ['ArrayBuffer', 'hello!'],
      ['Uint8Array', 'hello!'],
    ]) {
      it(`srvx _tests: response types - ${kind}`, async () => {
        const res = await fetch(url(`/srvx/response/${kind}`));
        expect(res.status).to.equal(200);
        expect(await res.text()).to.equal(expected);
      });
    }

    it('srvx _tests: response cloning - clone simple response', async () => {
      const response = await fetch(url('/srvx/clone-response'));
      expect(response.status).to.equal(200);
      expect(await response.text()).to.equal('cloned');
    });

    it('srvx _tests: response cloning - clone with headers', async () => {
      const response = await fetch(url('/srvx/clone-response'), {
        headers: { 'x-clone-with-headers': 'true' },
      });
      expect(response.headers.get('x-clone-with-headers')).to.equal('true');
      expect(await response.text()).to.equal('cloned');
    });

    it('srvx _tests: inspect objects', async () => {
      const response = await fetch(url('/srvx/node-inspect'), { headers: { 'x-foo': '1' } });
      expect(response.status).to.equal(200);
      expect((await response.text()).includes('x-foo')).to.equal(true);
    });

    it('srvx _tests: normalize traversal in request path (a dot segment is refused: 400)', async () => {
      // srvx (and hono) resolve `/foo/../bar/baz`; the library refuses it, so that the path routed, the
      // path guards in front matched and `request.url` are one.
      const res = await rawRequest(app().port, 'GET /srvx/foo/../bar/baz HTTP/1.1\r\nHost: localhost');
      expect(res.status).to.equal(400);
      const straight = await fetch(url('/srvx/bar/baz'));
      expect((await straight.json()).pathname).to.equal('/srvx/bar/baz');
    });

    it("srvx _tests: absolute path in request line (its authority must be the Host's)", async () => {
      // srvx answers 200 for `GET http://localhost:<port>/ HTTP/1.1` with `Host: example.com`, the target's
      // authority winning. The library refuses two authorities that disagree (400); one that agrees is served.
      const mismatched = await rawRequest(app().port, `GET ${url('/srvx')} HTTP/1.1\r\nHost: example.com`);
      expect(mismatched.status).to.equal(400);
      const agreeing = await rawRequest(
        app().port,
        `GET ${url('/srvx')} HTTP/1.1\r\nHost: ${new URL(app().url).host}`,
      );
      expect(agreeing.status).to.equal(200);
      expect(agreeing.body.toString()).to.equal('ok');
    });
  });

  describe('node (http2)', () => {
    let server: http2.Http2SecureServer;
    let session: http2.ClientHttp2Session;
    let origin: string;
    before(async () => {
      const endpoints = mountEndpoints({ dir: PEERS_APP, onError: () => {} });
      await endpoints.ready;
      server = http2.createSecureServer(
        { key, cert, allowHTTP1: false },
        endpoints as unknown as Parameters<typeof http2.createSecureServer>[1],
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `https://localhost:${(server.address() as { port: number }).port}`;
      session = http2.connect(origin, {
        ca: cert,
        host: '127.0.0.1',
        servername: 'localhost',
        rejectUnauthorized: false,
      });
      session.on('error', () => {});
    });
    after(() => {
      session.close();
      server.close();
    });

    it('srvx node.test (http2): GET works', async () => {
      const res = await h2Request(session, { ':path': '/srvx' });
      expect(res.status).to.equal(200);
      expect(res.body).to.equal('ok');
    });

    it('srvx node.test (http2): headers', async () => {
      const res = await h2Request(session, { ':path': '/srvx/headers', foo: 'bar', bar: 'baz' });
      expect(JSON.parse(res.body)).to.include({ foo: 'bar', bar: 'baz', unsetHeader: null });
      expect(res.headers['x-req-foo']).to.equal('bar');
    });

    it('srvx node.test (http2): POST works (text body)', async () => {
      const res = await h2Request(session, { ':path': '/srvx/body/text', ':method': 'POST' }, 'hello world');
      expect(res.body).to.equal('hello world');
    });

    it('srvx node.test (http2): POST works (binary body)', async () => {
      const res = await h2Request(session, { ':path': '/srvx/body/binary', ':method': 'POST' }, 'binary!');
      expect(res.body).to.equal('binary!');
    });

    it('srvx node.test (http2): response types - ReadableStream', async () => {
      const res = await h2Request(session, { ':path': '/srvx/response/ReadableStream' });
      expect(res.body).to.equal('chunk0\nchunk1\nchunk2\n');
    });

    it('srvx node.test (http2): runtime agnostic error handler', async () => {
      const res = await h2Request(session, { ':path': '/srvx/error' });
      expect(res.status).to.equal(500);
    });

    it('srvx node.test (http2): the URL is https: with :authority as the host', async () => {
      const res = await h2Request(session, { ':path': '/srvx/url' });
      expect(res.body).to.equal(`${origin}/srvx/url`);
    });

    it('srvx _tests: absolute URI in :path is rejected by HTTP/2', async () => {
      for (const target of ['https://evil.example.com/x', 'http://evil.example.com/x']) {
        const outcome = await h2Request(session, { ':path': target, ':authority': 'localhost' }).then(
          (res) => res.status,
          (error: Error) => error,
        );
        if (typeof outcome === 'number') expect(outcome, target).to.equal(400);
        else expect((outcome as NodeJS.ErrnoException).code, target).to.equal('ERR_HTTP2_STREAM_ERROR');
      }
    });
  });

  describe('node (absolute-form over TLS)', () => {
    let server: http.Server;
    let port: number;
    before(async () => {
      const endpoints = mountEndpoints({ dir: PEERS_APP, onError: () => {} });
      await endpoints.ready;
      const https = await import('node:https');
      server = https.createServer({ key, cert }, endpoints);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    after(() => {
      server.closeAllConnections();
      server.close();
    });

    function rawTLS(requestLine: string): Promise<string> {
      return within(
        new Promise((resolve, reject) => {
          const socket = tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => {
            socket.write(`${requestLine}\r\nHost: good.example\r\nConnection: close\r\n\r\n`);
          });
          let data = '';
          socket.on('data', (chunk) => (data += chunk));
          socket.on('end', () => resolve(data));
          socket.on('error', reject);
        }),
        3000,
        'the TLS exchange',
      );
    }

    it('srvx node.test: origin-form keeps https:', async () => {
      expect(await rawTLS('GET /srvx/url HTTP/1.1')).to.include('https://good.example/srvx/url');
    });

    it('srvx node.test: an http: absolute-form target cannot downgrade request.url', async () => {
      const agreeing = await rawTLS('GET http://good.example/srvx/url HTTP/1.1');
      expect(agreeing).to.match(/^HTTP\/1\.1 200 /);
      expect(agreeing).to.include('https://good.example/srvx/url');
      expect(agreeing).to.not.include('http://good.example/srvx/url');
      // srvx serves another authority's target as https://evil.example.com/x; the library refuses it (400).
      expect(await rawTLS('GET http://evil.example.com/x HTTP/1.1')).to.match(/^HTTP\/1\.1 400 /);
    });
  });
});
