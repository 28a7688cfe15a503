/**
 * Paths that name one thing to a guard and another to the code behind it, on
 * Express 5, Express 4, Connect and node:http:
 *   - a percent-encoded alias of a static folder (`/%61dmin/secret`) is not that folder;
 *   - a path the URL parser would rewrite (`/files/%2e%2e`, `/admin/x\..\..\public`) reaches no
 *     Web middleware and no handler: the tree answers 400 when it would serve it, and
 *     `bridgeMiddleware` answers 400 before its middleware sees it, unless told to resolve it;
 *   - CONNECT, TRACE and TRACK through `bridgeMiddleware` are a 405, or go to the app untouched
 *     when it opts in, never a 500.
 */
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import connect from 'connect';
import express5 from 'express';
import { bridgeMiddleware, mountEndpoints, type BridgeOptions, type WebMiddleware } from '../../src';
import { listen, type Listening } from '../support/net';

const express4 = require('express4') as typeof express5;

const DIR = path.join(__dirname, '../fixtures/guarded-app/app');

type Req = http.IncomingMessage & { originalUrl?: string };
type Handler = (req: Req, res: http.ServerResponse, next: (error?: unknown) => void) => void;

interface Reply {
  status: number;
  body: string;
}

/** One request with its target exactly as given: nothing resolves `..` or encodes anything. */
function send(server: Listening, method: string, target: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, method, path: target, agent: false });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

const end = (res: http.ServerResponse, status: number, body: string) => {
  res.statusCode = status;
  res.setHeader('content-type', 'text/plain');
  res.end(body);
};

/**
 * The app's error handler: the error's status (the library's refusals carry theirs) and message,
 * marked as the app's answer.
 */
const appError = (error: unknown, res: http.ServerResponse) => {
  const { status, message } = error as { status?: number; message?: string };
  end(res, status ?? 500, `app: ${message ?? 'error'}`);
};

/** A guard that refuses everything under `/admin` without a login, written the host's way. */
const requireLogin: Handler = (_req, res) => end(res, 401, 'login first');

/** A Web guard on the request's own path, as a folder `middleware.ts` or option would be written. */
const webAdminGuard: WebMiddleware = (request, next) =>
  new URL(request.url).pathname.toLowerCase().startsWith('/admin/')
    ? new Response('login first', { status: 401 })
    : next();

interface HostApp {
  /** `prefix` guard, then `rest` in order, then an app 404. */
  build(guards: [string, Handler][], rest: Handler[], routes?: [string, Handler][]): Promise<Listening>;
}

const HOSTS: Record<'Express 5' | 'Express 4' | 'Connect' | 'node:http', HostApp> = {
  'Express 5': expressHost(express5, '/private/*rest'),
  'Express 4': expressHost(express4, '/private/*'),
  Connect: {
    async build(guards, rest, routes = []) {
      const app = connect();
      for (const [prefix, guard] of guards) app.use(prefix, guard);
      for (const mw of rest) app.use(mw);
      for (const [route, handler] of routes) app.use(route.replace(/\/\*.*$/, ''), handler);
      app.use((_req: Req, res: http.ServerResponse) => end(res, 404, 'app 404'));
      app.use((error: unknown, _req: Req, res: http.ServerResponse, _next: unknown) => appError(error, res));
      return listen(http.createServer(app));
    },
  },
  'node:http': {
    async build(guards, rest, routes = []) {
      // A bare server: the prefix check is the app's own, on the raw path, as Connect makes it.
      const chain: Handler[] = [
        ...guards.map(([prefix, guard]): Handler => {
          return (req, res, next) => {
            const p = (req.url ?? '/').split('?')[0]!.toLowerCase();
            return p === prefix || p.startsWith(`${prefix}/`) ? guard(req, res, next) : next();
          };
        }),
        ...rest,
        ...routes.map(([route, handler]): Handler => {
          const prefix = route.replace(/\/\*.*$/, '/');
          return (req, res, next) => ((req.url ?? '').startsWith(prefix) ? handler(req, res, next) : next());
        }),
      ];
      const server = http.createServer((req, res) => {
        const step = (i: number) => {
          const handler = chain[i];
          if (!handler) return end(res, 404, 'app 404');
          handler(req, res, (error?: unknown) => (error ? appError(error, res) : step(i + 1)));
        };
        step(0);
      });
      return listen(server);
    },
  },
};

function expressHost(express: typeof express5, privateRoute: string): HostApp {
  return {
    async build(guards, rest, routes = []) {
      const app = express();
      for (const [prefix, guard] of guards) app.use(prefix, guard as express5.RequestHandler);
      for (const mw of rest) app.use(mw as express5.RequestHandler);
      for (const [, handler] of routes) app.all(privateRoute, handler as express5.RequestHandler);
      app.use((_req, res) => end(res, 404, 'app 404'));
      app.use((error: unknown, _req: Req, res: http.ServerResponse, _next: unknown) => appError(error, res));
      return listen(http.createServer(app));
    },
  };
}

/** The tree as the host mounts it, with `middleware` as the mount's option. */
async function tree(middleware: WebMiddleware[] = []): Promise<Handler> {
  const endpoints = mountEndpoints({ dir: DIR, middleware });
  await endpoints.ready;
  return endpoints as Handler;
}

const privatePage: Handler = (req, res) => end(res, 200, `private page for ${req.originalUrl ?? req.url}`);

for (const [name, host] of Object.entries(HOSTS)) {
  describe(`paths that mean two things (${name})`, () => {
    let server: Listening | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    describe('a guard on a prefix in front of the tree', () => {
      beforeEach(async () => {
        server = await host.build([['/admin', requireLogin]], [await tree()]);
      });

      it('covers the folder however its name is spelled', async () => {
        for (const target of ['/admin/secret', '/ADMIN/secret', '/admin/secret/', '/admin']) {
          expect(await send(server!, 'GET', target), target).to.include({ status: 401 });
        }
      });

      it('percent-encoded aliases of a static folder are not that folder', async () => {
        for (const target of [
          '/%61dmin/secret',
          '/%41dmin/secret',
          '/%2561dmin/secret',
          '/admin%2Fsecret',
          '/%61dmin',
          '/%EF%BD%81dmin/secret',
          '/%C1%A1dmin/secret',
        ]) {
          const reply = await send(server!, 'GET', target);
          expect(reply, target).to.deep.equal({ status: 404, body: 'app 404' });
        }
      });

      it('does not match percent-encoded aliases for static route paths (POST /api/%68ealth)', async () => {
        expect(await send(server!, 'POST', '/api/health')).to.include({ status: 200 });
        expect(await send(server!, 'POST', '/api/%68ealth')).to.deep.equal({ status: 404, body: 'app 404' });
        expect(await send(server!, 'POST', '/api/%68ealth/')).to.deep.equal({ status: 404, body: 'app 404' });
      });

      it('a folder whose name needs encoding answers at its canonical encoding only', async () => {
        expect(await send(server!, 'GET', '/caf%C3%A9')).to.include({ status: 200 });
        expect(await send(server!, 'GET', '/CAF%c3%a9')).to.include({ status: 200 });
        expect(await send(server!, 'GET', '/a%20b')).to.include({ status: 200 });
        for (const target of ['/caf%C3%89', '/%63af%C3%A9', '/a+b', '/a%2520b']) {
          expect(await send(server!, 'GET', target), target).to.deep.equal({ status: 404, body: 'app 404' });
        }
      });
    });

    describe('a path the URL parser would rewrite', () => {
      it('is a 400 where the tree would serve it, before its middleware or handler runs', async () => {
        const seen: string[] = [];
        const recorder: WebMiddleware = (request, next) => {
          seen.push(new URL(request.url).pathname);
          return next();
        };
        server = await host.build([], [await tree([recorder, webAdminGuard])]);
        for (const target of [
          '/files/%2e%2e',
          '/files/..',
          '/files/.%2E',
          '/files/%2E',
          '/admin/%2e%2e/public',
          '/admin/x/../../public',
          '/admin/x\\..\\..\\public',
          '/files/a\\b',
        ]) {
          const reply = await send(server, 'GET', target);
          expect(reply.status, target).to.equal(400);
          // The app's error handler answered the tree's refusal.
          expect(reply.body, target).to.match(/^app: .*"\.\." segment/);
        }
        expect(seen).to.deep.equal([]);
        // Without dot segments the guard sees the path the tree routes.
        expect(await send(server, 'GET', '/admin/x/public')).to.include({ status: 401 });
        expect(await send(server, 'GET', '/files/%2e%2e.txt')).to.include({ status: 200 });
      });

      it('goes on to the app untouched where the tree would not serve it', async () => {
        server = await host.build([], [await tree()]);
        expect(await send(server, 'GET', '/nothing/../here')).to.deep.equal({ status: 404, body: 'app 404' });
        expect(await send(server, 'GET', '/files/x/%2e%2e/y')).to.deep.equal({
          status: 404,
          body: 'app 404',
        });
        expect(await send(server, 'GET', '/files/%7Bid%7D/..')).to.deep.equal({
          status: 404,
          body: 'app 404',
        });
      });

      describe('through bridgeMiddleware, in front of the app’s own /private/* route', () => {
        const privateGuard = (seen: string[]): WebMiddleware => {
          return (request, next) => {
            const pathname = new URL(request.url).pathname;
            seen.push(pathname);
            return pathname.startsWith('/private/') ? new Response('login first', { status: 401 }) : next();
          };
        };
        const start = async (seen: string[], options?: BridgeOptions) =>
          host.build(
            [],
            [bridgeMiddleware(privateGuard(seen), options) as Handler],
            [['/private/*', privatePage]],
          );

        it('is a 400 before the middleware sees it', async () => {
          const seen: string[] = [];
          server = await start(seen);
          expect(await send(server, 'GET', '/private/x')).to.include({ status: 401 });
          for (const target of [
            '/private/%2e%2e/public',
            '/private/../public',
            '/private/x\\..\\..\\public',
          ]) {
            const reply = await send(server, 'GET', target);
            expect(reply.status, target).to.equal(400);
            expect(reply.body, target).to.match(/^app: .*"\.\." segment/);
          }
          expect(seen).to.deep.equal(['/private/x']);
        });

        it("with rewrittenPaths: 'resolve', the middleware sees the path resolved", async () => {
          const seen: string[] = [];
          server = await start(seen, { rewrittenPaths: 'resolve' });
          const reply = await send(server, 'GET', '/private/%2e%2e/public');
          expect(seen).to.deep.equal(['/public']);
          // What the option warns of: the app still routes the raw path.
          expect(reply).to.deep.equal({ status: 200, body: 'private page for /private/%2e%2e/public' });
        });
      });
    });

    describe('methods no Request can carry, through bridgeMiddleware', () => {
      const traced = (req: Req, res: http.ServerResponse) =>
        end(res, 200, `${req.method} answered by the app`);
      const guard: WebMiddleware = () => new Response('login first', { status: 401 });

      it('TRACE is a 405, never a 500 nor a way past the middleware', async () => {
        server = await host.build([], [bridgeMiddleware(guard) as Handler], [['/private/*', traced]]);
        // Node's own parser refuses TRACK with a 400 before any app code runs.
        for (const method of ['TRACE']) {
          const reply = await send(server, method, '/private/x');
          expect(reply.status, method).to.equal(405);
          expect(reply.body, method).to.match(/^app: .*not allowed/i);
        }
        expect(await send(server, 'GET', '/private/x')).to.include({ status: 401 });
      });

      it("with methodsWithoutRequest: 'next', they go to the app untouched", async () => {
        server = await host.build(
          [],
          [bridgeMiddleware(guard, { methodsWithoutRequest: 'next' }) as Handler],
          [['/private/*', traced]],
        );
        expect(await send(server, 'TRACE', '/private/x')).to.deep.equal({
          status: 200,
          body: 'TRACE answered by the app',
        });
        expect(await send(server, 'GET', '/private/x')).to.include({ status: 401 });
      });
    });
  });
}
