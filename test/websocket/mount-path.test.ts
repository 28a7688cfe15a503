/**
 * Where a tree's sockets are when `attach` is not told its mount path: where its middleware has been
 * reached by HTTP requests, since an upgrade never passes through the app's router; at the root until
 * then. A `mountPath` given to `attach` is where they are, whatever requests say.
 */
import http from 'node:http';
import path from 'node:path';
import connect from 'connect';
import express from 'express';
import { expect } from 'chai';
import { mountEndpoints, type EndpointsMiddleware } from '../../src';
import { hosts } from '../integration/hosts';
import { httpRequest, listen } from '../support/net';
import { firstMessage, refusal } from './sockets';

const dir = path.join(__dirname, '../fixtures/socket-mount-app');
const nodeHosts = hosts.filter((host) => host.node);

/**
 * The fixture tree, mounted into `app` by `mount`, its sockets attached to the app's server (with
 * `attachOptions`), served while `run` runs, then closed.
 */
async function serving(
  app: http.RequestListener,
  mount: (endpoints: EndpointsMiddleware) => void,
  run: (urls: { http: string; ws: string }) => Promise<void>,
  attachOptions?: Parameters<EndpointsMiddleware['attach']>[1],
): Promise<void> {
  const endpoints = mountEndpoints({ dir });
  mount(endpoints);
  const server = http.createServer(app);
  endpoints.attach(server, attachOptions);
  const running = await listen(server);
  try {
    await run({ http: running.url, ws: running.url.replace('http:', 'ws:') });
  } finally {
    await endpoints.close();
    await running.close();
  }
}

describe('WebSockets: the mount path attach finds', () => {
  for (const host of nodeHosts) {
    it(`${host.name}: serves a tree's sockets under the mount path its requests reached it by`, async () => {
      const running = await host.start({ dir, prefix: '/v1' });
      running.endpoints.attach(running.server);
      const ws = running.url.replace('http:', 'ws:');
      try {
        expect((await httpRequest(`${running.url}/v1/where`)).body.toString()).to.equal('http at "/v1"');
        expect(await firstMessage(`${ws}/v1/where`)).to.equal('socket at "/v1"');
        // The root is no longer looked at: the app answers there as it would without the tree.
        expect((await refusal(`${ws}/where`)).status).to.equal(404);
      } finally {
        await running.close();
      }
    });
  }

  it('looks at the root until a request has reached the tree', async () => {
    const app = express();
    await serving(
      app,
      (endpoints) => app.use('/v1', endpoints),
      async (urls) => {
        expect(await firstMessage(`${urls.ws}/where`)).to.equal('socket at ""');
        await httpRequest(`${urls.http}/v1/where`);
        expect(await firstMessage(`${urls.ws}/v1/where`)).to.equal('socket at "/v1"');
      },
    );
  });

  it('serves sockets under each mount path of a tree mounted twice, the longer one first', async () => {
    const app = connect();
    await serving(
      app,
      (endpoints) => {
        app.use('/api/v1', endpoints);
        app.use(endpoints);
      },
      async (urls) => {
        for (const prefix of ['/api/v1', '']) await httpRequest(`${urls.http}${prefix}/where`);
        for (const prefix of ['/api/v1', '']) {
          expect(await firstMessage(`${urls.ws}${prefix}/where`)).to.equal(`socket at "${prefix}"`);
        }
      },
    );
  });

  it('compares the mount path as the app does: any case by default, and the spellings cannot fill its list', async () => {
    const app = express();
    await serving(
      app,
      (endpoints) => app.use('/apis', endpoints),
      async (urls) => {
        // Express routes each of these to the tree; more spellings than the list of mount paths holds.
        const spellings = ['APIS', 'Apis', 'aPis', 'apIs', 'apiS', 'APis', 'ApIs', 'ApiS', 'aPIs', 'apIS'];
        for (const spelled of spellings) await httpRequest(`${urls.http}/${spelled}/where`);
        expect(await firstMessage(`${urls.ws}/apis/where`)).to.equal('socket at "/apis"');
        expect(await firstMessage(`${urls.ws}/APIS/where`)).to.equal('socket at "/APIS"');
      },
    );
  });

  it('matches the mount path case by case where the app routes case-sensitively', async () => {
    const app = express();
    app.set('case sensitive routing', true);
    await serving(
      app,
      (endpoints) => app.use('/apis', endpoints),
      async (urls) => {
        await httpRequest(`${urls.http}/apis/where`);
        // The app would not route /APIS to the tree over HTTP, so the tree takes no socket there either.
        expect((await refusal(`${urls.ws}/APIS/where`)).status).to.equal(404);
        expect(await firstMessage(`${urls.ws}/apis/where`)).to.equal('socket at "/apis"');
      },
    );
  });

  it('keeps to the mountPath given, wherever requests reached the tree', async () => {
    const app = express();
    await serving(
      app,
      (endpoints) => {
        app.use('/v1', endpoints);
        app.use('/api', endpoints);
      },
      async (urls) => {
        expect((await httpRequest(`${urls.http}/v1/where`)).body.toString()).to.equal('http at "/v1"');
        // Not the tree's socket: the app answers the upgrade as a plain request, which the tree serves over HTTP.
        const answer = await refusal(`${urls.ws}/v1/where`);
        expect([answer.status, answer.body]).to.deep.equal([200, 'http at "/v1"']);
        expect(await firstMessage(`${urls.ws}/api/where`)).to.equal('socket at "/api"');
      },
      { mountPath: '/api' },
    );
  });
});
