/**
 * `context.locals` where only Node has it: the mount's `locals` option runs once per request, and only
 * when something reads locals; WebSocket hooks read what the upgrade's middleware found; in
 * `bridgeMiddleware`, locals are Express's `res.locals`. The same behaviour on every host, and
 * `getContext()`, are in locals-hosts.test.ts.
 */
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import { bridgeMiddleware, mountEndpoints, type NodeContext, type WebMiddleware } from '../../src';
import { connect, refusal } from '../websocket/sockets';
import { hosts, type RunningHost } from './hosts';
import { listen, requestText } from '../support/net';
import { fixtureApp } from '../support/fixture-app';

const DIR = path.join(__dirname, '../fixtures/locals-app');

const requestId: WebMiddleware = (request, next, context) => {
  context!.locals!.requestId = request.headers.get('x-request-id') ?? 'none';
  return next();
};

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

describe("the mount's locals option, returning a promise from a plain function", () => {
  it('is refused on first read with an error that names the fix, answered by the app', async () => {
    const app = express();
    const reported: unknown[] = [];
    await mountEndpoints(app, {
      dir: DIR,
      locals: () => Promise.resolve({ user: 'u' }),
      onError: (error) => reported.push(error),
    });
    app.use((_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).send('app error');
    });
    const server = await listen(http.createServer(app));
    try {
      expect((await requestText(`${server.url}/public`)).status).to.equal(500);
      expect(String(reported[0])).to.match(/TypeError: .*locals.*declare it `async`/);
    } finally {
      await server.close();
    }
  });
});

describe('locals in WebSocket hooks', () => {
  let running: RunningHost;
  before(async () => {
    const host = hosts.find((h) => h.name === 'Express 5')!;
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
