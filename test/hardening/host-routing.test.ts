/**
 * The tree never matches more spellings of a path than the Express app or Router in front of it:
 * with `case sensitive routing`, `app.use('/admin', guard)` does not run for `/ADMIN/secret`, so
 * the tree must not serve `app/admin/secret` for it either; with `strict routing`,
 * `app.all('/api/health', guard)` does not run for `/api/health/`, so neither may the tree. Checked
 * for every way of mounting, on Express 5 and Express 4, with no routing option passed by hand.
 */
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import express5 from 'express';
import { mountEndpoints } from '../../src';
import { listen, requestText, type Listening } from '../support/net';

const express4 = require('express4') as typeof express5;

const DIR = path.join(__dirname, '../fixtures/guarded-app/app');

type Express = typeof express5;
type App = ReturnType<Express>;
const guard: express5.RequestHandler = (_req, res) => {
  res.statusCode = 401;
  res.end('guarded');
};

/** Guards on `/admin` (every method, as a prefix) and `/api/health` (a route), under `base`. */
function guardOn(host: express5.IRouter, base: string): void {
  host.use(`${base}/admin`, guard);
  host.all(`${base}/api/health`, guard);
}

function finish(app: App): App {
  app.use((_req, res) => void res.status(404).send('app 404'));
  return app;
}

interface Form {
  name: string;
  /** The path prefix the tree answers under. */
  base: string;
  /** An app with both settings on, its guards, and the tree mounted this way. */
  make(express: Express): Promise<App>;
}

const settingsOn = (app: App) => {
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  return app;
};

const FORMS: Form[] = [
  {
    name: 'mountEndpoints(app)',
    base: '',
    async make(express) {
      const app = settingsOn(express());
      guardOn(app, '');
      await mountEndpoints(app, { dir: DIR });
      return finish(app);
    },
  },
  {
    name: 'app.use(mountEndpoints())',
    base: '',
    async make(express) {
      const app = settingsOn(express());
      guardOn(app, '');
      app.use(mountEndpoints({ dir: DIR }));
      return finish(app);
    },
  },
  {
    name: "app.use('/v1', mountEndpoints())",
    base: '/v1',
    async make(express) {
      const app = settingsOn(express());
      guardOn(app, '/v1');
      app.use('/v1', mountEndpoints({ dir: DIR }));
      return finish(app);
    },
  },
  {
    name: 'settings turned on after the mount',
    base: '',
    async make(express) {
      const app = express();
      const endpoints = mountEndpoints({ dir: DIR });
      settingsOn(app);
      guardOn(app, '');
      app.use(endpoints);
      return finish(app);
    },
  },
  {
    name: 'a sub-app that turns them off, in an app that has them on',
    base: '/v1',
    async make(express) {
      const app = settingsOn(express());
      guardOn(app, '/v1');
      const sub = express();
      sub.set('case sensitive routing', false);
      sub.set('strict routing', false);
      await mountEndpoints(sub, { dir: DIR });
      app.use('/v1', sub);
      return finish(app);
    },
  },
  {
    name: 'mountEndpoints(router) with a Router of its own',
    base: '/v1',
    async make(express) {
      const app = express();
      const router = express.Router({ caseSensitive: true, strict: true });
      guardOn(router, '');
      await mountEndpoints(router, { dir: DIR });
      app.use('/v1', router);
      return finish(app);
    },
  },
];

const HOSTS: [string, Express][] = [
  ['Express 5', express5],
  ['Express 4', express4],
];

describe('the tree follows the routing settings of the app in front of it', () => {
  for (const [hostName, express] of HOSTS) {
    describe(hostName, () => {
      for (const form of FORMS) {
        describe(form.name, () => {
          let server: Listening;
          before(async () => {
            server = await listen(http.createServer(await form.make(express)));
          });
          after(() => server.close());
          const get = (target: string) => requestText(server.url + form.base + target);

          it('a guard on a prefix still answers for its own spelling', async () => {
            expect((await get('/admin/secret')).status).to.equal(401);
            expect((await get('/api/health')).status).to.equal(401);
          });

          it('another letter case, which the guard does not see, is not served (case sensitive routing)', async () => {
            const reply = await get('/ADMIN/secret');
            expect(reply.status, reply.body).to.equal(404);
            expect(reply.body).to.equal('app 404');
            expect((await get('/Admin')).status).to.equal(404);
          });

          it('a trailing slash, which the route guard does not see, is not served (strict routing)', async () => {
            const reply = await get('/api/health/');
            expect(reply.status, reply.body).to.equal(404);
            expect(reply.body).to.equal('app 404');
          });

          it('an unguarded endpoint in its own spelling answers', async () => {
            expect((await get('/files/a')).status).to.equal(200);
          });
        });
      }
    });
  }

  it("an app with Express's defaults keeps matching any letter case and a trailing slash", async () => {
    for (const [, express] of HOSTS) {
      const app = express();
      app.use(mountEndpoints({ dir: DIR }));
      const server = await listen(http.createServer(finish(app)));
      try {
        expect((await requestText(`${server.url}/API/Health`)).status).to.equal(200);
        expect((await requestText(`${server.url}/api/health/`)).status).to.equal(200);
      } finally {
        await server.close();
      }
    }
  });
});
