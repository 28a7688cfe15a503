/**
 * `context.locals`: one object per request that middleware fill and handlers read, the same on
 * every host (Express 5, Express 4, Connect, node:http, `.fetch`), in WebSocket hooks, and in a
 * unit test through `createTestContext({ locals })`. On Node, the mount's `locals` option seeds
 * it from what the app's Express middleware left on the request (the suite's upstream sets
 * `req.user`, as passport would); it runs once per request, and only when something reads locals.
 */
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import {
  bridgeMiddleware,
  getContext,
  mountEndpoints,
  type NodeContext,
  type WebMiddleware,
} from '../../src';
import { createTestContext, createTestRequest } from '../../src/testing';
import { GET as me } from '../fixtures/locals-app/(auth)/me/endpoint';
import { connect, refusal } from '../websocket/sockets';
import { hostsWithFetch, UPSTREAM, type RunningHost, type Served } from './hosts';
import { listen, requestText } from '../support/net';
import { fixtureApp } from '../support/fixture-app';

const DIR = path.join(__dirname, '../fixtures/locals-app');

/** The tree's middleware option: what every route's locals get. */
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

  it('a unit test hands the handler the same locals, with createTestContext', async () => {
    const context = createTestContext({ locals: { user: { id: 'grace', name: 'Grace' }, requestId: 'r1' } });
    const response = me(createTestRequest('/me'), context);
    expect(await response.json()).to.deep.equal({ requestId: 'r1', user: { id: 'grace', name: 'Grace' } });
  });
});

describe("the mount's locals option", () => {
  const calls: string[] = [];
  const counting = ({ req }: NodeContext) => {
    calls.push(req.url ?? '');
    return { user: req.user };
  };
  let server: Awaited<ReturnType<typeof listen>>;
  before(async () => {
    const app = express();
    app.use((req, _res, next) => {
      (req as typeof req & { user: unknown }).user = { id: 'u1' };
      next();
    });
    await mountEndpoints(app, { dir: DIR, locals: counting });
    await mountEndpoints(app, { dir: fixtureApp, locals: counting });
    server = await listen(http.createServer(app));
  });
  after(() => server.close());

  it('runs once per request that reads locals, however many middleware read them', async () => {
    calls.length = 0;
    const reply = await requestText(`${server.url}/me`, { headers: { 'x-user': 'Grace' } });
    expect(JSON.parse(reply.body)).to.deep.equal({ user: { id: 'grace', name: 'Grace' } });
    expect(calls).to.deep.equal(['/me']);
  });

  it('never runs for a request nothing reads locals in', async () => {
    calls.length = 0;
    expect((await requestText(`${server.url}/api/users`)).status).to.equal(200);
    expect(calls).to.deep.equal([]);
  });
});

describe('locals in WebSocket hooks', () => {
  let running: RunningHost;
  before(async () => {
    const host = hostsWithFetch.find((h) => h.name === 'Express 5')!;
    running = (await host.start({ dir: DIR, middleware: [requestId] })) as RunningHost;
    running.endpoints.attach(running.server);
  });
  after(() => running.close());

  it('the upgrade, open and message hooks read what the middleware found on the upgrade request', async () => {
    const url = `ws://127.0.0.1:${running.port}/chat`;
    const client = await connect(url, { headers: { 'x-user': 'Grace' } });
    try {
      expect(JSON.parse(String(await client.next()))).to.deep.equal({
        hello: { id: 'grace', name: 'Grace' },
      });
      client.ws.send('hi');
      expect(JSON.parse(String(await client.next()))).to.deep.equal({ from: 'Grace', message: 'hi' });
    } finally {
      client.ws.close();
    }
    expect((await refusal(url)).status).to.equal(401);
  });
});

describe('locals through bridgeMiddleware', () => {
  it("are Express's res.locals, which the app's own routes read", async () => {
    const app = express();
    app.use(
      bridgeMiddleware((request, next, context) => {
        context!.locals!.user = request.headers.get('x-user');
        return next();
      }),
    );
    app.get('/hello', (_req, res) => void res.send(`hello ${String(res.locals.user)}`));
    const server = await listen(http.createServer(app));
    try {
      const reply = await requestText(`${server.url}/hello`, { headers: { 'x-user': 'Grace' } });
      expect(reply.body).to.equal('hello Grace');
    } finally {
      await server.close();
    }
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
