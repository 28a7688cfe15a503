/**
 * Ports the Node<->Web bridge cases of https://github.com/h3js/srvx/blob/main/test/node-adapters.test.ts
 * onto endpoints mounted by this library (test/fixtures/peers-app, `/srvx/*` and `srvx-unlimited`), on
 * Express 5 and a bare node:http server, and over HTTP/2 (h2c) where srvx tests it: the request signal,
 * the body-read regressions, and the fetch-spec regressions of the response. srvx's adapters in the other
 * direction (toNodeHandler/toFetchHandler/fetchNodeHandler running Node handlers as Web ones), its
 * FastResponse internals, `serve()` startup and reusePort have no counterpart.
 *
 * Peers disagree on `clone()` after the body was read: srvx expects it to work, hono (and the Fetch
 * standard) to throw. The library's Request is undici's: it throws a TypeError.
 */
import { expect } from 'chai';
import { HEAD_CHUNKS } from '../../src/dispatch';
import { hasReported, outcome } from '../fixtures/peers-app/_lib/state';
import { h2Request } from '../support/h2';
import { httpRequest } from '../support/net';
import {
  capturingProcessErrors,
  delay,
  eachHost,
  headerValues,
  newId,
  parseResponses,
  peerHosts,
  rawExchange,
  rawRequest,
  within,
  h2cServer,
} from './hosts';

const post = (body: BodyInit) => ({ method: 'POST', body });

describe('peers: srvx node-adapters.test', function () {
  this.timeout(10_000);

  eachHost('adapters (what a Response becomes on the wire)', (app) => {
    const url = (p: string) => `${app().url}${p}`;

    it('srvx node-adapters.test: null-body status 204 does not become a 500', async () => {
      const res = await httpRequest(url('/srvx/null-body?status=204'));
      expect(res.status).to.equal(204);
      expect(res.body.toString()).to.equal('');
    });

    it('srvx node-adapters.test: conditional-GET 304 does not become a 500', async () => {
      const res = await httpRequest(url('/srvx/null-body?status=304'));
      expect(res.status).to.equal(304);
      expect(res.body.toString()).to.equal('');
    });

    it('srvx node-adapters.test: explicit Transfer-Encoding: chunked does not corrupt the body', async () => {
      const res = await httpRequest(url('/srvx/te-chunked'));
      expect(res.status).to.equal(200);
      expect(res.body.toString()).to.equal('helloworld');
      const framings = [res.headers['transfer-encoding'], res.headers['content-length']].filter(Boolean);
      expect(framings, 'one framing').to.have.length(1);
    });

    it('srvx node-adapters.test: response body containing CRLFCRLF arrives intact', async () => {
      const res = await httpRequest(url('/srvx/crlf'));
      expect(res.status).to.equal(200);
      expect(res.body.toString()).to.equal('before\r\n\r\nafter\r\n\r\nend');
    });

    for (const [name, value] of [
      ['connection', 'keep-alive'],
      ['keep-alive', 'timeout=5'],
      ['proxy-authenticate', 'Basic'],
      ['te', 'trailers'],
      ['transfer-encoding', 'chunked'],
    ] as const) {
      it(`srvx node-adapters.test: hop-by-hop headers - explicit ${name} does not break the response`, async () => {
        // srvx strips these from a Response it builds out of a Node one. Going the other way, what a
        // handler sets must still leave one well-framed response, its body and end-to-end headers intact.
        const raw = await rawExchange(
          app().port,
          `GET /srvx/hop-by-hop?name=${name}&value=${encodeURIComponent(value)} HTTP/1.1\r\nHost: localhost\r\n\r\n` +
            'GET /srvx HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
        );
        const responses = parseResponses(raw);
        expect(responses[0]!.status).to.equal(200);
        expect(responses[0]!.body.toString()).to.equal('hello');
        expect(responses[0]!.header('content-type')).to.equal('text/plain');
        if (responses.length > 1) expect(responses[1]!.body.toString()).to.equal('ok');
      });
    }

    it('srvx node-adapters.test: large upload applies backpressure and arrives completely', async () => {
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const total = chunk.length * 32;
      const res = await fetch(url('/srvx-unlimited'), {
        method: 'POST',
        duplex: 'half',
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i < 32; i++) controller.enqueue(chunk);
            controller.close();
          },
        }),
      } as RequestInit);
      expect(res.status).to.equal(200);
      const { received, bufferedBeforeReading } = await res.json();
      expect(received).to.equal(total);
      expect(bufferedBeforeReading).to.be.lessThan(total / 2);
    });
  });

  eachHost('request signal', (app) => {
    const url = (p: string) => `${app().url}${p}`;

    it('srvx node-adapters.test: should not fire abort signal on successful GET request', async () => {
      const id = newId('signal-get');
      const res = await fetch(url(`/srvx/signal/get?id=${id}`));
      expect(await res.text()).to.equal('ok');
      await delay(30);
      expect(hasReported(`${id}:aborted`)).to.equal(false);
    });

    it('srvx node-adapters.test: should not fire abort signal on successful POST request', async () => {
      const id = newId('signal-post');
      const res = await fetch(url(`/srvx/signal/post?id=${id}`), post('test body'));
      expect(await res.text()).to.equal('Received: test body');
      await delay(30);
      expect(hasReported(`${id}:aborted`)).to.equal(false);
    });

    it('srvx node-adapters.test: should not abort when the signal is first read after the body', async () => {
      const id = newId('signal-after-body');
      const res = await fetch(url(`/srvx/signal/after-body?id=${id}`), post('test body'));
      expect(await res.text()).to.equal('Received: test body');
      expect(await outcome(`${id}:aborted`)).to.equal(false);
    });

    it('srvx node-adapters.test: should not abort when the signal is first read after a streamed body', async () => {
      const id = newId('signal-after-stream');
      const res = await fetch(url(`/srvx/signal/after-stream?id=${id}`), post('test body'));
      expect(await res.text()).to.equal('Received: test body');
      expect(await outcome(`${id}:aborted`)).to.equal(false);
    });

    it('srvx node-adapters.test: should fire abort signal when client disconnects', async () => {
      const id = newId('signal-disconnect');
      const controller = new AbortController();
      const pending = fetch(url(`/srvx/signal/disconnect?id=${id}`), { signal: controller.signal }).catch(
        () => {},
      );
      await within(outcome(`${id}:ready`), 2000, 'the handler');
      controller.abort();
      await pending;
      expect(await within(outcome(`${id}:aborted`), 1000, 'the abort signal')).to.equal(true);
    });
  });

  describe('request signal over HTTP/2 (h2c)', () => {
    const h2c = h2cServer();

    const serveAndPost = (route: string, id: string) =>
      h2Request(
        h2c.session(),
        { ':method': 'POST', ':path': `${route}?id=${id}`, 'content-length': 9 },
        'test body',
      );

    it('srvx node-adapters.test (http2): should not abort when the signal is first read after the body', async () => {
      const id = newId('h2-signal-after-body');
      expect((await serveAndPost('/srvx/signal/after-body', id)).body).to.equal('Received: test body');
      expect(await outcome(`${id}:aborted`)).to.equal(false);
    });

    it('srvx node-adapters.test (http2): should not abort when the signal is first read after a streamed body', async () => {
      const id = newId('h2-signal-after-stream');
      expect((await serveAndPost('/srvx/signal/after-stream', id)).body).to.equal('Received: test body');
      expect(await outcome(`${id}:aborted`)).to.equal(false);
    });

    it('srvx node-adapters.test (http2): should not abort when the body is never read', async () => {
      const id = newId('h2-signal-unread');
      expect((await serveAndPost('/srvx/signal/unread', id)).body).to.equal('ok');
      expect(await outcome(`${id}:aborted`)).to.equal(false);
    });
  });

  eachHost('node body crash regressions', (app, host) => {
    const url = (p: string) => `${app().url}${p}`;
    const json = async (p: string, init?: RequestInit) => (await fetch(url(p), init)).json();

    it('srvx node-adapters.test: F1: async node handler that throws does not crash or hang', async () => {
      await capturingProcessErrors(
        async (captured) => {
          const res = await within(fetch(url('/srvx/throw-after-settle')), 3000, 'the answer');
          expect(res.status).to.equal(500);
          expect(await res.text()).to.equal(host.appErrorHandler ? 'error: boom' : 'Internal Server Error');
          await delay(50);
          expect(captured).to.deep.equal([]);
        },
        ['unhandledRejection'],
      );
    });

    it('srvx node-adapters.test: F2: second body read rejects with TypeError instead of hanging', async () => {
      expect(await json('/srvx/body/second-read', post('hello'))).to.deep.equal({
        first: 'hello',
        second: 'TypeError',
      });
    });

    it('srvx node-adapters.test: F3: bodyUsed / clone() / mode work after body consumption (clone() throws)', async () => {
      expect(await json('/srvx/body/after-consume', post('hello'))).to.deep.equal({
        text: 'hello',
        bodyUsedBefore: false,
        bodyUsedAfter: true,
        clone: 'TypeError',
        mode: 'cors',
      });
    });

    it('srvx node-adapters.test: every body method rejects after the body is consumed', async () => {
      expect(await json('/srvx/body/every-method', post('hello'))).to.deep.equal({
        bodyUsed: 'true',
        arrayBuffer: 'TypeError: unusable',
        bytes: 'TypeError: unusable',
        blob: 'TypeError: unusable',
        formData: 'TypeError: unusable',
        text: 'TypeError: unusable',
        json: 'TypeError: unusable',
      });
    });

    it('srvx node-adapters.test: streaming the body directly marks it used and rejects later reads', async () => {
      expect(await json('/srvx/body/stream-then-read', post('hello'))).to.deep.equal({
        streamed: 'hello',
        bodyUsed: true,
        arrayBuffer: 'TypeError',
      });
    });

    it('srvx node-adapters.test: accessing req.body without reading it does not mark the body used', async () => {
      expect(await json('/srvx/body/touch', post('hello'))).to.deep.equal({
        hasBody: true,
        bodyUsed: false,
        text: 'hello',
      });
    });

    it('srvx node-adapters.test: cancelling req.body marks the body used and rejects later reads', async () => {
      expect(await json('/srvx/body/cancel-then-read', post('hello'))).to.deep.equal({
        bodyUsed: true,
        text: 'TypeError',
      });
    });

    it('srvx node-adapters.test: reading a clone leaves the original body readable', async () => {
      expect(await json('/srvx/body/clone-then-original', post('hello'))).to.deep.equal({
        fromClone: 'hello',
        fromOriginal: 'resolved(hello)',
      });
    });

    it('srvx node-adapters.test: arrayBuffer() reads the body once and rejects on a second read', async () => {
      expect(await json('/srvx/body/arraybuffer-twice', post('hello'))).to.deep.equal({
        first: 'hello',
        bodyUsed: true,
        second: 'TypeError',
      });
    });

    for (const order of ['text-first', 'body-first']) {
      it(`srvx node-adapters.test: GET with a body on the wire is null-body (${order})`, async () => {
        const raw = await rawExchange(
          app().port,
          `GET /srvx/body/get-null?order=${order} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello`,
        );
        const responses = parseResponses(raw);
        expect(responses).to.have.length(1);
        expect(JSON.parse(responses[0]!.body.toString())).to.deep.equal({ bodyNull: true, text: '' });
      });
    }

    it('srvx node-adapters.test: F5: DataView view body sends exact bytes and keeps the connection clean', async () => {
      const raw = await rawExchange(
        app().port,
        'GET /srvx/view HTTP/1.1\r\nHost: localhost\r\n\r\n' +
          'GET /srvx/second HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      );
      const responses = parseResponses(raw);
      expect(responses).to.have.length(2);
      expect([...responses[0]!.body]).to.deep.equal([3, 4, 5, 6]);
      expect(responses[1]!.body.toString()).to.equal('second');
    });
  });

  eachHost('node fetch-spec correctness regressions', (app, host) => {
    const url = (p: string) => `${app().url}${p}`;

    it('srvx node-adapters.test: HEAD cancels a streaming body instead of pumping it', async () => {
      const id = newId('head-stream');
      const res = await httpRequest(url(`/srvx/head/stream?id=${id}`), { method: 'HEAD' });
      expect(res.status).to.equal(200);
      expect(res.body.length).to.equal(0);
      const { pulls } = await within(
        outcome<{ pulls: number }>(`${id}:cancelled`),
        500,
        'the stream to be cancelled',
      );
      // srvx cancels before any read (at most the stream's own first pull). The library reads a few
      // chunks (HEAD_CHUNKS), so that a blob or a form sent whole gets its Content-Length on HEAD too:
      // bounded, never pumped.
      expect(pulls).to.be.at.most(HEAD_CHUNKS + 2);
    });

    it('srvx node-adapters.test: HEAD discards a Node Readable body instead of pumping it', async () => {
      const id = newId('head-readable');
      const res = await httpRequest(url(`/srvx/head/node-readable?id=${id}`), { method: 'HEAD' });
      expect(res.status).to.equal(200);
      expect(res.body.length).to.equal(0);
      const closed = await within(
        outcome<{ reads: number; destroyed: boolean }>(`${id}:closed`),
        500,
        'the Readable to close',
      );
      expect(closed.destroyed).to.equal(true);
      // As above: a few chunks (HEAD_CHUNKS), not the 64 the Readable would give.
      expect(closed.reads).to.be.at.most(HEAD_CHUNKS + 2);
    });

    it("srvx node-adapters.test: HEAD keeps the handler's headers for a Node Readable body", async () => {
      const head = await httpRequest(url('/srvx/head/node-readable-206'), { method: 'HEAD' });
      expect(head.status).to.equal(206);
      expect(head.headers['content-length']).to.equal('10');
      expect(head.headers['x-custom']).to.equal('1');
      expect(head.body.length).to.equal(0);
      const get = await httpRequest(url('/srvx/head/node-readable-206'));
      expect(get.status).to.equal(206);
      expect(get.body.toString()).to.equal('helloworld');
    });

    it('srvx node-adapters.test: empty-string body keeps default content-type and content-length', async () => {
      const res = await httpRequest(url('/srvx/empty-string'));
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/plain;charset=UTF-8');
      expect(res.headers['content-length']).to.equal('0');
    });

    it('srvx node-adapters.test: text() on a locked body stream rejects instead of throwing', async () => {
      const res = await fetch(url('/srvx/body/locked-then-text'), post('hello'));
      expect(await res.text()).to.equal('TypeError');
    });

    it('srvx node-adapters.test: headers mutations after _request materialization reach both views (clone() sees them)', async () => {
      const res = await fetch(url('/srvx/headers/mutate'), { headers: { 'x-early': 'yes' } });
      expect(await res.json()).to.deep.equal({ wrapper: '1', cloneSeesWrapperSet: '1', early: 'yes' });
    });

    it('srvx node-adapters.test: formData() sees content-type set through req.headers', async () => {
      const res = await fetch(url('/srvx/form-content-type'), {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'a=1',
      });
      expect(await res.json()).to.deep.equal({ value: '1' });
    });

    it('srvx node-adapters.test: send error is logged and returns a bare 500 (an invalid header value)', async () => {
      const before = app().errors.length;
      const res = await httpRequest(url('/srvx/bad-header-value'));
      expect(res.status).to.equal(500);
      expect(res.headers['x-bad']).to.equal(undefined);
      expect(headerValues(res.rawHeaders, 'injected')).to.deep.equal([]);
      if (!host.appErrorHandler) expect(res.body.toString()).to.equal('Internal Server Error');
      expect(app().errors.length - before, 'onError is told').to.equal(1);
    });
  });

  it('srvx node-adapters.test: (request signal) a request answered before the client hangs up is never aborted', async () => {
    // The HTTP/1 half of "should not abort when the body is never read": the answer goes out, the
    // client closes right after; the signal stays quiet.
    const server = await peerHosts[1]!.start();
    try {
      const id = newId('signal-unread-h1');
      const res = await rawRequest(
        server.port,
        `POST /srvx/signal/unread?id=${id} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 9`,
        'test body',
      );
      expect(res.body.toString()).to.equal('ok');
      expect(await outcome(`${id}:aborted`)).to.equal(false);
    } finally {
      await server.close();
    }
  });
});
