/**
 * Five ways a bridged middleware used to show through to the app behind it, one test each, on
 * Express 5 and 4: a copied streamed body lost, writeHead not ending the head as Node does, a
 * Host check the middleware never asked for, the app's own framing rewritten, and statuses a
 * Web Response cannot hold. Each request goes through a raw socket, so what is asserted is
 * what the client gets.
 */
import http from 'node:http';
import { expect } from 'chai';
import express5, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { bridgeMiddleware } from '../../../src';
import type { WebMiddleware } from '../../../src/types';
import { listen, type Listening } from '../../support/net';
import type { ExpressModule } from './corpus-packages';
import { exchange, type RawRequest } from './raw-client';

const express4 = require('express4') as ExpressModule;
/** The payload of a chunked body. */
function dechunk(body: string): string {
  let out = '';
  for (let at = 0; ;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = parseInt(body.slice(at, lineEnd), 16);
    if (!size) return out;
    out += body.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const passthrough: WebMiddleware = (_req, next) => next();
const copyAddingHeader: WebMiddleware = async (_req, next) => {
  const response = await next();
  const copy = new Response(response.body, response);
  copy.headers.set('x-a', '1');
  return copy;
};

/** The route every test of a group shares: a few writes over time, then end. */
async function streamed(_req: Request, res: Response) {
  res.setHeader('Content-Type', 'text/plain');
  for (const part of ['one;', 'two;', 'three;']) {
    res.write(part);
    await tick();
  }
  res.end('end');
}

for (const [version, express] of [
  ['Express 5', express5],
  ['Express 4', express4],
] as const) {
  describe(`bridgeMiddleware stays out of the app's way (${version})`, () => {
    let server: Listening | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    async function serve(middleware: WebMiddleware, routes: (app: ReturnType<ExpressModule>) => void) {
      const app = express();
      app.use(bridgeMiddleware(middleware) as RequestHandler);
      routes(app);
      app.use(
        (
          error: Error & { code?: string; status?: number },
          _req: Request,
          res: Response,
          _next: NextFunction,
        ) => {
          res
            .status(error.status ?? 500)
            .json({ caught: error.name, code: error.code ?? null, message: error.message });
        },
      );
      server = await listen(http.createServer(app));
    }

    async function send(request: RawRequest) {
      const result = await exchange(server!.port, [request], { timeout: 2000 });
      const text = result.bytes.toString('latin1');
      const [head = '', body = ''] = text.split(/\r\n\r\n(.*)/s);
      return { ending: result.ending, head, body, status: head.split('\r\n')[0] };
    }

    it('a copy of a streamed response (new Response(r.body, r)) sends the whole body', async () => {
      await serve(copyAddingHeader, (app) => app.get('/stream', streamed));
      const reply = await send({ path: '/stream' });
      expect(reply.ending).to.equal('complete');
      expect(reply.head).to.match(/\r\nx-a: 1\r\n/);
      expect(reply.head).to.match(/\r\nTransfer-Encoding: chunked/);
      expect(dechunk(reply.body)).to.equal('one;two;three;end');
      // Written as the app wrote it: one chunk per res.write().
      expect(reply.body).to.equal('4\r\none;\r\n4\r\ntwo;\r\n6\r\nthree;\r\n3\r\nend\r\n0\r\n\r\n');
    });

    it('a streamed response piped through a TransformStream arrives whole and ends', async () => {
      await serve(
        async (_req, next) => {
          const response = await next();
          const upper = new TransformStream<Uint8Array, Uint8Array>({
            transform: (chunk, controller) =>
              controller.enqueue(Buffer.from(Buffer.from(chunk).toString().toUpperCase())),
          });
          return new Response(response.body!.pipeThrough(upper), response);
        },
        (app) => app.get('/stream', streamed),
      );
      const reply = await send({ path: '/stream' });
      expect(reply.ending).to.equal('complete');
      expect(dechunk(reply.body)).to.equal('ONE;TWO;THREE;END');
    });

    it('after writeHead, res.headersSent is true and setHeader throws ERR_HTTP_HEADERS_SENT, as in Node', async () => {
      await serve(passthrough, (app) =>
        app.get('/head', (_req, res) => {
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          let thrown = 'nothing';
          try {
            res.setHeader('X-Late', '1');
          } catch (error) {
            thrown = (error as NodeJS.ErrnoException).code!;
          }
          res.end(`headersSent=${res.headersSent} thrown=${thrown}`);
        }),
      );
      const reply = await send({ path: '/head' });
      // writeHead before any body: Node frames it chunked.
      expect(dechunk(reply.body)).to.equal('headersSent=true thrown=ERR_HTTP_HEADERS_SENT');
      expect(reply.head).not.to.match(/X-Late/i);
    });

    it('a Host that makes no URL: a passthrough lets the app answer; a middleware reading req.url gets 400', async () => {
      await serve(passthrough, (app) => app.get('/go', (_req, res) => res.redirect('/there')));
      const redirected = await send({ path: '/go', headers: [['Host', 'http://example.com']] });
      expect(redirected.status).to.equal('HTTP/1.1 302 Found');
      expect(redirected.head).to.match(/\r\nLocation: \/there\r\n/);
      await server!.close();

      await serve(
        (req, next) =>
          new URL(req.url).pathname === '/blocked' ? new Response(null, { status: 403 }) : next(),
        (app) => app.get('/go', (_req, res) => res.redirect('/there')),
      );
      const rejected = await send({ path: '/go', headers: [['Host', 'http://example.com']] });
      expect(rejected.status).to.equal('HTTP/1.1 400 Bad Request');
      // The app's error handler answered the refusal.
      expect(JSON.parse(rejected.body)).to.include({ caught: 'RequestRefusedError' });
      const fine = await send({ path: '/go', headers: [['Host', 'example.com']] });
      expect(fine.status).to.equal('HTTP/1.1 302 Found');
    });

    it('an app that sets Transfer-Encoding: chunked and ends with bytes keeps its framing', async () => {
      await serve(passthrough, (app) =>
        app.get('/bytes', (_req, res) => {
          res.setHeader('Transfer-Encoding', 'chunked');
          res.end(Buffer.from('byte body'));
        }),
      );
      const reply = await send({ path: '/bytes' });
      expect(reply.head).to.match(/\r\nTransfer-Encoding: chunked/);
      expect(reply.head).not.to.match(/Content-Length/i);
      expect(reply.body).to.equal('9\r\nbyte body\r\n0\r\n\r\n');
    });

    describe('statuses a Web Response cannot hold', () => {
      for (const code of [101, 700, 800, 900]) {
        it(`res.status(${code}) goes through a passthrough as the app set it, headers included`, async () => {
          await serve(passthrough, (app) =>
            app.get('/status', (_req, res) => void res.status(code).send('odd')),
          );
          const reply = await send({ path: '/status' });
          expect(reply.status).to.match(new RegExp(`^HTTP/1.1 ${code} `));
          expect(reply.head).to.match(/\r\nX-Powered-By: Express\r\n/);
        });
      }

      // Express 5's res.status() refuses these itself; Express 4 leaves them to Node's writeHead.
      for (const [label, code] of [
        ['undefined', undefined],
        ['null', null],
        ['99', 99],
        ['1000', 1000],
        ['-401', -401],
      ] as const) {
        it(`res.statusCode = ${label}: the app's error handler gets Node's own RangeError`, async () => {
          await serve(passthrough, (app) =>
            app.get('/bad', (_req, res) => {
              res.statusCode = code as unknown as number;
              res.end('never');
            }),
          );
          const reply = await send({ path: '/bad' });
          expect(reply.status).to.equal('HTTP/1.1 500 Internal Server Error');
          expect(JSON.parse(reply.body)).to.deep.equal({
            caught: 'RangeError',
            code: 'ERR_HTTP_INVALID_STATUS_CODE',
            message: `Invalid status code: ${label}`,
          });
        });
      }
    });
  });
}
