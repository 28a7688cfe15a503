/**
 * Web middleware gets the context handlers get: a folder `middleware.ts` and a bridged
 * middleware can guard on express-session's `req.session`, read the route and its params; and a
 * unit test builds that context, typed, with `createTestContext`.
 */
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import express5 from 'express';
import session from 'express-session';
import { bridgeMiddleware, mountEndpoints, type EndpointHandler, type WebMiddleware } from '../../src';
import { createTestContext, createTestRequest } from '../../src/testing';
import { listen, requestText, type Listening } from '../support/net';

const express4 = require('express4') as typeof express5;
const DIR = path.join(__dirname, '../fixtures/session-app/app');

for (const [name, express] of [
  ['Express 5', express5],
  ['Express 4', express4],
] as const) {
  describe(`middleware context (${name}, express-session)`, () => {
    let server: Listening;
    before(async () => {
      const app = express();
      app.use(session({ secret: 'test', resave: false, saveUninitialized: false }));
      app.post('/login', (req, res) => {
        (req.session as unknown as { user: { name: string } }).user = { name: 'Ada' };
        res.send('ok');
      });
      // A bridged guard on the same session, in front of a native route.
      const bridgedGuard: WebMiddleware = (request, next, context) => {
        if (!new URL(request.url).pathname.startsWith('/native')) return next();
        const user = (context?.node?.req.session as { user?: { name: string } } | undefined)?.user;
        return user ? next() : new Response('log in first', { status: 401 });
      };
      app.use(bridgeMiddleware(bridgedGuard));
      app.get('/native', (_req, res) => void res.send('native page'));
      await mountEndpoints(app, { dir: DIR });
      server = await listen(http.createServer(app));
    });
    after(() => server.close());

    async function login(): Promise<string> {
      const reply = await requestText(`${server.url}/login`, { method: 'POST' });
      return String(reply.headers['set-cookie']![0]!.split(';')[0]);
    }

    it('a folder middleware.ts guards on req.session, and sees the route and its params', async () => {
      expect((await requestText(`${server.url}/account/billing`)).status).to.equal(401);
      const cookie = await login();
      const reply = await requestText(`${server.url}/account/billing`, { headers: { cookie } });
      expect([reply.status, reply.body]).to.deep.equal([200, '{"section":"billing","user":"Ada"}']);
      expect(reply.headers['x-guard-saw']).to.equal('/account/[section] {"section":"billing"}');
    });

    it('a bridged middleware guards on req.session through context.node', async () => {
      expect((await requestText(`${server.url}/native`)).status).to.equal(401);
      const cookie = await login();
      const reply = await requestText(`${server.url}/native`, { headers: { cookie } });
      expect([reply.status, reply.body]).to.deep.equal([200, 'native page']);
    });
  });
}

describe('createTestContext', () => {
  it('gives a handler a typed context with a Node request carrying what middleware attached', async () => {
    const GET: EndpointHandler<'/me/[tab]'> = (_request, { params, node }) =>
      Response.json({ tab: params.tab, user: node?.req.user, locals: node?.res.locals });
    const context = createTestContext<'/me/[tab]'>({
      params: { tab: 'profile' },
      node: { req: { user: { id: 7 } }, res: { locals: { theme: 'dark' } } },
    });
    expect(context.node.req).to.be.instanceOf(http.IncomingMessage);
    expect(context.node.res).to.be.instanceOf(http.ServerResponse);
    expect(Object.getPrototypeOf(context.params)).to.equal(null);
    const res = await GET(createTestRequest('/me/profile'), context);
    expect(await res.json()).to.deep.equal({ tab: 'profile', user: { id: 7 }, locals: { theme: 'dark' } });
  });

  it('runs a folder middleware in a unit test, with the session it reads', async () => {
    const { default: requireSession } = (await import('../fixtures/session-app/app/account/middleware')) as {
      default: WebMiddleware;
    };
    const next = async () => new Response('inner');
    const anonymous = await requireSession(createTestRequest('/account/x'), next, createTestContext());
    expect(anonymous.status).to.equal(401);
    const signedIn = await requireSession(
      createTestRequest('/account/x'),
      next,
      createTestContext({
        route: '/account/[section]',
        params: { section: 'x' },
        node: { req: { session: { user: { name: 'Ada' } } } },
      }),
    );
    expect([signedIn.status, await signedIn.text(), signedIn.headers.get('x-guard-saw')]).to.deep.equal([
      200,
      'inner',
      '/account/[section] {"section":"x"}',
    ]);
  });

  it('runs after() callbacks once the handler has answered', async () => {
    const context = createTestContext();
    const ran: string[] = [];
    context.after!(() => ran.push('after'));
    expect(ran).to.deep.equal([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).to.deep.equal(['after']);
  });
});
