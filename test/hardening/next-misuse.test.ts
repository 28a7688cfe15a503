/**
 * A middleware that calls `next()` twice. Whether it awaits the second call
 * (which rejects) or drops its promise and returns the first Response, the request fails with
 * `500 Internal Server Error`, the misuse is told to `onError`, and no rejection is left that
 * nobody can observe (Node's default mode would exit the process on one). Through
 * bridgeMiddleware on Express 5, Express 4, Connect and node:http, and through the tree's option
 * and folder middleware on the same hosts.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import connect from 'connect';
import express5 from 'express';
import { expect } from 'chai';
import { bridgeMiddleware, mountEndpoints, type EndpointErrorInfo, type WebMiddleware } from '../../src';
import { hosts as chainHosts, sendJson, sendText } from '../middleware/chain-hosts';
import { listen, type Listening } from '../support/net';
import { misuseNext } from '../fixtures/next-misuse-app/misuse';
import { rawBody, rawExchange, unhandledRejectionTripwire } from './helpers';

// The npm alias `express4` has no types of its own; the API used here is the same as 5's.
const express4 = require('express4') as typeof express5;

const DIR = path.join(__dirname, '../fixtures/next-misuse-app/app');
const FOLDER_MIDDLEWARE = 'test/fixtures/next-misuse-app/app/folder/middleware.ts';
const MISUSES = ['await-twice', 'drop-second'] as const;
const STATUS_LINE = 'HTTP/1.1 500 Internal Server Error\r\n';

interface Report {
  error: unknown;
  info: EndpointErrorInfo;
}

/** GET `target` on a fresh connection with `headers`; the exact bytes that came back. */
function get(port: number, target: string, headers: Record<string, string>) {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: x\r\n${lines.join('')}Connection: close\r\n\r\n`);
}

function expectMisuseReported(reports: Report[], culprit: string): void {
  expect(reports).to.have.length(1);
  expect((reports[0]!.error as Error).message).to.match(/next\(\).*more than once/);
  expect(reports[0]!.info.export).to.equal(culprit);
}

// A middleware called `misuse`, so that reports can name it.
const misuse: WebMiddleware = function misuse(request, next) {
  return misuseNext(request.headers.get('x-misuse'), next);
};

describe('hardening: next() called twice', function () {
  this.timeout(10_000);
  unhandledRejectionTripwire();

  const reports: Report[] = [];
  const onError = (error: unknown, info: EndpointErrorInfo) => reports.push({ error, info });
  beforeEach(() => {
    reports.length = 0;
  });

  describe('bridgeMiddleware', () => {
    const bridgeHosts = [
      ...chainHosts.map((host) => ({
        name: host.name,
        start: () =>
          host.start([
            { use: bridgeMiddleware(misuse, { onError }) },
            { route: '/data', handle: (_req, res) => sendJson(res, { from: 'the app' }) },
            { onError: (_error, _req, res) => sendText(res, 'app error', 500) },
          ]),
      })),
      {
        name: 'node:http',
        // No `next`: the bridge's own 404 is what next() resolves to.
        start: () => listen(http.createServer(bridgeMiddleware(misuse, { onError }))),
      },
    ];
    for (const host of bridgeHosts) {
      describe(host.name, () => {
        let server: Listening | { url: string; close(): Promise<void> };
        let port: number;
        before(async () => {
          server = await host.start();
          port = Number(new URL(server.url).port);
        });
        after(() => server.close());

        for (const how of MISUSES) {
          it(`${how}: 500 Internal Server Error, told to onError, nothing unhandled`, async () => {
            const reply = await get(port, '/data', { 'x-misuse': how });
            expect(reply.text.startsWith(STATUS_LINE), reply.text.split('\r\n')[0]).to.equal(true);
            expect(rawBody(reply)).to.match(/server error/i);
            expectMisuseReported(reports, 'misuse');
            expect(reports[0]!.info.passedToNext).to.equal(false);
          });
        }

        it('an error after next() is told to onError too, beside the plain 500', async () => {
          const reply = await get(port, '/data', { 'x-misuse': 'throw-after' });
          expect(reply.text.startsWith(STATUS_LINE), reply.text.split('\r\n')[0]).to.equal(true);
          expect(reports.map((r) => (r.error as Error).message)).to.deep.equal(['failed after next()']);
          expect(reports[0]!.info).to.include({ file: 'bridgeMiddleware', export: 'misuse', route: '/' });
        });

        it('a middleware that calls next() once is not affected', async () => {
          const reply = await get(port, '/data', {});
          expect(reply.status).to.equal(host.name === 'node:http' ? 404 : 200);
          expect(reports).to.deep.equal([]);
        });
      });
    }
  });

  describe("the tree's middleware", () => {
    type Handle = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;
    const appError = (_error: unknown, _req: IncomingMessage, res: ServerResponse, _next: unknown) => {
      res.statusCode = 500;
      res.end('app error');
    };
    const treeHosts: { name: string; start(endpoints: Handle): Promise<Listening> }[] = [
      ...[
        ['Express 5', express5],
        ['Express 4', express4],
      ].map(([name, express]) => ({
        name: name as string,
        start(endpoints: Handle) {
          const app = (express as typeof express5)();
          app.use(endpoints);
          app.use(appError as express5.ErrorRequestHandler);
          return listen(http.createServer(app));
        },
      })),
      {
        name: 'Connect',
        start(endpoints) {
          const app = connect();
          app.use(endpoints as connect.NextHandleFunction);
          app.use(appError as connect.ErrorHandleFunction);
          return listen(http.createServer(app));
        },
      },
      {
        name: 'node:http',
        start: (endpoints) => listen(http.createServer((req, res) => endpoints(req, res))),
      },
    ];
    for (const host of treeHosts) {
      describe(host.name, () => {
        let server: Listening;
        before(async () => {
          const endpoints = mountEndpoints({ dir: DIR, middleware: [misuse], onError });
          await endpoints.ready;
          server = await host.start(endpoints);
        });
        after(() => server.close());

        for (const [where, header, culprit] of [
          ['option middleware', 'x-misuse', 'middleware option #1 (misuse)'],
          ['folder middleware', 'x-misuse-folder', FOLDER_MIDDLEWARE],
        ] as const) {
          for (const how of MISUSES) {
            it(`${where}, ${how}: 500 Internal Server Error, told to onError once, nothing unhandled`, async () => {
              const reply = await get(server.port, '/folder', { [header]: how });
              expect(reply.text.startsWith(STATUS_LINE), reply.text.split('\r\n')[0]).to.equal(true);
              expect(rawBody(reply)).to.match(host.name === 'node:http' ? /server error/i : /^app error$/);
              expectMisuseReported(reports, culprit);
            });
          }
        }

        it('middleware that calls next() once is not affected', async () => {
          const reply = await get(server.port, '/folder', {});
          expect(reply.status).to.equal(200);
          expect(rawBody(reply)).to.equal('from the endpoint');
          expect(reports).to.deep.equal([]);
        });
      });
    }
  });
});

describe("hardening: what the host's next() returns", () => {
  it('is not ours: a next() that returns an object without .catch is called once, and nothing throws', async () => {
    const endpoints = mountEndpoints({ dir: DIR });
    await endpoints.ready;
    let calls = 0;
    const server = await listen(
      http.createServer((req, res) => {
        // A host whose next() returns something that is not a promise (some routers return `this`).
        const next = () => {
          calls++;
          res.end('the app');
          return { next: 'router' };
        };
        endpoints(req, res, next as unknown as () => void);
      }),
    );
    try {
      const reply = await rawExchange(
        server.port,
        'GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      );
      expect(reply.text).to.match(/\r\n\r\nthe app$/);
      expect(calls).to.equal(1);
    } finally {
      await server.close();
    }
  });
});
