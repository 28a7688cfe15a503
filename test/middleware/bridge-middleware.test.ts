/**
 * bridgeMiddleware on Express 5, Express 4 and Connect: a Web `(req, next)` middleware in front
 * of the host's own routes. `next()` must resolve to whatever the rest of the chain wrote —
 * res.json, res.send, res.sendFile, a piped stream, res.write over time, the error handler,
 * the host's 404 — and the client must get exactly what the middleware returns.
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { expect } from 'chai';
import compression from 'compression';
import express5 from 'express';
import { bridgeMiddleware, mountEndpoints } from '../../src';
import type { WebMiddleware } from '../../src/types';
import { hosts, sendJson, sendText, type Handler, type Layer, type RunningChain } from './chain-hosts';
import { bodyChunks, delay, httpRequest, requestText as request } from '../support/net';

const withHeader =
  (name: string, value: string): WebMiddleware =>
  async (_req, next) => {
    const response = await next();
    response.headers.set(name, value);
    return response;
  };

/** Reads a Node request body by hand, so the same route works on every host. */
function readBody(req: Parameters<Handler>[0]): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
    req.on('error', reject);
  });
}

/** What the error handler answers: the thrown message as JSON, with the error's status (else 500). */
const onError: Layer = {
  onError: (error, _req, res) =>
    sendJson(
      res,
      { caught: error instanceof Error ? error.message : String(error) },
      (error as { status?: number }).status ?? 500,
    ),
};

let tmp: string;
let file: string;
const ENDPOINTS_DIR = path.join(__dirname, '../fixtures/middleware-app/app');
const FILE_TEXT = 'file contents\n'.repeat(100);

before(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'ee-mw-'));
  file = path.join(tmp, 'hello.txt');
  writeFileSync(file, FILE_TEXT);
});
after(() => rmSync(tmp, { recursive: true, force: true }));

for (const host of hosts) {
  describe(`bridgeMiddleware on ${host.name}`, () => {
    let server: RunningChain | undefined;
    const start = async (layers: Layer[]) => {
      server = await host.start(layers);
      return server.url;
    };
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    describe('answering without next()', () => {
      const guard: WebMiddleware = (req, next) =>
        req.headers.get('authorization') ? next() : new Response(null, { status: 401 });

      it('a 401 guard keeps unauthenticated requests away from the native route', async () => {
        let routeRuns = 0;
        const url = await start([
          { use: bridgeMiddleware(guard) },
          {
            route: '/secret',
            handle: (_req, res) => {
              routeRuns++;
              sendJson(res, { secret: 42 });
            },
          },
        ]);
        const denied = await request(`${url}/secret`);
        expect(denied.status).to.equal(401);
        expect(denied.body).to.equal('');
        expect(routeRuns).to.equal(0);

        const allowed = await request(`${url}/secret`, { headers: { authorization: 'Bearer t' } });
        expect(allowed.status).to.equal(200);
        expect(JSON.parse(allowed.body)).to.deep.equal({ secret: 42 });
        expect(routeRuns).to.equal(1);
      });
    });

    describe('adding a header to what the chain wrote', () => {
      it(host.isExpress ? 'res.json' : 'a JSON body written with res.end', async () => {
        const url = await start([
          { use: bridgeMiddleware(withHeader('x-added', 'yes')) },
          { route: '/json', handle: (_req, res) => sendJson(res, { ok: true }) },
        ]);
        const reply = await request(`${url}/json`);
        expect(reply.status).to.equal(200);
        expect(reply.headers['x-added']).to.equal('yes');
        expect(reply.headers['content-type']).to.match(/^application\/json/);
        expect(JSON.parse(reply.body)).to.deep.equal({ ok: true });
        expect(reply.headers['content-length']).to.equal(String(Buffer.byteLength(reply.body)));
      });

      it(host.isExpress ? 'res.send' : 'an HTML body written with res.end', async () => {
        const url = await start([
          { use: bridgeMiddleware(withHeader('x-added', 'yes')) },
          { route: '/html', handle: (_req, res) => sendText(res, '<p>hello</p>') },
        ]);
        const reply = await request(`${url}/html`);
        expect(reply.status).to.equal(200);
        expect(reply.headers['x-added']).to.equal('yes');
        expect(reply.headers['content-type']).to.match(/^text\/html/);
        expect(reply.body).to.equal('<p>hello</p>');
      });

      (host.isExpress ? it : it.skip)('res.sendFile (Express only: Connect has no sendFile)', async () => {
        const url = await start([
          { use: bridgeMiddleware(withHeader('x-added', 'yes')) },
          { route: '/file', handle: (_req, res) => res.sendFile!(file) },
        ]);
        const reply = await request(`${url}/file`);
        expect(reply.status).to.equal(200);
        expect(reply.headers['x-added']).to.equal('yes');
        expect(reply.headers['content-type']).to.match(/^text\/plain/);
        expect(reply.headers['content-length']).to.equal(String(FILE_TEXT.length));
        expect(reply.body).to.equal(FILE_TEXT);
      });

      it('a piped fs stream', async () => {
        const url = await start([
          { use: bridgeMiddleware(withHeader('x-added', 'yes')) },
          {
            route: '/piped',
            handle: (_req, res) => {
              res.setHeader('content-type', 'text/plain');
              createReadStream(file).pipe(res);
            },
          },
        ]);
        const reply = await request(`${url}/piped`);
        expect(reply.status).to.equal(200);
        expect(reply.headers['x-added']).to.equal('yes');
        expect(reply.body).to.equal(FILE_TEXT);
      });

      it('res.write over time keeps streaming: the first chunk reaches the client before the end', async () => {
        const url = await start([
          { use: bridgeMiddleware(withHeader('x-added', 'yes')) },
          {
            route: '/stream',
            handle: async (_req, res) => {
              res.setHeader('content-type', 'text/plain');
              res.write('first\n');
              await delay(150);
              res.write('second\n');
              await delay(150);
              res.end('third\n');
            },
          },
        ]);
        const reply = await request(`${url}/stream`);
        expect(reply.status).to.equal(200);
        expect(reply.headers['x-added']).to.equal('yes');
        expect(reply.body).to.equal('first\nsecond\nthird\n');
        expect(reply.firstChunkAt).to.be.a('number');
        expect(reply.endAt - reply.firstChunkAt!).to.be.greaterThan(200);
      });
    });

    it('changes the status, keeping the body and headers', async () => {
      const url = await start([
        {
          use: bridgeMiddleware(async (_req, next) => {
            const response = await next();
            return new Response(response.body, { status: 203, headers: response.headers });
          }),
        },
        { route: '/json', handle: (_req, res) => sendJson(res, { ok: true }) },
      ]);
      const reply = await request(`${url}/json`);
      expect(reply.status).to.equal(203);
      expect(reply.headers['content-type']).to.match(/^application\/json/);
      expect(JSON.parse(reply.body)).to.deep.equal({ ok: true });
    });

    it('replaces the response: nothing the chain writes later reaches the client', async () => {
      let routeDone!: () => void;
      const routeFinished = new Promise<void>((resolve) => (routeDone = resolve));
      const url = await start([
        {
          use: bridgeMiddleware(async (_req, next) => {
            await next();
            return new Response('replaced', { status: 202, headers: { 'x-mine': '1' } });
          }),
        },
        {
          route: '/stream',
          handle: async (_req, res) => {
            res.setHeader('x-downstream', 'leaked');
            res.write('downstream-1\n');
            await delay(50);
            res.write('downstream-2\n');
            await delay(50);
            res.end('downstream-3\n');
            routeDone();
          },
        },
      ]);
      const reply = await request(`${url}/stream`);
      await routeFinished;
      expect(reply.status).to.equal(202);
      expect(reply.body).to.equal('replaced');
      expect(reply.headers['x-mine']).to.equal('1');
      expect(reply.headers['x-downstream']).to.equal(undefined);
      // The server is still healthy after the downstream's late writes.
      const again = await request(`${url}/stream`);
      expect(again.body).to.equal('replaced');
    });

    // Headers set upstream survive a replaced response, as they do for endpoints (DESIGN.md).
    it('a replaced response keeps the headers set upstream of the middleware', async () => {
      const url = await start([
        {
          use: (_req, res, next) => {
            res.setHeader('x-upstream', 'kept');
            next();
          },
        },
        {
          use: bridgeMiddleware(async (_req, next) => {
            await next();
            return new Response('replaced');
          }),
        },
        { route: '/json', handle: (_req, res) => sendJson(res, {}) },
      ]);
      const reply = await request(`${url}/json`);
      expect(reply.body).to.equal('replaced');
      expect(reply.headers['x-upstream']).to.equal('kept');
    });

    it('runs several bridged middlewares in order, and unwinds in reverse', async () => {
      const log: string[] = [];
      const step =
        (name: string): WebMiddleware =>
        async (_req, next) => {
          log.push(`${name} in`);
          const response = await next();
          log.push(`${name} out`);
          response.headers.append('x-order', name);
          return response;
        };
      const url = await start([
        { use: bridgeMiddleware(step('a')) },
        { use: bridgeMiddleware(step('b')) },
        { use: bridgeMiddleware(step('c')) },
        {
          route: '/json',
          handle: (_req, res) => {
            log.push('route');
            sendJson(res, { ok: true });
          },
        },
      ]);
      const reply = await request(`${url}/json`);
      expect(reply.status).to.equal(200);
      expect(log).to.deep.equal(['a in', 'b in', 'c in', 'route', 'c out', 'b out', 'a out']);
      expect(reply.headers['x-order']).to.equal('c, b, a');
      expect(JSON.parse(reply.body)).to.deep.equal({ ok: true });
    });

    describe('errors', () => {
      it('a route that throws: the app error handler answers, the middleware sees its 500', async () => {
        let seen: number | undefined;
        const url = await start([
          {
            use: bridgeMiddleware(async (_req, next) => {
              const response = await next();
              seen = response.status;
              response.headers.set('x-added', 'yes');
              return response;
            }),
          },
          {
            route: '/boom',
            handle: () => {
              throw new Error('route failed');
            },
          },
          onError,
        ]);
        const reply = await request(`${url}/boom`);
        expect(seen).to.equal(500);
        expect(reply.status).to.equal(500);
        expect(reply.headers['x-added']).to.equal('yes');
        expect(JSON.parse(reply.body)).to.deep.equal({ caught: 'route failed' });
      });

      it('a middleware that throws before next(): next(err) reaches the app error handler', async () => {
        let routeRuns = 0;
        const url = await start([
          {
            use: bridgeMiddleware(async () => {
              throw new Error('middleware failed');
            }),
          },
          {
            route: '/json',
            handle: (_req, res) => {
              routeRuns++;
              sendJson(res, {});
            },
          },
          onError,
        ]);
        const reply = await request(`${url}/json`);
        expect(reply.status).to.equal(500);
        expect(JSON.parse(reply.body)).to.deep.equal({ caught: 'middleware failed' });
        expect(routeRuns).to.equal(0);
      });

      it('a middleware that throws synchronously before next(): the same', async () => {
        const url = await start([
          {
            use: bridgeMiddleware(() => {
              throw new Error('sync failure');
            }),
          },
          onError,
        ]);
        const reply = await request(`${url}/anything`);
        expect(reply.status).to.equal(500);
        expect(JSON.parse(reply.body)).to.deep.equal({ caught: 'sync failure' });
      });

      it('a middleware that throws after next(): a plain 500, and the captured response does not leak', async () => {
        let errorHandlerRuns = 0;
        const told: unknown[] = [];
        const url = await start([
          {
            use: bridgeMiddleware(
              async (_req, next) => {
                await next();
                throw new Error('after next');
              },
              { onError: (error) => told.push(error) },
            ),
          },
          { route: '/json', handle: (_req, res) => sendJson(res, { leaked: true }) },
          {
            onError: (_error, _req, res) => {
              errorHandlerRuns++;
              sendJson(res, { caught: true }, 500);
            },
          },
        ]);
        const reply = await request(`${url}/json`);
        expect(reply.status).to.equal(500);
        expect(reply.body).to.match(/server error/i);
        expect(reply.body).not.to.contain('leaked');
        // The chain already ran; its error handler is not entered a second time: onError is told.
        expect(errorHandlerRuns).to.equal(0);
        expect(told.map((error) => (error as Error).message)).to.deep.equal(['after next']);
      });

      it('a middleware returning something that is not a Response goes to the error handler', async () => {
        const url = await start([
          { use: bridgeMiddleware((() => 'nope') as unknown as WebMiddleware) },
          { route: '/json', handle: (_req, res) => sendJson(res, {}) },
          onError,
        ]);
        const reply = await request(`${url}/json`);
        expect(reply.status).to.equal(500);
        expect(JSON.parse(reply.body).caught).to.match(/not a Response/);
      });

      it('next() called twice: the second call rejects, the route runs once, one plain 500', async () => {
        let routeRuns = 0;
        let second: unknown;
        const told: unknown[] = [];
        const url = await start([
          {
            use: bridgeMiddleware(
              async (_req, next) => {
                const response = await next();
                second = await next().catch((error: unknown) => error);
                return response;
              },
              { onError: (error) => told.push(error) },
            ),
          },
          {
            route: '/json',
            handle: (_req, res) => {
              routeRuns++;
              sendJson(res, { n: routeRuns });
            },
          },
        ]);
        const reply = await request(`${url}/json`);
        expect(second).to.be.instanceOf(Error);
        expect((second as Error).message).to.match(/more than once/);
        expect(routeRuns).to.equal(1);
        // A misused next() fails the request even when the middleware catches it.
        expect(reply.status).to.equal(500);
        expect(reply.body).to.match(/server error/i);
        expect(told).to.deep.equal([second]);
      });
    });

    it('the default onError logs an error after next() even when the Host header makes no URL', async () => {
      const printed: unknown[][] = [];
      const original = console.error;
      const url = await start([
        {
          use: bridgeMiddleware(async function failsAfterNext(_req, next) {
            await next();
            throw new Error('after next');
          }),
        },
        { route: '/json', handle: (_req, res) => sendJson(res, { ok: true }) },
      ]);
      console.error = (...args: unknown[]) => void printed.push(args);
      let reply: Awaited<ReturnType<typeof httpRequest>>;
      try {
        reply = await httpRequest(`${url}/json`, { headers: { host: 'bad host/x' } });
      } finally {
        console.error = original;
      }
      expect(reply.status).to.equal(500);
      expect(printed).to.have.length(1);
      // The line names the middleware and the method, and says there was no URL (its words: messages.test.ts).
      expect(String(printed[0]![0]))
        .to.include('failsAfterNext')
        .and.match(/\bGET\b.*\bno URL\b/);
      expect((printed[0]![1] as Error).message).to.equal('after next');
    });

    describe('middleware that wraps res, behind or in front of the bridge', () => {
      const addHeader = { use: bridgeMiddleware(withHeader('x-added', 'yes')) };
      const gzip = { use: compression({ threshold: 0 }) as unknown as Handler };
      const big = {
        route: '/big',
        handle: ((_req, res) => {
          res.setHeader('content-type', 'text/plain');
          Readable.from(bodyChunks(16, 64 * 1024)).pipe(res);
        }) as Handler,
      };

      it('compression() behind it: the compressed body is captured once and sent as is', async () => {
        const url = await start([
          addHeader,
          gzip,
          { route: '/json', handle: (_req, res) => sendJson(res, { text: 'x'.repeat(5000) }) },
        ]);
        const reply = await httpRequest(`${url}/json`, { headers: { 'accept-encoding': 'gzip' } });
        expect(reply.status).to.equal(200);
        expect(reply.headers['x-added']).to.equal('yes');
        expect(reply.headers['content-encoding']).to.equal('gzip');
        expect(JSON.parse(zlib.gunzipSync(reply.body).toString())).to.deep.equal({ text: 'x'.repeat(5000) });
      });

      it('compression() behind it, with a 1 MiB streamed body (backpressure)', async () => {
        const url = await start([addHeader, gzip, big]);
        const reply = await httpRequest(`${url}/big`, { headers: { 'accept-encoding': 'gzip' } });
        expect(reply.headers['content-encoding']).to.equal('gzip');
        expect(zlib.gunzipSync(reply.body).length).to.equal(16 * 64 * 1024);
      });

      it('compression() in front of it, with a 1 MiB streamed body', async () => {
        const url = await start([gzip, addHeader, big]);
        const reply = await httpRequest(`${url}/big`, { headers: { 'accept-encoding': 'gzip' } });
        expect(reply.headers['x-added']).to.equal('yes');
        expect(reply.headers['content-encoding']).to.equal('gzip');
        expect(zlib.gunzipSync(reply.body).length).to.equal(16 * 64 * 1024);
      });

      it('a writeHead hook behind it (on-headers: express-session, response-time) runs once, and the middleware sees its header', async () => {
        let hookRuns = 0;
        let seen: string | null = null;
        const url = await start([
          {
            use: bridgeMiddleware(async (_req, next) => {
              const response = await next();
              seen = response.headers.get('x-hooked');
              return response;
            }),
          },
          {
            use: (_req, res, next) => {
              const writeHead = res.writeHead;
              res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
                hookRuns++;
                this.setHeader('x-hooked', String(hookRuns));
                return writeHead.apply(this, args);
              } as typeof writeHead;
              next();
            },
          },
          { route: '/json', handle: (_req, res) => sendJson(res, { ok: true }) },
        ]);
        const reply = await request(`${url}/json`);
        expect(reply.status).to.equal(200);
        expect(reply.headers['x-hooked']).to.equal('1');
        expect(seen).to.equal('1');
        expect(hookRuns).to.equal(1);
      });
    });

    it("captures the host's own 404", async () => {
      let seen: number | undefined;
      const url = await start([
        {
          use: bridgeMiddleware(async (_req, next) => {
            const response = await next();
            seen = response.status;
            response.headers.set('x-added', 'yes');
            return response;
          }),
        },
      ]);
      const reply = await request(`${url}/nowhere`);
      expect(seen).to.equal(404);
      expect(reply.status).to.equal(404);
      expect(reply.headers['x-added']).to.equal('yes');
      expect(reply.body).to.contain('Cannot GET /nowhere');
    });

    describe('HEAD', () => {
      it('answers HEAD on a GET route with the headers of GET and no body', async () => {
        const methods: string[] = [];
        const url = await start([
          {
            use: bridgeMiddleware(async (req, next) => {
              methods.push(req.method);
              const response = await next();
              response.headers.set('x-added', 'yes');
              return response;
            }),
          },
          { route: '/json', handle: (_req, res) => sendJson(res, { ok: true }) },
        ]);
        const get = await request(`${url}/json`);
        const head = await request(`${url}/json`, { method: 'HEAD' });
        expect(methods).to.deep.equal(['GET', 'HEAD']);
        expect(head.status).to.equal(200);
        expect(head.headers['x-added']).to.equal('yes');
        expect(head.headers['content-type']).to.equal(get.headers['content-type']);
        expect(head.headers['content-length']).to.equal(get.headers['content-length']);
        expect(head.body).to.equal('');
      });

      it('a HEAD answered by the middleware itself has no body', async () => {
        const url = await start([
          { use: bridgeMiddleware(() => new Response('body of GET', { status: 200 })) },
        ]);
        const head = await request(`${url}/x`, { method: 'HEAD' });
        expect(head.status).to.equal(200);
        expect(head.body).to.equal('');
      });
    });

    describe('request body', () => {
      const echo: Layer = {
        route: '/echo',
        method: 'POST',
        handle: async (req, res) => sendJson(res, { downstream: await readBody(req) }),
      };

      it('the middleware can read the body of a POST', async () => {
        let seen: string | undefined;
        const url = await start([
          {
            use: bridgeMiddleware(async (req) => {
              seen = await req.text();
              return new Response(`read ${seen.length}`);
            }),
          },
        ]);
        const reply = await request(`${url}/echo`, { method: 'POST', body: 'hello body' });
        expect(seen).to.equal('hello body');
        expect(reply.body).to.equal('read 10');
      });

      it('the downstream route still gets the body when the middleware did not read it', async () => {
        const url = await start([
          {
            use: bridgeMiddleware(async (req, next) => {
              // Looking at the request is fine; only reading the body consumes it.
              expect(req.headers.get('content-type')).to.equal('text/plain');
              return next();
            }),
          },
          echo,
        ]);
        const reply = await request(`${url}/echo`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'x'.repeat(100_000),
        });
        expect(reply.status).to.equal(200);
        expect(JSON.parse(reply.body).downstream).to.equal('x'.repeat(100_000));
      });

      it('mounted endpoints behind it still get the body when the middleware read it', async () => {
        // The bridge leaves the bytes it read as req.rawBody, where the endpoints look first.
        const endpoints = mountEndpoints({ dir: ENDPOINTS_DIR });
        await endpoints.ready;
        let seen: string | undefined;
        const url = await start([
          {
            use: bridgeMiddleware(async (req, next) => {
              seen = await req.text();
              return next();
            }),
          },
          { use: endpoints },
          onError,
        ]);
        const reply = await request(`${url}/public/echo`, { method: 'POST', body: 'signed payload' });
        expect(seen).to.equal('signed payload');
        expect(reply.status).to.equal(200);
        expect(reply.body).to.equal('signed payload');
      });

      // A body the middleware read is put back into the Node stream: the host's own readers after
      // it (a webhook signature checked before express.json()) still get every byte.
      it('the downstream route still gets the body when the middleware read it first', async () => {
        let seen: string | undefined;
        const url = await start([
          {
            use: bridgeMiddleware(async (req, next) => {
              seen = await req.text();
              return next();
            }),
          },
          echo,
          onError,
        ]);
        const reply = await request(`${url}/echo`, { method: 'POST', body: 'read twice' });
        expect(seen).to.equal('read twice');
        expect(reply.status).to.equal(200);
        expect(JSON.parse(reply.body).downstream).to.equal('read twice');
      });

      it('a large body read by the middleware reaches the downstream route byte for byte', async () => {
        // 512 KiB arrives in many socket chunks: all of them are put back, in order.
        const body = Array.from({ length: 512 * 1024 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(
          '',
        );
        let seenLength = 0;
        const url = await start([
          {
            use: bridgeMiddleware(async (req, next) => {
              seenLength = (await req.arrayBuffer()).byteLength;
              return next();
            }),
          },
          echo,
          onError,
        ]);
        const reply = await request(`${url}/echo`, { method: 'POST', body });
        expect(seenLength).to.equal(body.length);
        expect(JSON.parse(reply.body).downstream).to.equal(body);
      });

      it('a client that aborts while the middleware reads the body is not an error for the app', async () => {
        let readError: string | undefined;
        let errorHandlerRuns = 0;
        const url = await start([
          {
            use: bridgeMiddleware(async (req, next) => {
              try {
                await req.text();
              } catch (error) {
                readError = (error as Error).name;
                throw error;
              }
              return next();
            }),
          },
          echo,
          { onError: (_error, _req, res) => (errorHandlerRuns++, sendJson(res, {}, 500)) },
        ]);
        const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
        socket.on('error', () => {});
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\npartial');
        await delay(50);
        socket.destroy();
        for (let i = 0; i < 100 && readError === undefined; i++) await delay(10);
        expect(readError).to.equal('ClientClosedError');
        await delay(100);
        expect(errorHandlerRuns).to.equal(0);
      });

      it('a body over the bridged bodyLimit gets 413 and the route never runs', async () => {
        let routeRan = false;
        const url = await start([
          {
            use: bridgeMiddleware(
              async (req, next) => {
                await req.text();
                return next();
              },
              { bodyLimit: 1000 },
            ),
          },
          { route: '/echo', method: 'POST', handle: (_req, res) => ((routeRan = true), sendJson(res, {})) },
          onError,
        ]);
        const reply = await request(`${url}/echo`, { method: 'POST', body: 'x'.repeat(5000) });
        expect(reply.status).to.equal(413);
        // The app's error handler answered it, in the app's shape.
        expect(JSON.parse(reply.body.toString()).caught).to.match(/too large/);
        expect(routeRan).to.equal(false);
      });

      it("Express's body parsers after the middleware still parse a body the middleware read", async () => {
        let seen: unknown;
        const url = await start([
          {
            use: bridgeMiddleware(async (req, next) => {
              seen = await req.json();
              return next();
            }),
          },
          { use: express5.json() as unknown as Handler },
          {
            route: '/json-echo',
            method: 'POST',
            handle: (req, res) => sendJson(res, { downstream: req.body }),
          },
          onError,
        ]);
        const reply = await request(`${url}/json-echo`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"a":1}',
        });
        expect(seen).to.deep.equal({ a: 1 });
        expect(reply.status).to.equal(200);
        expect(JSON.parse(reply.body)).to.deep.equal({ downstream: { a: 1 } });
      });
    });
  });
}
