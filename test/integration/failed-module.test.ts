/**
 * A module that fails to load, with `mountEndpoints` not awaited (docs/mounting.md, "Without
 * `await`"): on every host, its failure is told to `onError` once, at startup, with `export: ''` and
 * no request, as docs/errors.md says; each request to its route then fails with that error through
 * the app's error handler (a plain 500 where there is none), without telling `onError` again.
 */
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import connect from 'connect';
import express5 from 'express';
import supertest from 'supertest';
import { mountEndpoints, type EndpointErrorInfo, type MountOptions } from '../../src';

// The npm alias `express4` has no types of its own; the API used here is the same as 5's.
const express4 = require('express4') as typeof express5;

const BROKEN_DIR = path.join(__dirname, '../fixtures/hardening-app/broken');
const BROKEN_FILE = 'test/fixtures/hardening-app/broken/throws/endpoint.ts';

type ErrorHandler = (error: Error, req: unknown, res: http.ServerResponse, next: unknown) => void;
// Four parameters: Express tells an error handler by its length.
const errorHandler: ErrorHandler = (error, _req, res, _next) => {
  res.statusCode = 500;
  res.end(`app error: ${error.name}`);
};

/** Each host as an app that builds its mount at module level and never awaits it. */
const HOSTS: {
  name: string;
  app(options: MountOptions): http.RequestListener | ((r: Request) => Promise<Response>);
}[] = [
  ...[
    ['Express 5', express5],
    ['Express 4', express4],
  ].map(([name, express]) => ({
    name: name as string,
    app(options: MountOptions) {
      const app = (express as typeof express5)();
      void mountEndpoints(app, options);
      app.use(errorHandler);
      return app;
    },
  })),
  {
    name: 'Connect',
    app(options) {
      const app = connect();
      app.use(mountEndpoints(options));
      app.use(errorHandler as connect.ErrorHandleFunction);
      return app;
    },
  },
  { name: 'node:http', app: (options) => mountEndpoints(options) as http.RequestListener },
  { name: '.fetch', app: (options) => mountEndpoints(options).fetch },
];

describe('a module that fails to load, not awaited', () => {
  for (const host of HOSTS) {
    it(`${host.name}: told to onError once, at startup; its requests fail through the error handler`, async () => {
      const reported: { error: Error; info: EndpointErrorInfo }[] = [];
      const app = host.app({
        dir: BROKEN_DIR,
        onError: (error, info) => void reported.push({ error: error as Error, info }),
      });
      const get = async (target: string) => {
        if (host.name === '.fetch') {
          const res = await (app as (r: Request) => Promise<Response>)(
            new Request(`http://localhost${target}`),
          );
          return { status: res.status, text: await res.text() };
        }
        return supertest(app as http.RequestListener).get(target);
      };
      expect((await get('/fine')).status).to.equal(200);
      for (let i = 0; i < 3; i++) {
        const res = await get('/throws');
        expect(res.status).to.equal(500);
        if (host.name.startsWith('Express') || host.name === 'Connect') {
          expect(res.text).to.equal('app error: EndpointLoadError');
        }
      }
      expect(reported).to.have.length(1);
      expect(reported[0]!.error.message).to.include('boom at import');
      expect(reported[0]!.info).to.deep.equal({
        file: BROKEN_FILE,
        route: '/throws',
        export: '',
        passedToNext: false,
      });
    });
  }
});
