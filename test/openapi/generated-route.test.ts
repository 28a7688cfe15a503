/**
 * The served document is a generated route of the tree's own table, not a mount of its own: the
 * `middleware` files of the folders on its path wrap it, `close()` refuses it and waits for it as it
 * does every endpoint, its requests are traced by route, and it cannot take an endpoint's URL.
 */
import dc from 'node:diagnostics_channel';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { mountEndpoints, type RequestTraceContext, type WebMiddleware } from '../../src';

const DIR = path.join(__dirname, '../fixtures/openapi-app/app');
const quiet = { onWarning: () => {} };

describe('the OpenAPI document as a generated route', () => {
  let scratch: string | undefined;
  afterEach(() => scratch && rmSync(scratch, { recursive: true, force: true }));

  /** A tree of CommonJS files in a fresh folder. */
  function tree(files: Record<string, string>): string {
    scratch = mkdtempSync(path.join(tmpdir(), 'ee-generated-'));
    writeFileSync(path.join(scratch, 'package.json'), '{"type":"commonjs"}');
    for (const [relative, text] of Object.entries(files)) {
      const file = path.join(scratch, 'app', relative);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    return path.join(scratch, 'app');
  }

  it('runs inside the middleware files of the folders on its path', async () => {
    const dir = tree({
      'docs/middleware.js': `module.exports = async (request, next) =>
        request.headers.get('x-docs') === 'yes' ? next() : new Response('docs are private', { status: 403 });`,
      'docs/guide/endpoint.js': `exports.GET = () => new Response('guide');`,
      'users/endpoint.js': `exports.GET = () => Response.json([]);`,
    });
    const endpoints = mountEndpoints({ dir, openapi: { path: '/docs/openapi.json', ...quiet } });
    await endpoints.ready;
    const refused = await endpoints.fetch(new Request('http://localhost/docs/openapi.json'));
    expect(refused.status).to.equal(403);
    expect(await refused.text()).to.equal('docs are private');
    const allowed = await endpoints.fetch(
      new Request('http://localhost/docs/openapi.json', { headers: { 'x-docs': 'yes' } }),
    );
    expect(allowed.status).to.equal(200);
    expect(await allowed.json()).to.have.nested.property('paths./users.get');
    // The folder's guard covers only its folder: the endpoints elsewhere answer as before.
    expect((await endpoints.fetch(new Request('http://localhost/users'))).status).to.equal(200);
  });

  it('is refused while closing, and close() waits for a document request in flight', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const hold: WebMiddleware = async (request, next) => {
      if (request.headers.get('x-hold') === 'yes') {
        entered();
        await held;
      }
      return next();
    };
    const app = express();
    const endpoints = mountEndpoints({
      dir: DIR,
      middleware: [hold],
      openapi: { path: '/openapi.json', ...quiet },
    });
    app.use(endpoints);
    await endpoints.ready;
    const inFlight = request(app)
      .get('/openapi.json')
      .set('x-hold', 'yes')
      .then((response) => response);
    await inside;
    let closed = false;
    const closing = endpoints.close({ timeout: 5000 }).then(() => void (closed = true));
    const refused = await request(app).get('/openapi.json');
    expect(refused.status).to.equal(503);
    expect((await endpoints.fetch(new Request('http://localhost/openapi.json'))).status).to.equal(503);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed, 'close() waits for the document request').to.equal(false);
    release();
    expect((await inFlight).status).to.equal(200);
    await closing;
    expect(closed).to.equal(true);
  });

  it('is traced by its route, as an endpoint is', async () => {
    const seen: RequestTraceContext[] = [];
    const channel = dc.tracingChannel<unknown, RequestTraceContext>('express-file-endpoints:request');
    const start = (context: RequestTraceContext) => void seen.push(context);
    channel.start.subscribe(start as (message: unknown) => void);
    try {
      const endpoints = mountEndpoints({ dir: DIR, openapi: { path: '/openapi.json', ...quiet } });
      expect((await endpoints.fetch(new Request('http://localhost/openapi.json'))).status).to.equal(200);
    } finally {
      channel.start.unsubscribe(start as (message: unknown) => void);
    }
    expect(seen.map((context) => context.route)).to.deep.equal(['/openapi.json']);
  });

  it('refuses, at the mount, a path an endpoint serves too', () => {
    const dir = tree({ 'openapi.json/endpoint.js': `exports.GET = () => Response.json({});` });
    expect(() => mountEndpoints({ dir, openapi: { path: '/openapi.json', ...quiet } })).to.throw(
      'the openapi option serves /openapi.json, which ',
    );
  });

  it('leaves a catch-all its other URLs: the static document path is the more specific route', async () => {
    const dir = tree({
      '[...rest]/endpoint.js': `exports.GET = (request, { params }) => Response.json(params);`,
    });
    const endpoints = mountEndpoints({ dir, openapi: { path: '/openapi.json', ...quiet } });
    const document = await endpoints.fetch(new Request('http://localhost/openapi.json'));
    expect(await document.json()).to.have.property('openapi');
    const other = await endpoints.fetch(new Request('http://localhost/a/b'));
    expect(await other.json()).to.deep.equal({ rest: ['a', 'b'] });
  });
});
