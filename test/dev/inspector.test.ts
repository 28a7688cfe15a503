/**
 * The development inspector at `/__endpoints`: the route table as users think of it (pattern, file, methods,
 * the middleware that wrap it in order, its contract, its WebSocket hooks and topics) and the last requests of
 * each route (status, time, errors with their source location), live as requests come and files change.
 * Only in development mode. In Debian's Chromium too (skipped without it, except under CI=true);
 * `SCREENSHOT=<file>` saves the page, for docs/development-mode.md.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import { mountEndpoints } from '../../src';
import { launchChromium, requireChromium } from '../support/chromium';
import { scratchTree, until, type ScratchTree } from './scratch-tree';

const FILES = {
  'middleware.js': 'module.exports = (request, next) => next();',
  'api/middleware.js': 'module.exports = function requireKey(request, next) { return next(); };',
  'api/users/endpoint.js':
    'exports.GET = () => Response.json([]);\nexports.POST = () => Response.json({}, { status: 201 });',
  'api/broken/endpoint.js': "exports.GET = () => {\n  throw new Error('the database is down');\n};",
  'chat/endpoint.js':
    "exports.topics = { chat: {} };\nexports.websocket = { open(socket) { socket.subscribe('chat'); }, message() {} };",
};

interface Table {
  routes: {
    pattern: string;
    file: string;
    methods: string[];
    middleware: string[];
    websocket: boolean;
    socketHooks: string[];
    topics: string[];
    served: { method: string; status: number; error?: { message: string; location?: string } }[];
  }[];
}

describe('the development inspector', () => {
  let tree: ScratchTree;
  afterEach(() => tree?.cleanUp());

  const table = async (endpoints: ReturnType<ScratchTree['mount']>) =>
    (await (await endpoints.fetch(new Request('http://localhost/__endpoints/routes.json'))).json()) as Table;

  it('lists each route with its file, methods, middleware, hooks and topics, and the requests it served', async () => {
    tree = scratchTree('commonjs', FILES);
    const endpoints = tree.mount();
    await endpoints.ready;
    await (await endpoints.fetch(new Request('http://localhost/api/users', { method: 'POST' }))).text();
    await (await endpoints.fetch(new Request('http://localhost/api/broken'))).text();
    const { routes } = await table(endpoints);
    const users = routes.find((route) => route.pattern === '/api/users')!;
    expect(users.methods).to.include.members(['GET', 'POST']);
    expect(users.file).to.match(/app\/api\/users\/endpoint\.js$/);
    expect(users.middleware.map((file) => path.basename(path.dirname(file)))).to.deep.equal(['app', 'api']);
    expect(users.served).to.have.length(1);
    expect(users.served[0]).to.include({ method: 'POST', status: 201 });
    const broken = routes.find((route) => route.pattern === '/api/broken')!;
    expect(broken.served[0]!.status).to.equal(500);
    expect(broken.served[0]!.error!.message).to.equal('the database is down');
    expect(broken.served[0]!.error!.location).to.match(/app\/api\/broken\/endpoint\.js:2:9$/);
    const chat = routes.find((route) => route.pattern === '/chat')!;
    expect(chat.websocket).to.equal(true);
    expect(chat.socketHooks).to.deep.equal(['open', 'message']);
    expect(chat.topics).to.deep.equal(['chat']);
    // Its own requests are no route's.
    expect(routes.map((route) => route.pattern)).to.not.include('/__endpoints');
  });

  it('is served in development mode only, where dev.inspector says, or not at all', async () => {
    tree = scratchTree('commonjs', FILES);
    const production = mountEndpoints({ dir: tree.app, dev: false });
    expect((await production.fetch(new Request('http://localhost/__endpoints'))).status).to.equal(404);
    const elsewhere = mountEndpoints({ dir: tree.app, dev: { inspector: '/_dev/routes', logger: quiet } });
    await elsewhere.ready;
    expect((await elsewhere.fetch(new Request('http://localhost/_dev/routes'))).status).to.equal(200);
    expect((await elsewhere.fetch(new Request('http://localhost/__endpoints'))).status).to.equal(404);
    const none = mountEndpoints({ dir: tree.app, dev: { inspector: false, logger: quiet } });
    await none.ready;
    expect((await none.fetch(new Request('http://localhost/__endpoints'))).status).to.equal(404);
    await Promise.all([elsewhere.close(), none.close()]);
  });

  describe('in Chromium', function () {
    this.timeout(60_000);
    before(function () {
      requireChromium(this, "the inspector's browser test");
    });

    it('shows the table, then a request and a new route as they happen', async () => {
      tree = scratchTree('commonjs', FILES);
      const endpoints = tree.mount();
      await endpoints.ready;
      const app = express();
      app.use(endpoints);
      // The app's error handler answers the broken route's error.
      app.use(
        (_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
          res.status(500).json({ error: 'Internal Server Error' });
        },
      );
      const server = http.createServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
        const violations: string[] = [];
        page.on('console', (message) => {
          if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
        });
        await page.goto(`${base}/__endpoints`);
        await page.locator('section.route').first().waitFor();
        expect(await page.locator('section.route h2').allTextContents()).to.have.length(3);
        // A request elsewhere appears without a reload of the page.
        await fetch(`${base}/api/broken`);
        await page.locator('tr.request .error', { hasText: 'the database is down' }).waitFor();
        expect(await page.locator('tr.request .status').first().textContent()).to.equal('500');
        // A new endpoint file appears too.
        const reloads = tree.reloads.length;
        tree.write('api/orders/endpoint.js', 'exports.GET = () => Response.json([]);');
        await until(async () => tree.reloads.length > reloads, 5000);
        await page.locator('section.route h2', { hasText: '/api/orders' }).waitFor();
        await fetch(`${base}/api/users`);
        await page.locator('tr.request .status', { hasText: '200' }).waitFor();
        if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });
        expect(violations).to.deep.equal([]);
      } finally {
        await browser.close();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });
});

const quiet = { info: () => {}, error: () => {} };
