/**
 * Ports https://github.com/honojs/node-server/blob/main/test/server.test.ts (and the app of
 * https://github.com/honojs/node-server/blob/main/test/app.ts) onto endpoints mounted by this library:
 * test/fixtures/peers-app, `/hono/*`, on Express 5 and a bare node:http server. hono's own API (its
 * Context, basicAuth, etag, serve(), overrideGlobalObjects) has no counterpart and is left out.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { expect } from 'chai';
import { mountEndpoints } from '../../src';
import { LARGE_TEXT } from '../fixtures/peers-app/_lib/hono';
import { open, outcome, state } from '../fixtures/peers-app/_lib/state';
import { h2Request } from '../support/h2';
import { httpRequest, listen } from '../support/net';
import { delay, eachHost, headerValues, newId, PEERS_APP, streamRequest, within, h2cServer } from './hosts';

const TLS = path.join(__dirname, '../fixtures/tls');

describe('peers: hono server.test', function () {
  this.timeout(10_000);

  eachHost('Basic', (app, host) => {
    it('hono server.test: Should return 200 response - GET /', async () => {
      const res = await fetch(`${app().url}/hono`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(await res.text()).to.equal('Hello! Node!');
    });

    it('hono server.test: Should return 200 response - GET /url', async () => {
      const res = await fetch(`${app().url}/hono/url`);
      expect(res.status).to.equal(200);
      const url = new URL(await res.text());
      expect(url.pathname).to.equal('/hono/url');
      expect(url.hostname).to.equal('127.0.0.1');
      expect(url.protocol).to.equal('http:');
    });

    it('hono server.test: Should return 200 response - GET /posts?page=2', async () => {
      const res = await fetch(`${app().url}/hono/posts?page=2`);
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal('Page 2');
    });

    it('hono server.test: Should return 200 response - GET /user-agent', async () => {
      const res = await fetch(`${app().url}/hono/user-agent`, { headers: { 'user-agent': 'Hono' } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(await res.text()).to.equal('Hono');
    });

    it('hono server.test: Should return 302 response - POST /posts', async () => {
      const res = await fetch(`${app().url}/hono/posts`, { method: 'POST', redirect: 'manual' });
      expect(res.status).to.equal(302);
      expect(res.headers.get('location')).to.equal('/posts');
    });

    it('hono server.test: Should return 200 response - POST /no-body-consumed (Content-Length: 0 still has a body)', async () => {
      const res = await httpRequest(`${app().url}/hono/no-body-consumed`, {
        method: 'POST',
        headers: { 'content-length': '0' },
        body: '',
      });
      expect(res.status).to.equal(200);
      expect(res.body.toString()).to.equal('No body consumed');
    });

    it('hono server.test: Should return 200 response - POST /body-cancelled', async () => {
      const res = await httpRequest(`${app().url}/hono/body-cancelled`, {
        method: 'POST',
        headers: { 'content-length': '0' },
        body: '',
      });
      expect(res.status).to.equal(200);
      expect(res.body.toString()).to.equal('Body cancelled');
    });

    it('hono server.test: Should return 200 response - POST /partially-consumed, and the connection stays usable', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const buffer = Buffer.alloc(1024 * 10);
        const res = await httpRequest(`${app().url}/hono/partially-consumed`, {
          method: 'POST',
          headers: { 'content-length': String(buffer.length) },
          body: buffer,
          agent,
        });
        expect(res.status).to.equal(200);
        expect(res.body.toString()).to.equal('Partially consumed');
        const next = await httpRequest(`${app().url}/hono`, { agent });
        expect(next.body.toString()).to.equal('Hello! Node!');
      } finally {
        agent.destroy();
      }
    });

    it('hono server.test: Should return 200 response - POST /partially-consumed-and-cancelled', async () => {
      const res = await httpRequest(`${app().url}/hono/partially-consumed-and-cancelled`, {
        method: 'POST',
        headers: { 'content-length': '1' },
        body: Buffer.alloc(1),
      });
      expect(res.status).to.equal(200);
      expect(res.body.toString()).to.equal('Partially consumed and cancelled');
    });

    it('hono server.test: Should return 201 response - DELETE /posts/123', async () => {
      const res = await fetch(`${app().url}/hono/posts/123`, { method: 'DELETE' });
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal('DELETE 123');
    });

    it('hono server.test: Should return 500 response - GET /invalid (a handler that returns a string)', async () => {
      const res = await fetch(`${app().url}/hono/invalid`);
      expect(res.status).to.equal(500);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      if (host.appErrorHandler) {
        // Through next(err): the error names the file and the export.
        expect(await res.text()).to.match(/export ANY returned a string instead of a Response/);
      } else {
        expect(await res.text()).to.equal('Internal Server Error');
      }
    });

    it('hono server.test: Should return 200 response - GET /ponyfill (a Response of another implementation)', async () => {
      const res = await fetch(`${app().url}/hono/ponyfill`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(await res.text()).to.equal('Pony');
    });

    it('hono server.test: Should not raise error for TRACE method (never reaches a handler: no Request can carry it)', async () => {
      // hono runs its TRACE route; a Request cannot be made with TRACE, so the library never calls a
      // handler with one: under Express it goes on to the app (its 404), on a bare server it is a 405.
      const res = await httpRequest(`${app().url}/hono`, { method: 'TRACE' });
      if (host.appErrorHandler) expect(res.status).to.equal(404);
      else expect(res.status).to.equal(405);
      const after = await fetch(`${app().url}/hono`);
      expect(await after.text()).to.equal('Hello! Node!');
    });
  });

  eachHost('various response body types', (app) => {
    it('hono server.test: Should return 200 response - GET / (Content-Length 12)', async () => {
      const res = await httpRequest(`${app().url}/hono/types`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/plain/);
      expect(res.headers['content-length']).to.equal('12');
      expect(res.body.toString()).to.equal('Hello! Node!');
    });

    it('hono server.test: Should return 200 response - GET /large (10 MiB with its Content-Length)', async () => {
      const res = await httpRequest(`${app().url}/hono/types/large`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/plain/);
      expect(res.headers['content-length']).to.equal(String(LARGE_TEXT.length));
      expect(res.body.length).to.equal(LARGE_TEXT.length);
      expect(res.body.toString() === LARGE_TEXT).to.equal(true);
    });

    it('hono server.test: Should return 200 response - GET /uint8array', async () => {
      const res = await httpRequest(`${app().url}/hono/types/uint8array`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/octet-stream');
      expect(res.headers['content-length']).to.equal('3');
      expect([...res.body]).to.deep.equal([1, 2, 3]);
    });

    it('hono server.test: Should return 200 response - GET /blob', async () => {
      const res = await httpRequest(`${app().url}/hono/types/blob`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/octet-stream');
      expect(res.headers['content-length']).to.equal('3');
      expect([...res.body]).to.deep.equal([1, 2, 3]);
    });

    it('hono server.test: Should return 200 response - GET /readable-stream (headers go out before the data)', async () => {
      const id = newId('readable-stream');
      let chunkedAtHeaders: string | undefined;
      const res = await streamRequest(`${app().url}/hono/types/readable-stream?id=${id}`, {
        onHeaders: (head) => {
          chunkedAtHeaders = head.headers['transfer-encoding'];
          open(`${id}:release`);
        },
      });
      expect(chunkedAtHeaders).to.equal('chunked');
      expect(res.status).to.equal(200);
      expect(res.headers['content-length']).to.equal(undefined);
      // Both chunks were written after the head; how TCP groups them is Node's (26 joins writes of one tick).
      expect(res.chunks.map(String).join('')).to.equal('Hello! Node!');
    });

    it('hono server.test: Should return 200 response - GET /readable-stream-with-transfer-encoding', async () => {
      // The handler's own `transfer-encoding: chunked` on a stream of one chunk. hono passes it on; the
      // library sends a body that is all there at once with its Content-Length. Either way: one framing.
      const res = await httpRequest(`${app().url}/hono/types/readable-stream-with-transfer-encoding`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/plain; charset=UTF-8');
      expect(res.body.toString()).to.equal('Hello!');
      const framings = [res.headers['transfer-encoding'], res.headers['content-length']].filter(Boolean);
      expect(framings, 'exactly one of Transfer-Encoding and Content-Length').to.have.length(1);
      if (res.headers['content-length']) expect(res.headers['content-length']).to.equal('6');
      else expect(res.headers['transfer-encoding']).to.equal('chunked');
    });

    it('hono server.test: Should return 200 response - GET /event-stream', async () => {
      const id = newId('event-stream');
      let chunkedAtHeaders: string | undefined;
      const res = await streamRequest(`${app().url}/hono/types/event-stream?id=${id}`, {
        onHeaders: (head) => {
          chunkedAtHeaders = head.headers['transfer-encoding'];
          open(`${id}:release`);
        },
      });
      expect(chunkedAtHeaders).to.equal('chunked');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/event-stream');
      expect(res.headers['content-length']).to.equal(undefined);
      expect(res.chunks.map(String)).to.deep.equal(['data: First!\n\n', 'data: Second!\n\n']);
    });

    it('hono server.test: Should return 200 response - GET /event-stream-without-transfer-encoding', async () => {
      const id = newId('event-stream-no-te');
      const res = await streamRequest(`${app().url}/hono/types/event-stream?te=0&id=${id}`, {
        // The second event is only produced once the client has the first.
        onChunk: (_chunk, index) => index === 0 && open(`${id}:release`),
      });
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/event-stream');
      expect(res.headers['content-length']).to.equal(undefined);
      expect(res.chunks.map(String)).to.deep.equal(['data: First!\n\n', 'data: Second!\n\n']);
    });

    it('hono server.test: Should return 200 response - GET /buffer', async () => {
      const res = await httpRequest(`${app().url}/hono/types/buffer`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/plain');
      expect(res.headers['content-length']).to.equal('11');
      expect(res.body.toString()).to.equal('Hello Hono!');
    });

    for (const form of ['object', 'headers', 'array']) {
      it(`hono server.test: Should return 200 response - GET /text-with-content-length-${form}`, async () => {
        // hono passes the handler's `content-length: 00011` on as written; the library sends the
        // length it counts, `11`: the same number, and one Content-Length line.
        const res = await httpRequest(`${app().url}/hono/types/text-with-content-length-${form}`);
        expect(res.status).to.equal(200);
        expect(res.headers['content-type']).to.equal('text/plain');
        expect(headerValues(res.rawHeaders, 'content-length')).to.have.length(1);
        expect(Number(res.headers['content-length'])).to.equal(11);
        expect(res.body.toString()).to.equal('Hello Hono!');
      });
    }

    it('hono server.test: Should return 200 response - GET /text-with-set-cookie-array', async () => {
      const res = await httpRequest(`${app().url}/hono/types/text-with-set-cookie-array`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/plain');
      expect(headerValues(res.rawHeaders, 'set-cookie')).to.deep.equal(['a=1', 'b=2']);
      expect(res.body.toString()).to.equal('Hello Hono!');
    });

    it("hono server.test: (app) a stream that enqueues strings, as hono's app does, is refused: bodies are bytes", async () => {
      // hono's node-server writes string chunks as they come; the library holds to the Fetch standard
      // and fails the response with a message that says how to fix the handler.
      const res = await fetch(`${app().url}/hono/types/readable-stream-of-strings`);
      expect(res.status).to.equal(500);
      await res.text();
    });
  });

  eachHost('Routing', (app, host) => {
    it('hono server.test: Nested Route - Should return responses from `/book/*`', async () => {
      let res = await fetch(`${app().url}/hono/book`);
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal('get /book');
      res = await fetch(`${app().url}/hono/book/123`);
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal('get /book/123');
      res = await fetch(`${app().url}/hono/book`, { method: 'POST' });
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal('post /book');
    });

    it('hono server.test: Chained route - Should return responses from `/chained/*`', async () => {
      let res = await fetch(`${app().url}/hono/chained/abc`);
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal('GET for abc');
      res = await fetch(`${app().url}/hono/chained/abc`, { method: 'POST' });
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal('POST for abc');
      // A method the file does not serve goes on to the app (Express's 404); with no app, a 405.
      res = await fetch(`${app().url}/hono/chained/abc`, { method: 'PUT' });
      if (host.appErrorHandler) {
        expect(res.status).to.equal(404);
      } else {
        expect(res.status).to.equal(405);
        expect(res.headers.get('allow')).to.equal('GET, HEAD, POST, OPTIONS');
      }
      await res.text();
    });
  });

  eachHost('Request body', (app) => {
    it('hono server.test: Should handle JSON body', async () => {
      const res = await fetch(`${app().url}/hono/request-body/json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ foo: 'bar' }),
      });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ foo: 'bar' });
    });

    it('hono server.test: Should handle form body', async () => {
      const res = await fetch(`${app().url}/hono/request-body/form`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'foo=bar',
      });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ foo: 'bar' });
    });
  });

  eachHost('Response body', (app) => {
    for (const [route, type, expected] of [
      ['json', 'application/json', { foo: 'bar' }],
      ['json-async', 'application/json', { foo: 'async' }],
      ['json-blob', 'application/json', { foo: 'blob' }],
      ['json-buffer', 'application/json', { foo: 'buffer' }],
    ] as const) {
      it(`hono server.test: Should return JSON body from /${route}`, async () => {
        const res = await fetch(`${app().url}/hono/response-body/${route}`);
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.match(new RegExp(`^${type}`));
        expect(await res.json()).to.deep.equal(expected);
      });
    }

    for (const route of ['html', 'html-async']) {
      it(`hono server.test: Should return HTML from /${route}`, async () => {
        const res = await fetch(`${app().url}/hono/response-body/${route}`);
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/^text\/html/);
        expect(await res.text()).to.equal('<h1>Hello!</h1>');
      });
    }
  });

  eachHost('Middleware', (app) => {
    it('hono server.test: Middleware - Should have correct header values', async () => {
      const res = await fetch(`${app().url}/hono-mw/powered`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-powered-by')).to.equal('Hono');
      expect(res.headers.get('foo')).to.equal('bar');
      expect(await res.text()).to.equal('Hello! Middleware!');
    });

    it('hono server.test: set child response to c.res - Should return 200 response - GET /json', async () => {
      const res = await fetch(`${app().url}/hono-mw/child/json`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      await res.text();
    });

    it('hono server.test: Headers appended to a raw Response after construction (#304) - Should preserve the appended Set-Cookie header', async () => {
      const res = await httpRequest(`${app().url}/hono-mw/test`, { method: 'POST' });
      expect(res.status).to.equal(200);
      expect(res.body.toString()).to.equal('hello');
      expect(res.headers['content-type']).to.match(/^text\/plain/);
      expect(headerValues(res.rawHeaders, 'set-cookie')).to.deep.equal(['session=abc; Path=/; HttpOnly']);
    });
  });

  eachHost('Error handling', (app, host) => {
    it('hono server.test: Error handling - Should return 404 response', async () => {
      const res = await fetch(`${app().url}/hono/nowhere`);
      expect(res.status).to.equal(404);
      expect(await res.text()).to.equal('Custom NotFound');
    });

    it('hono server.test: Error handling - Should return 500 response', async () => {
      const res = await fetch(`${app().url}/hono/error`);
      expect(res.status).to.equal(500);
      if (host.appErrorHandler) {
        expect(res.headers.get('x-app-error-handler')).to.equal('1');
        expect(await res.text()).to.equal('error: ');
      } else {
        expect(await res.text()).to.equal('Internal Server Error');
      }
    });

    it('hono server.test: Error handling - Should return 404 response - PURGE method', async () => {
      const res = await httpRequest(`${app().url}/hono/nowhere`, { method: 'PURGE' });
      expect(res.status).to.equal(404);
      expect(res.body.toString()).to.equal('Custom NotFound');
    });
  });

  eachHost('Stream and non-stream response', (app) => {
    it('hono server.test: Should return JSON body', async () => {
      const res = await httpRequest(`${app().url}/hono/sns/json`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-length']).to.equal('13');
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(JSON.parse(res.body.toString())).to.deep.equal({ foo: 'bar' });
    });

    it('hono server.test: Should return text body', async () => {
      const res = await httpRequest(`${app().url}/hono/sns/text`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-length']).to.equal('6');
      expect(res.headers['content-type']).to.match(/^text\/plain/);
      expect(res.body.toString()).to.equal('Hello!');
    });

    it('hono server.test: Should return JSON body - stream', async () => {
      const res = await httpRequest(`${app().url}/hono/sns/json-stream`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-length']).to.equal(undefined);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.headers['transfer-encoding']).to.equal('chunked');
      expect(res.headers['x-accel-buffering']).to.equal('no');
      expect(JSON.parse(res.body.toString())).to.deep.equal({ foo: 'bar' });
    });

    it('hono server.test: Should return text body - stream', async () => {
      const res = await streamRequest(`${app().url}/hono/sns/stream`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-length']).to.equal(undefined);
      expect(res.headers['content-type']).to.match(/^text\/event-stream/);
      expect(res.headers['transfer-encoding']).to.equal('chunked');
      expect(res.chunks.map(String)).to.deep.equal(['data: Hello!\n\n', 'data: end\n\n']);
    });

    it('hono server.test: Should return error - stream without app crashing', async () => {
      let received = '';
      const failed = await streamRequest(`${app().url}/hono/sns/error-stream`, {
        onChunk: (chunk) => (received += chunk),
      }).then(
        () => undefined,
        (error: Error) => error,
      );
      expect(failed, 'the response breaks off').to.be.instanceOf(Error);
      // `controller.error()` right after the last enqueue drops what was queued (the Streams standard).
      expect(received.startsWith('data: Hello!\n\n')).to.equal(true);
      const after = await fetch(`${app().url}/hono`);
      expect(await after.text()).to.equal('Hello! Node!');
    });
  });

  eachHost('forwarding IncomingMessage and ServerResponse in env', (app) => {
    it('hono server.test: Should add `incoming` and `outgoing` to env (context.node)', async () => {
      const res = await fetch(`${app().url}/hono/env`);
      expect(res.status).to.equal(200);
      const body = await res.json();
      expect(body.incoming).to.equal('IncomingMessage');
      expect(body.incomingIsIncomingMessage).to.equal(true);
      expect(body.url).to.equal('/hono/env');
      expect(body.outgoing).to.equal('ServerResponse');
      expect(body.outgoingIsServerResponse).to.equal(true);
      expect(body.status).to.equal(200);
    });
  });

  eachHost('Memory leak test', (app) => {
    // The requests a handler saw are reclaimed once answered: nothing of the bridge holds them.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;

    async function settled(): Promise<number> {
      for (let i = 0; i < 10 && state.live.count > 0; i++) {
        await delay(10);
        gc();
      }
      return state.live.count;
    }

    it('hono server.test: Should not have memory leak - GET /', async () => {
      await settled();
      const before = state.live.count;
      await (await fetch(`${app().url}/hono/leak`)).text();
      expect(await settled()).to.equal(before);
    });

    it('hono server.test: Should not have memory leak - POST /', async () => {
      await settled();
      const before = state.live.count;
      const res = await fetch(`${app().url}/hono/leak`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ foo: 'bar' }),
      });
      expect(await res.json()).to.deep.equal({ foo: 'bar' });
      expect(await settled()).to.equal(before);
    });

    it('hono server.test: Should not have memory leak - GET /abort', async () => {
      await settled();
      const before = state.live.count;
      const id = newId('leak-abort');
      const controller = new AbortController();
      const pending = fetch(`${app().url}/hono/leak/abort?id=${id}`, { signal: controller.signal }).catch(
        () => {},
      );
      await within(outcome(`${id}:ready`), 2000, 'the handler');
      controller.abort();
      await within(outcome(`${id}:aborted`), 2000, 'request.signal');
      await pending;
      await delay(10);
      expect(await settled()).to.equal(before);
    });
  });

  eachHost(
    'Hono compression default gzip (compression() in front)',
    (app) => {
      const ONE = 'one' + ' one'.repeat(1000 * 1000);

      it('hono server.test: compression gzip - should return 200 response - GET /one', async () => {
        const res = await httpRequest(`${app().url}/hono/big-text`, {
          headers: { 'accept-encoding': 'gzip, deflate' },
        });
        expect(res.status).to.equal(200);
        expect(res.headers['content-type']).to.match(/^text\/plain/);
        expect(res.headers['content-encoding']).to.equal('gzip');
        expect(gunzipSync(res.body).toString() === ONE).to.equal(true);
      });

      it('hono server.test: compression gzip - should return 404 Custom NotFound', async () => {
        const res = await httpRequest(`${app().url}/hono/err`, {
          headers: { 'accept-encoding': 'gzip, deflate' },
        });
        expect(res.status).to.equal(404);
        expect(res.headers['content-encoding']).to.equal('gzip');
        expect(gunzipSync(res.body).toString()).to.equal('Custom NotFound');
      });

      it('hono server.test: compression gzip - should return 500 Custom Error!', async () => {
        const res = await httpRequest(`${app().url}/hono/error`, {
          headers: { 'accept-encoding': 'gzip, deflate' },
        });
        expect(res.status).to.equal(500);
        expect(res.headers['content-encoding']).to.equal('gzip');
        expect(gunzipSync(res.body).toString()).to.match(/^(error: |Internal Server Error)$/);
      });

      it('hono server.test: compression deflate - should return 200 response - GET /one', async () => {
        const res = await httpRequest(`${app().url}/hono/big-text`, {
          headers: { 'accept-encoding': 'deflate' },
        });
        expect(res.status).to.equal(200);
        expect(res.headers['content-encoding']).to.equal('deflate');
        expect(inflateSync(res.body).toString() === ONE).to.equal(true);
      });

      it('hono server.test: compression deflate - should return 404 Custom NotFound', async () => {
        const res = await httpRequest(`${app().url}/hono/err`, { headers: { 'accept-encoding': 'deflate' } });
        expect(res.status).to.equal(404);
        expect(res.headers['content-encoding']).to.equal('deflate');
        expect(inflateSync(res.body).toString()).to.equal('Custom NotFound');
      });

      it('hono server.test: compression deflate - should return 500 Custom Error!', async () => {
        const res = await httpRequest(`${app().url}/hono/error`, {
          headers: { 'accept-encoding': 'deflate' },
        });
        expect(res.status).to.equal(500);
        expect(res.headers['content-encoding']).to.equal('deflate');
        expect(inflateSync(res.body).toString()).to.match(/^(error: |Internal Server Error)$/);
      });

      it('hono server.test: compression - an event stream still streams through compression()', async () => {
        const res = await streamRequest(`${app().url}/hono/sns/stream`, {
          headers: { 'accept-encoding': 'gzip' },
        });
        expect(res.status).to.equal(200);
        expect(res.headers['content-encoding']).to.equal('gzip');
        expect(res.chunks.length, 'flushed event by event').to.be.greaterThan(1);
        expect(gunzipSync(res.body).toString()).to.equal('data: Hello!\n\ndata: end\n\n');
      });
    },
    { compression: true },
  );

  eachHost('compressed upstream (a fetch() Response returned as it is)', (app) => {
    let upstream: Awaited<ReturnType<typeof listen>>;
    before(async () => {
      upstream = await listen(
        http.createServer((_req, res) => {
          const body = gzipSync('upstream '.repeat(100));
          res.writeHead(200, {
            'content-type': 'text/plain',
            'content-encoding': 'gzip',
            'content-length': body.length,
          });
          res.end(body);
        }),
      );
    });
    after(() => upstream.close());

    it('hono server.test: (compression) a gzip upstream is passed on decoded, without its content-encoding and length', async () => {
      const res = await httpRequest(`${app().url}/hono/proxy?to=${encodeURIComponent(upstream.url)}`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-encoding']).to.equal(undefined);
      expect(res.body.toString()).to.equal('upstream '.repeat(100));
      if (res.headers['content-length'])
        expect(Number(res.headers['content-length'])).to.equal(res.body.length);
    });
  });

  describe('SSL', () => {
    let server: https.Server;
    let url: string;
    before(async () => {
      const endpoints = mountEndpoints({ dir: PEERS_APP, onError: () => {} });
      await endpoints.ready;
      const options = {
        key: fs.readFileSync(path.join(TLS, 'key.pem')),
        cert: fs.readFileSync(path.join(TLS, 'cert.pem')),
      };
      server = https.createServer(options, endpoints);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    after(() => {
      server.closeAllConnections();
      server.close();
    });

    const get = (target: string) =>
      new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
        https
          .get(url + target, { rejectUnauthorized: false, agent: false }, (res) => {
            let body = '';
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }),
            );
          })
          .on('error', reject);
      });

    it('hono server.test: SSL - Should return 200 response - GET /', async () => {
      const res = await get('/hono');
      expect(res.status).to.equal(200);
      expect(res.type).to.match(/^text\/plain/);
      expect(res.body).to.equal('Hello! Node!');
    });

    it('hono server.test: SSL - Should return 200 response - GET /url', async () => {
      const res = await get('/hono/url');
      expect(res.status).to.equal(200);
      const reqUrl = new URL(res.body);
      expect(reqUrl.pathname).to.equal('/hono/url');
      expect(reqUrl.hostname).to.equal('127.0.0.1');
      expect(reqUrl.protocol).to.equal('https:');
    });
  });

  describe('HTTP2', () => {
    const h2c = h2cServer();

    it('hono server.test: HTTP2 - Should return 200 response - GET /', async () => {
      const res = await h2Request(h2c.session(), { ':path': '/hono' });
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/plain/);
      expect(res.body).to.equal('Hello! Node!');
    });

    it('hono server.test: HTTP2 - Should return 200 response - GET /headers', async () => {
      const res = await h2Request(h2c.session(), { ':path': '/hono/user-agent', 'user-agent': 'h2' });
      expect(res.status).to.equal(200);
      expect(res.body).to.equal('h2');
    });

    it("hono server.test: HTTP2 - Should return 200 response - GET /url (:authority is the host; the scheme is the connection's)", async () => {
      // hono builds the URL from `:scheme`, so `https` there gives https:. The library takes the scheme
      // from the connection, never the client's word: this cleartext connection is http:.
      const res = await h2Request(h2c.session(), {
        ':path': '/hono/url',
        ':authority': '127.0.0.1',
        ':scheme': 'https',
      });
      expect(res.status).to.equal(200);
      const reqUrl = new URL(res.body);
      expect(reqUrl.pathname).to.equal('/hono/url');
      expect(reqUrl.hostname).to.equal('127.0.0.1');
      expect(reqUrl.protocol).to.equal('http:');
    });
  });
});
