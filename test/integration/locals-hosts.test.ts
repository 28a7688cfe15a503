/**
 * `context.locals` and `getContext()` on every host: Express 5, Express 4, Connect, node:http and
 * `.fetch`, and Bun and Deno under `npm run test:runtimes`. Middleware fill `locals`, handlers read
 * them; on Node, the mount's `locals` option seeds them from what the app's Express middleware left on
 * the request (the suite's upstream sets `req.user`, as passport would). A unit test hands a handler
 * the same locals through `createTestContext({ locals })`.
 */
import path from 'node:path';
import { expect } from 'chai';
import { getContext, type NodeContext, type WebMiddleware } from '../../src';
import { createTestContext, createTestRequest } from '../../src/testing';
import { GET as me } from '../fixtures/locals-app/(auth)/me/endpoint';
import { hosts, hostsWithFetch, UPSTREAM, type RunningHost, type Served } from './hosts';

const DIR = path.join(__dirname, '../fixtures/locals-app');

/** The tree's middleware option: what every route's locals get. Self-contained: Bun and Deno get its source. */
const requestId: WebMiddleware = (request, next, context) => {
  context!.locals!.requestId = request.headers.get('x-request-id') ?? 'none';
  return next();
};

/** What the mount's `locals` option takes from the Node request: the legacy app's `req.user`. */
const fromLegacy = ({ req }: NodeContext) => ({ legacyUser: req.user });

describe('context.locals on every host', () => {
  for (const host of hostsWithFetch) {
    describe(host.name, () => {
      let app: Served;
      before(async () => {
        app = await host.start({
          dir: DIR,
          middleware: [requestId],
          mount: host.node ? { locals: fromLegacy } : undefined,
        });
      });
      after(() => app.close());

      /** What the legacy app's middleware left, as the mount option maps it; nothing under `.fetch`. */
      const legacy = host.node ? { legacyUser: { ...UPSTREAM.user } } : {};

      it("a folder's middleware and the tree's middleware fill locals; the handler reads them", async () => {
        const reply = await app.request('/me', { headers: { 'x-user': 'Grace', 'x-request-id': 'r1' } });
        expect(reply.status, reply.text).to.equal(200);
        expect(JSON.parse(reply.text)).to.deep.equal({
          ...legacy,
          requestId: 'r1',
          user: { id: 'grace', name: 'Grace' },
        });
      });

      it('a guard that finds no user answers before the handler', async () => {
        const reply = await app.request('/me', { headers: { 'x-request-id': 'r2' } });
        expect(reply.status).to.equal(401);
      });

      it('outside the folder, only what every route gets', async () => {
        const reply = await app.request('/public', { headers: { 'x-user': 'Grace', 'x-request-id': 'r3' } });
        expect(JSON.parse(reply.text)).to.deep.equal({ ...legacy, requestId: 'r3' });
      });

      it('each request has its own locals, however they interleave', async () => {
        const names = Array.from({ length: 20 }, (_, i) => `user${i}`);
        const replies = await Promise.all(
          names.map((name) => app.request('/me', { headers: { 'x-user': name, 'x-request-id': name } })),
        );
        replies.forEach((reply, i) => {
          const body = JSON.parse(reply.text) as { user: { name: string }; requestId: string };
          expect([body.user.name, body.requestId]).to.deep.equal([names[i], names[i]]);
        });
      });
    });
  }

  // The option reads the Node request: Node's hosts only (Bun and Deno run this file under `npm run test:runtimes`).
  for (const host of process.env.TEST_HOSTS === 'runtimes' ? [] : hosts) {
    describe(`${host.name}: an async locals option`, () => {
      let app: RunningHost;
      const reported: { error: unknown; export: string }[] = [];
      before(async () => {
        app = await host.start({
          dir: DIR,
          middleware: [requestId],
          onError: (error, info) => reported.push({ error, export: info.export }),
          mount: {
            locals: async ({ req }: NodeContext) => {
              await new Promise((resolve) => setTimeout(resolve, 5));
              if (req.headers['x-locals'] === 'fail') throw new Error('the user store is down');
              return { legacyUser: req.user };
            },
          },
        });
      });
      after(() => app.close());

      it('is awaited: middleware and the handler read what it resolved to', async () => {
        const reply = await app.request('/public', { headers: { 'x-request-id': 'a1' } });
        expect(JSON.parse(reply.text)).to.deep.equal({ legacyUser: { ...UPSTREAM.user }, requestId: 'a1' });
      });

      it("what it rejects with is the request's error: the app's error handler answers, onError names the option", async () => {
        const reply = await app.request('/public', { headers: { 'x-locals': 'fail' } });
        expect(reply.status).to.equal(500);
        expect(reported.map((report) => [String(report.error), report.export])).to.deep.equal([
          ['Error: the user store is down', 'locals'],
        ]);
      });
    });
  }

  it('a unit test hands the handler the same locals, with createTestContext', async () => {
    const context = createTestContext({ locals: { user: { id: 'grace', name: 'Grace' }, requestId: 'r1' } });
    const response = me(createTestRequest('/me'), context);
    expect(await response.json()).to.deep.equal({ requestId: 'r1', user: { id: 'grace', name: 'Grace' } });
  });
});

describe('getContext(), with asyncContext: true', () => {
  for (const host of hostsWithFetch) {
    describe(host.name, () => {
      let app: Served;
      let off: Served;
      before(async () => {
        [app, off] = await Promise.all([
          host.start({ dir: DIR, middleware: [requestId], mount: { asyncContext: true } }),
          host.start({ dir: DIR, middleware: [requestId] }),
        ]);
      });
      after(() => Promise.all([app.close(), off.close()]));

      it("finds each request's own context after awaits, however requests interleave", async () => {
        const ids = Array.from({ length: 30 }, (_, i) => `id${i}`);
        const replies = await Promise.all(
          ids.map((id) => app.request(`/deep/${id}`, { headers: { 'x-request-id': `r-${id}` } })),
        );
        replies.forEach((reply, i) => {
          expect(reply.status, reply.text).to.equal(200);
          expect(JSON.parse(reply.text)).to.deep.equal({
            id: ids[i],
            requestId: `r-${ids[i]}`,
            route: '/deep/[id]',
          });
        });
      });

      it('throws, naming the option, in a mount without it', async () => {
        const reply = await off.request('/deep/1');
        expect(reply.status).to.equal(500);
        expect(JSON.parse(reply.text).error).to.include('asyncContext: true');
      });
    });
  }

  it('throws outside any request', () => {
    expect(() => getContext()).to.throw(/outside a request/);
  });
});
