/**
 * What handlers can count on beyond params, run unchanged against every host in ./hosts (Express 5,
 * Express 4, Connect, node:http) and through `.fetch`: `onError`, QUERY, thrown Responses,
 * `context.after()`, `context.mountPath`/`route`, `req.route` for request loggers (real morgan), and
 * `.routes` once the modules are loaded. A test that needs what only a Node server has (a socket, a
 * Node request, an app around the endpoints) is skipped on `.fetch`, its title saying why; what
 * only `.fetch` does is in fetch-semantics.test.ts.
 */
import http from 'node:http';
import { expect } from 'chai';
import morgan from 'morgan';
import { mountEndpoints, type EndpointErrorInfo, type WebMiddleware } from '../../src';
import { state } from '../fixtures/app/_lib/store';
import { hostsWithFetch, type Middleware, type Served } from './hosts';
import { httpRequest, waitFor } from '../support/net';
import { fixtureApp } from '../support/fixture-app';

const dir = fixtureApp;
const fixtureFile = (route: string) => `test/fixtures/app/${route}/endpoint.ts`;

// The custom token a logging setup adds: the route pattern instead of the URL.
morgan.token('route', (req: http.IncomingMessage & { route?: { path?: string } }) => req.route?.path);

describe('integration: handler semantics on every host', function () {
  this.timeout(10_000);

  for (const host of hostsWithFetch) {
    describe(host.name, () => {
      let app: Served;
      let v1: Served | undefined;
      const errors: Array<[unknown, EndpointErrorInfo]> = [];
      const logged: string[] = [];
      const onError = (error: unknown, info: EndpointErrorInfo) => errors.push([error, info]);
      const logger = morgan(':method :url :route :status', {
        stream: { write: (line: string) => logged.push(line.trim()) },
      }) as unknown as Middleware;

      /** `it`, or where the tree is served through `.fetch` a skipped test whose title gives the reason. */
      const itWithNode = (reason: string, title: string, fn: Mocha.AsyncFunc) =>
        host.node ? it(title, fn) : it.skip(`${title} (not through .fetch: ${reason})`, fn);
      /** `it` where a client has a connection to the server (Bun and Deno too); skipped on `.fetch` alone. */
      const itWithSocket = (reason: string, title: string, fn: Mocha.AsyncFunc) =>
        host.sockets ? it(title, fn) : it.skip(`${title} (not through .fetch: ${reason})`, fn);

      /** Status and body of a request that failed: the app's error handler answers, or `.fetch` itself. */
      const expectFailed = (res: { status: number; text: string }, message: string) => {
        expect(res.status).to.equal(500);
        if (host.node) expect(JSON.parse(res.text)).to.deep.equal({ caught: message });
        else
          expect(res.text)
            .to.match(/server error/i)
            .and.not.include(message);
      };

      before(async () => {
        [app, v1] = await Promise.all([
          host.start({ dir, onError, first: host.node ? [logger] : undefined }),
          host.node ? host.start({ dir, onError, prefix: '/v1' }) : undefined,
        ]);
      });
      after(async () => {
        await Promise.all([app, v1].map((h) => h?.close()));
      });
      beforeEach(() => {
        errors.length = 0;
      });

      describe('onError', () => {
        const failures: [string, string, string][] = [
          ['a thrown error', 'errors/throw', 'thrown by the endpoint'],
          ['a rejected promise', 'errors/reject', 'rejected by the endpoint'],
        ];
        for (const [what, route, message] of failures) {
          it(`gets ${what} of a handler with route, file, export and request; the request still gets an answer`, async () => {
            const res = await app.request(`/${route}`);
            expectFailed(res, message);
            expect(errors).to.have.length(1);
            const [error, info] = errors[0]!;
            expect((error as Error).message).to.equal(message);
            expect(info).to.include({
              route: `/${route}`,
              file: fixtureFile(route),
              export: 'GET',
              passedToNext: host.node,
            });
            expect(info.request?.url).to.equal(`${app.url}/${route}`);
          });
        }

        it('names the middleware file when a folder middleware throws', async () => {
          const res = await app.request('/semantics/guarded', { headers: { 'x-pass': 'crash' } });
          expectFailed(res, 'guard crashed');
          expect(errors.map(([, info]) => info.export)).to.deep.equal([
            'test/fixtures/app/semantics/guarded/middleware.ts',
          ]);
        });

        itWithNode(
          'the caller reads the body itself, and its read fails',
          'is told about a body stream that fails after the headers went out (nobody else is)',
          async () => {
            await httpRequest(`${app.url}/errors/mid-stream`).catch(() => undefined);
            await waitFor(() => errors.length === 1, 2000, 'onError');
            const [error, info] = errors[0]!;
            expect((error as Error).message).to.equal('failed mid-stream');
            expect(info).to.include({ export: 'GET', passedToNext: false });
          },
        );

        itWithSocket(
          'no client connection to leave',
          'is not told about a client that left while its body was being read',
          async () => {
            await new Promise<void>((resolve) => {
              const req = http.request(`${app.url}/echo?as=text`, {
                method: 'POST',
                agent: false,
                headers: { 'content-type': 'text/plain', 'content-length': '100' },
              });
              req.on('error', () => resolve());
              req.write('only ten b');
              setTimeout(() => req.destroy(), 100);
            });
            await new Promise((resolve) => setTimeout(resolve, 200));
            expect(errors).to.deep.equal([]);
          },
        );
      });

      describe('QUERY', () => {
        it('goes to the QUERY export, with its body, beside GET', async () => {
          const res = await app.request('/semantics/query', { method: 'QUERY', body: 'a=1' });
          expect([res.status, res.text]).to.deep.equal([200, 'QUERY handler: a=1']);
          const get = await app.request('/semantics/query');
          expect(get.text).to.equal('GET handler');
        });

        it('is listed in Allow', async () => {
          const res = await app.request('/semantics/query', { method: 'OPTIONS' });
          expect([res.status, res.headers.allow]).to.deep.equal([204, 'GET, HEAD, QUERY, OPTIONS']);
        });

        it('can be the only export of a file', async () => {
          const res = await app.request('/semantics/query-only', {
            method: 'QUERY',
            headers: { 'content-type': 'application/json' },
            body: '{"q":"ada"}',
          });
          expect(JSON.parse(res.text)).to.deep.equal({ query: { q: 'ada' } });
          const options = await app.request('/semantics/query-only', { method: 'OPTIONS' });
          expect(options.headers.allow).to.equal('QUERY, OPTIONS');
          // GET is not served: the app's 404 answers it, or without an app (.fetch) a 405.
          const get = await app.request('/semantics/query-only');
          expect(get.status).to.equal(host.node ? 404 : 405);
        });
      });

      describe('a thrown Response is the answer', () => {
        it('throw Response.redirect(...) from a handler redirects', async () => {
          const res = await app.request('/semantics/thrown');
          expect([res.status, res.headers.location]).to.deep.equal([307, `${app.url}/login`]);
        });

        it('a rejected promise of a Response (notFound()) answers with it', async () => {
          const res = await app.request('/semantics/thrown', { method: 'POST' });
          expect([res.status, res.text]).to.deep.equal([404, '']);
        });

        it('a folder middleware may throw one too', async () => {
          const denied = await app.request('/semantics/guarded');
          expect([denied.status, denied.text]).to.deep.equal([401, 'Unauthorized']);
          const allowed = await app.request('/semantics/guarded', { headers: { 'x-pass': '1' } });
          expect([allowed.status, allowed.text]).to.deep.equal([200, 'inside']);
        });

        it('and none of them is an error', () => {
          expect(errors).to.deep.equal([]);
        });

        it('an outer middleware sees one thrown further in as what next() resolved to', async () => {
          const outer: WebMiddleware = async (_req, next) => {
            const res = await next();
            return new Response(res.body, { status: res.status, headers: { 'x-outer': 'saw it' } });
          };
          const tagged = await host.start({ dir, onError, middleware: [outer] });
          try {
            const res = await tagged.request('/semantics/guarded');
            expect([res.status, res.headers['x-outer'], res.text]).to.deep.equal([
              401,
              'saw it',
              'Unauthorized',
            ]);
          } finally {
            await tagged.close();
          }
          expect(errors).to.deep.equal([]);
        });
      });

      describe('context.after()', () => {
        const id = (what: string) => `${host.name}/${what}/${Date.now()}`;

        it('runs the callback once the response has been sent', async () => {
          const key = id('plain');
          const res = await app.request(`/semantics/after?id=${encodeURIComponent(key)}`);
          expect(res.text).to.equal('sent');
          await waitFor(() => state.afterLog.includes(`${key}:after`), 2000, 'the after() callback');
          expect(state.afterLog.filter((line) => line.startsWith(key))).to.deep.equal([
            `${key}:handler`,
            `${key}:after`,
          ]);
        });

        it('waits for a streamed body to end', async () => {
          const key = id('stream');
          const res = await app.request(`/semantics/after?stream=1&id=${encodeURIComponent(key)}`);
          expect(res.text).to.equal('chunk1\nchunk2\nchunk3\n');
          await waitFor(() => state.afterLog.includes(`${key}:after`), 2000, 'the after() callback');
          const lines = state.afterLog.filter((line) => line.startsWith(key));
          expect(lines.indexOf(`${key}:body-done`)).to.be.lessThan(lines.indexOf(`${key}:after`));
        });

        for (const fail of ['throw', 'reject']) {
          it(`sends a callback that fails (${fail}) to onError`, async () => {
            const key = id(fail);
            await app.request(`/semantics/after?fail=${fail}&id=${encodeURIComponent(key)}`);
            await waitFor(() => errors.length === 1, 2000, 'onError');
            const [error, info] = errors[0]!;
            expect((error as Error).message).to.include(key);
            expect(info).to.include({ route: '/semantics/after', export: 'GET', passedToNext: false });
          });
        }
      });

      describe('context.mountPath and context.route', () => {
        it("are '' and the pattern at the root", async () => {
          const res = await app.request('/semantics/where/7');
          expect(JSON.parse(res.text)).to.include({
            mountPath: '',
            route: '/semantics/where/[id]',
            self: '/semantics/where/7',
          });
        });

        itWithNode(
          'it is mounted nowhere',
          'give the mount path under app.use("/v1", …), so links stay inside the mount',
          async () => {
            const res = await v1!.request('/v1/semantics/where/7?x=1');
            expect(JSON.parse(res.text)).to.include({ mountPath: '/v1', self: '/v1/semantics/where/7' });
            const root = await v1!.request('/v1/semantics/where/7/');
            expect(JSON.parse(root.text).mountPath).to.equal('/v1');
          },
        );
      });

      describe('req.route for request loggers', () => {
        itWithNode(
          'there is no Node request',
          'is the pattern in Express syntax while the endpoint answers',
          async () => {
            const res = await app.request('/semantics/where/7');
            expect(JSON.parse(res.text).reqRoute).to.equal('/semantics/where/:id');
          },
        );

        itWithNode(
          'there is no Node request, nor Node middleware to log it',
          "gives morgan's custom :route token the pattern, not the URL",
          async () => {
            logged.length = 0;
            await app.request('/semantics/where/42');
            await app.request('/files/a/b');
            await app.request('/files');
            await app.request('/semantics/query', { method: 'PUT' });
            await app.request('/nope');
            await waitFor(() => logged.length === 5, 2000, 'five log lines');
            expect(logged).to.deep.equal([
              'GET /semantics/where/42 /semantics/where/:id 200',
              'GET /files/a/b /files{/*path} 200',
              'GET /files /files{/*path} 200',
              // A method the file does not serve is the app's: its 404, under no route of the tree.
              'PUT /semantics/query - 404',
              'GET /nope - 404',
            ]);
          },
        );
      });

      describe('handlers, with or without declared parameters', () => {
        it('get the Request and the context when they declare parameters, and nothing when they declare none', async () => {
          const get = await app.request('/semantics/no-parameters', { headers: { 'x-a': '1' } });
          expect(get.text).to.equal('GET /semantics/no-parameters 1');
          const put = await app.request('/semantics/no-parameters', { method: 'PUT', body: 'x' });
          expect(put.text).to.equal('PUT /semantics/no-parameters');
          const del = await app.request('/semantics/no-parameters', { method: 'DELETE' });
          expect([del.status, del.text]).to.deep.equal([200, 'no arguments']);
        });

        itWithSocket(
          'no connection to keep alive',
          host.closesOnUnreadBody
            ? 'leave an unread body to the server, which closes the connection after the answer (Deno)'
            : 'leave an unread body drained, so a keep-alive connection carries the next request',
          async () => {
            const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
            const send = (method: string, body?: Buffer) =>
              new Promise<{ status: number; text: string; reused: boolean }>((resolve, reject) => {
                const req = http.request(`${app.url}/semantics/no-parameters`, { method, agent }, (res) => {
                  let text = '';
                  res.setEncoding('utf8');
                  res.on('data', (chunk: string) => (text += chunk));
                  res.on('end', () => resolve({ status: res.statusCode!, text, reused: req.reusedSocket }));
                });
                req.on('error', reject);
                req.end(body);
              });
            try {
              const post = await send('POST', Buffer.alloc(256 * 1024, 'x'));
              const del = await send('DELETE');
              expect([post.status, post.text, del.status, del.text, del.reused]).to.deep.equal([
                200,
                'body ignored',
                200,
                'no arguments',
                !host.closesOnUnreadBody,
              ]);
            } finally {
              agent.destroy();
            }
          },
        );

        it('tell onError about a failure with the request, built when the report needs it', async () => {
          const res = await app.request('/semantics/no-parameters', { method: 'PATCH', body: 'abc' });
          expect(res.status).to.equal(500);
          expect(errors).to.have.length(1);
          const [error, info] = errors[0]!;
          expect((error as Error).message).to.equal('no-parameters PATCH failed');
          expect([info.export, info.request?.method, info.request?.url]).to.deep.equal([
            'PATCH',
            'PATCH',
            `${app.url}/semantics/no-parameters`,
          ]);
        });
      });

      describe('.routes after .ready', () => {
        it('lists the methods an `export *` endpoint really has, no longer incomplete', async () => {
          const row = app.routes.find((route) => route.pattern === '/semantics/reexport');
          expect(row).to.include({ incomplete: false });
          expect(row!.methods).to.deep.equal(['GET', 'HEAD', 'DELETE', 'OPTIONS']);
          const res = await app.request('/semantics/reexport', { method: 'DELETE' });
          expect(res.status).to.equal(204);
        });
      });
    });
  }

  describe('.routes before .ready (no host needed)', () => {
    it('lists only what reading the files showed, marked incomplete, until the modules are loaded', async () => {
      const endpoints = mountEndpoints({ dir });
      const before = endpoints.routes.find((route) => route.pattern === '/semantics/reexport')!;
      expect([before.methods, before.incomplete]).to.deep.equal([['OPTIONS'], true]);
      await endpoints.ready;
      const after = endpoints.routes.find((route) => route.pattern === '/semantics/reexport')!;
      expect([after.methods, after.incomplete]).to.deep.equal([['GET', 'HEAD', 'DELETE', 'OPTIONS'], false]);
    });
  });
});
