/**
 * Web middleware around mounted endpoints: `mountEndpoints({ middleware: [a, b] })` and
 * per-folder `middleware.ts` files, in Web terms (no capture), through each host and through
 * `.fetch`. The fixture tree is test/fixtures/middleware-app/app:
 *
 *   middleware.ts            root      (appends "root" to x-chain)
 *   endpoint.ts              /
 *   admin/middleware.ts      guard: 401 without Authorization, then x-admin: yes
 *   admin/users/middleware.ts
 *   admin/users/endpoint.ts  /admin/users
 *   public/endpoint.ts       /public   (sibling of admin)
 *   public/echo/endpoint.ts  POST /public/echo
 *   (shop)/middleware.ts     only for the group's endpoints
 *   (shop)/cart/endpoint.ts  /cart
 *   catalog/endpoint.ts      /catalog  (outside the group)
 *
 * Each middleware appends its name to `x-chain` after `next()`, so the header reads innermost
 * first; each also records `<name> in` on `globalThis.middlewareTrail` on the way in.
 */
import path from 'node:path';
import { expect } from 'chai';
import { EndpointValidationError, mountEndpoints } from '../../src';
import { createTestRequest } from '../../src/testing';
import type { WebMiddleware } from '../../src/types';
import { hosts, sendJson, type RunningChain } from './chain-hosts';
import { requestText as request } from '../support/net';

const FIXTURES = path.join(__dirname, '../fixtures/middleware-app');
const DIR = path.join(FIXTURES, 'app');
const AUTH = { authorization: 'Bearer t' };

const state = globalThis as { middlewareTrail?: string[] };
beforeEach(() => {
  state.middlewareTrail = [];
});
after(() => {
  delete state.middlewareTrail;
});
const trail = () => state.middlewareTrail!;

/** An options middleware in the same style as the fixture's. */
const named =
  (name: string): WebMiddleware =>
  async (_req, next) => {
    trail().push(`${name} in`);
    const response = await next();
    response.headers.append('x-chain', name);
    return response;
  };

const guard: WebMiddleware = (req, next) =>
  req.headers.get('authorization') ? next() : new Response(null, { status: 401 });

for (const host of hosts) {
  describe(`endpoint middleware on ${host.name}`, () => {
    let server: RunningChain | undefined;
    let url: string;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    describe('options.middleware and folder middleware together', () => {
      beforeEach(async () => {
        const endpoints = mountEndpoints({ dir: DIR, middleware: [named('a'), named('b')] });
        await endpoints.ready;
        server = await host.start([
          { use: endpoints },
          { onError: (error, _req, res) => sendJson(res, { caught: String(error) }, 500) },
        ]);
        url = server.url;
      });

      it('runs a then b, then the folders outermost first, around the endpoint', async () => {
        const reply = await request(`${url}/admin/users`, { headers: AUTH });
        expect(reply.status).to.equal(200);
        expect(JSON.parse(reply.body)).to.deep.equal({ route: '/admin/users' });
        expect(trail()).to.deep.equal([
          'a in',
          'b in',
          'root in',
          'admin in',
          'users in',
          'handler /admin/users',
        ]);
        expect(reply.headers['x-chain']).to.equal('handler, users, admin, root, b, a');
        expect(reply.headers['x-admin']).to.equal('yes');
      });

      it("a folder's guard answers 401 and the endpoint never runs", async () => {
        const reply = await request(`${url}/admin/users`);
        expect(reply.status).to.equal(401);
        expect(reply.body).to.equal('');
        expect(trail()).to.deep.equal(['a in', 'b in', 'root in']);
        expect(reply.headers['x-chain']).to.equal('root, b, a');
        expect(reply.headers['x-admin']).to.equal(undefined);
      });

      it("a folder's middleware does not touch its sibling folders", async () => {
        const reply = await request(`${url}/public`);
        expect(reply.status).to.equal(200);
        expect(reply.headers['x-chain']).to.equal('handler, root, b, a');
        expect(reply.headers['x-admin']).to.equal(undefined);
        expect(trail()).to.deep.equal(['a in', 'b in', 'root in', 'handler /public']);
      });

      it('the root middleware wraps the root endpoint', async () => {
        const reply = await request(`${url}/`);
        expect(reply.headers['x-chain']).to.equal('handler, root, b, a');
      });

      it('(group)/middleware.ts wraps the endpoints of the group only', async () => {
        const inGroup = await request(`${url}/cart`);
        expect(inGroup.status).to.equal(200);
        expect(inGroup.headers['x-chain']).to.equal('handler, shop, root, b, a');
        const outside = await request(`${url}/catalog`);
        expect(outside.headers['x-chain']).to.equal('handler, root, b, a');
      });

      it('URLs the tree does not serve reach the host untouched by the middleware', async () => {
        const reply = await request(`${url}/nowhere`);
        expect(reply.status).to.equal(404);
        expect(reply.headers['x-chain']).to.equal(undefined);
        expect(trail()).to.deep.equal([]);
      });

      it('a request body the middleware did not read reaches the endpoint', async () => {
        const reply = await request(`${url}/public/echo`, { method: 'POST', body: 'y'.repeat(50_000) });
        expect(reply.status).to.equal(200);
        expect(reply.body).to.equal('y'.repeat(50_000));
      });
    });

    describe('errors and edge cases', () => {
      const start = async (middleware: WebMiddleware[]) => {
        const endpoints = mountEndpoints({ dir: DIR, middleware });
        await endpoints.ready;
        server = await host.start([
          { use: endpoints },
          {
            onError: (error, _req, res) =>
              sendJson(res, { caught: error instanceof Error ? error.message : String(error) }, 500),
          },
        ]);
        return server.url;
      };

      it("a middleware that throws goes to the host's error handler", async () => {
        const base = await start([
          () => {
            throw new Error('mw failed');
          },
        ]);
        const reply = await request(`${base}/public`);
        expect(reply.status).to.equal(500);
        expect(JSON.parse(reply.body)).to.deep.equal({ caught: 'mw failed' });
        expect(trail()).to.deep.equal([]);
      });

      it('next() called twice rejects the second call, the handler runs once, and the request fails', async () => {
        let second: unknown;
        const base = await start([
          async (_req, next) => {
            const response = await next();
            second = await next().catch((error: unknown) => error);
            return response;
          },
        ]);
        const reply = await request(`${base}/public`);
        expect((second as Error).message).to.match(/more than once/);
        expect(trail().filter((entry) => entry.startsWith('handler'))).to.have.length(1);
        // A misused next() fails the request even when the middleware catches it.
        expect(reply.status).to.equal(500);
        expect(JSON.parse(reply.body).caught).to.match(/more than once/);
      });

      it('a middleware returning something that is not a Response is an error', async () => {
        const base = await start([(() => undefined) as unknown as WebMiddleware]);
        const reply = await request(`${base}/public`);
        expect(reply.status).to.equal(500);
        expect(JSON.parse(reply.body).caught).to.match(/middleware.*instead of a Response/);
      });

      it('HEAD goes through the middleware and gets no body', async () => {
        const base = await start([named('a')]);
        const reply = await request(`${base}/public`, { method: 'HEAD' });
        expect(reply.status).to.equal(200);
        expect(reply.headers['x-chain']).to.equal('handler, root, a');
        expect(reply.body).to.equal('');
      });

      it('a middleware reading req.clone() leaves the body for the endpoint', async () => {
        let seen: string | undefined;
        const base = await start([
          async (req, next) => {
            seen = await req.clone().text();
            return next();
          },
        ]);
        const reply = await request(`${base}/public/echo`, { method: 'POST', body: 'cloned body' });
        expect(seen).to.equal('cloned body');
        expect(reply.status).to.equal(200);
        expect(reply.body).to.equal('cloned body');
      });
    });

    it('an options middleware answering 401 keeps every endpoint from running', async () => {
      const endpoints = mountEndpoints({ dir: DIR, middleware: [guard] });
      await endpoints.ready;
      server = await host.start([{ use: endpoints }]);
      const reply = await request(`${server.url}/public`);
      expect(reply.status).to.equal(401);
      expect(trail()).to.deep.equal([]);
      const allowed = await request(`${server.url}/public`, { headers: AUTH });
      expect(allowed.status).to.equal(200);
    });
  });
}

describe('endpoint middleware through .fetch', () => {
  const endpoints = mountEndpoints({ dir: DIR, middleware: [named('a'), named('b')] });

  it('runs the same chain, in order, in Web terms', async () => {
    const response = await endpoints.fetch(createTestRequest('/admin/users', { headers: AUTH }));
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ route: '/admin/users' });
    expect(trail()).to.deep.equal([
      'a in',
      'b in',
      'root in',
      'admin in',
      'users in',
      'handler /admin/users',
    ]);
    expect(response.headers.get('x-chain')).to.equal('handler, users, admin, root, b, a');
  });

  it('a guard short-circuits with 401', async () => {
    const response = await endpoints.fetch(createTestRequest('/admin/users'));
    expect(response.status).to.equal(401);
    expect(trail()).not.to.include('handler /admin/users');
  });

  it('keeps folder middleware to its folder and group', async () => {
    const headersOf = async (p: string) =>
      (await endpoints.fetch(createTestRequest(p))).headers.get('x-chain');
    expect(await headersOf('/public')).to.equal('handler, root, b, a');
    expect(await headersOf('/cart')).to.equal('handler, shop, root, b, a');
    expect(await headersOf('/catalog')).to.equal('handler, root, b, a');
  });

  it('a 404 from .fetch does not run the middleware', async () => {
    const response = await endpoints.fetch(createTestRequest('/nowhere'));
    expect(response.status).to.equal(404);
    expect(trail()).to.deep.equal([]);
  });

  it('an options middleware answering 401 keeps the handler from running', async () => {
    const guarded = mountEndpoints({ dir: DIR, middleware: [guard] });
    const response = await guarded.fetch(createTestRequest('/public'));
    expect(response.status).to.equal(401);
    expect(trail()).to.deep.equal([]);
  });

  describe('request bodies in Web terms', () => {
    it('a middleware that reads req.clone() leaves the body for the endpoint', async () => {
      let seen: string | undefined;
      const cloning = mountEndpoints({
        dir: DIR,
        middleware: [
          async (req, next) => {
            seen = await req.clone().text();
            return next();
          },
        ],
      });
      const response = await cloning.fetch(
        createTestRequest('/public/echo', { method: 'POST', body: 'hello' }),
      );
      expect(seen).to.equal('hello');
      expect(await response.text()).to.equal('hello');
    });

    it('a middleware that reads the body itself leaves it used: the endpoint cannot read it again', async () => {
      // Web semantics, the same Request object all the way: a consumed body stays consumed.
      let failed: unknown;
      const reading = mountEndpoints({
        dir: DIR,
        onError: (error) => (failed = error),
        middleware: [
          async (req, next) => {
            await req.text();
            return next();
          },
        ],
      });
      const res = await reading.fetch(createTestRequest('/public/echo', { method: 'POST', body: 'hello' }));
      expect(res.status).to.equal(500);
      expect(failed).to.be.instanceOf(TypeError);
    });
  });
});

describe('.routes and validation of middleware files', () => {
  const rel = (p: string) => path.relative(process.cwd(), path.join(DIR, p)).split(path.sep).join('/');

  it('.routes lists the folder middleware that apply to each route, outermost first', () => {
    const { routes } = mountEndpoints({ dir: DIR });
    const byPattern = Object.fromEntries(routes.map((route) => [route.pattern, route.middleware]));
    expect(byPattern).to.deep.equal({
      '/': [rel('middleware.ts')],
      '/admin/users': [rel('middleware.ts'), rel('admin/middleware.ts'), rel('admin/users/middleware.ts')],
      '/cart': [rel('middleware.ts'), rel('(shop)/middleware.ts')],
      '/catalog': [rel('middleware.ts')],
      '/public': [rel('middleware.ts')],
      '/public/echo': [rel('middleware.ts')],
    });
  });

  it('a middleware file without a default export: EndpointValidationError, middleware-no-default', () => {
    const dir = path.join(FIXTURES, 'invalid-no-default');
    let thrown: unknown;
    try {
      mountEndpoints({ dir });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(EndpointValidationError);
    const problems = (thrown as EndpointValidationError).problems;
    expect(problems.map((p) => p.code)).to.deep.equal(['middleware-no-default']);
    expect(problems[0]!.files).to.deep.equal([
      path.relative(process.cwd(), path.join(dir, 'api/middleware.ts')).split(path.sep).join('/'),
    ]);
    expect((thrown as Error).message).to.contain('api/middleware.ts');
  });

  it('mountEndpoints(app, …) throws the same error at the call, before app.use', () => {
    let used = 0;
    const app = Object.assign(() => {}, { use: () => (used++, app) });
    expect(() => mountEndpoints(app, { dir: path.join(FIXTURES, 'invalid-no-default') })).to.throw(
      EndpointValidationError,
    );
    expect(used).to.equal(0);
  });

  it('a default export that is not a function is reported too', () => {
    expect(() => mountEndpoints({ dir: path.join(FIXTURES, 'invalid-not-a-function') }))
      .to.throw(EndpointValidationError)
      .with.property('problems')
      .that.satisfies((problems: { code: string }[]) => problems.some((p) => p.code === 'not-a-function'));
  });
});
