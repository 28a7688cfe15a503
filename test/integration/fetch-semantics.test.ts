/**
 * The handler semantics of semantics.test.ts through `.fetch()` (no Node objects), and the default
 * `onError`: it logs what no host error handler sees — a bare node:http server, `.fetch()` — and
 * stays quiet when the app's error handler gets the error through `next(err)`.
 */
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import { mountEndpoints, type EndpointErrorInfo } from '../../src';
import { createTestRequest } from '../../src/testing';
import { expressPath } from '../../src/dispatch/express-path';
import type { Segment } from '../../src/discover';
import { state } from '../fixtures/app/_lib/store';
import { httpRequest, listen, waitFor } from '../support/net';

const dir = path.join(__dirname, '../fixtures/app');

describe('handler semantics through .fetch()', () => {
  const errors: Array<[unknown, EndpointErrorInfo]> = [];
  const endpoints = mountEndpoints({ dir, onError: (error, info) => errors.push([error, info]) });
  beforeEach(() => {
    errors.length = 0;
  });

  it('answers a throwing handler with a plain 500 and tells onError; the promise does not reject', async () => {
    const res = await endpoints.fetch(createTestRequest('/errors/reject'));
    expect([res.status, await res.text()]).to.deep.equal([500, 'Internal Server Error']);
    expect(errors).to.have.length(1);
    expect((errors[0]![0] as Error).message).to.equal('rejected by the endpoint');
    expect(errors[0]![1]).to.include({ route: '/errors/reject', export: 'GET', passedToNext: false });
  });

  it('dispatches QUERY, and lists it in Allow', async () => {
    const res = await endpoints.fetch(createTestRequest('/semantics/query', { method: 'QUERY', body: 'q' }));
    expect(await res.text()).to.equal('QUERY handler: q');
    const put = await endpoints.fetch(createTestRequest('/semantics/query', { method: 'PUT' }));
    expect(put.headers.get('allow')).to.equal('GET, HEAD, QUERY, OPTIONS');
  });

  it('answers with a thrown Response, from a handler or a middleware', async () => {
    const redirect = await endpoints.fetch(createTestRequest('/semantics/thrown'));
    expect([redirect.status, redirect.headers.get('location')]).to.deep.equal([
      307,
      'http://localhost/login',
    ]);
    const missing = await endpoints.fetch(createTestRequest('/semantics/thrown', { method: 'POST' }));
    expect(missing.status).to.equal(404);
    const denied = await endpoints.fetch(createTestRequest('/semantics/guarded'));
    expect([denied.status, await denied.text()]).to.deep.equal([401, 'Unauthorized']);
    expect(errors).to.deep.equal([]);
  });

  it('lets an outer middleware see a Response thrown further in, as what next() resolved to', async () => {
    const tagged = mountEndpoints({
      dir,
      middleware: [
        async (_req, next) => {
          const res = await next();
          return new Response(res.body, { status: res.status, headers: { 'x-outer': 'saw it' } });
        },
      ],
    });
    const res = await tagged.fetch(createTestRequest('/semantics/guarded'));
    expect([res.status, res.headers.get('x-outer')]).to.deep.equal([401, 'saw it']);
  });

  it('gives mountPath "" and the route pattern', async () => {
    const res = await endpoints.fetch(createTestRequest('/semantics/where/a%20b'));
    expect(await res.json()).to.deep.equal({
      mountPath: '',
      route: '/semantics/where/[id]',
      self: '/semantics/where/a%20b',
      reqRoute: null,
    });
  });

  describe('context.after()', () => {
    const key = (what: string) => `fetch/${what}/${Date.now()}`;

    it('runs once the body has been read', async () => {
      const id = key('read');
      const res = await endpoints.fetch(createTestRequest(`/semantics/after?stream=1&id=${id}`));
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(state.afterLog).not.to.include(`${id}:after`);
      expect(await res.text()).to.equal('chunk1\nchunk2\nchunk3\n');
      await waitFor(() => state.afterLog.includes(`${id}:after`), 1000, 'after()');
    });

    it('runs when the body is cancelled', async () => {
      const id = key('cancel');
      const res = await endpoints.fetch(createTestRequest(`/semantics/after?stream=1&id=${id}`));
      await res.body!.cancel();
      await waitFor(() => state.afterLog.includes(`${id}:after`), 1000, 'after()');
      expect(state.afterLog).not.to.include(`${id}:body-done`);
    });

    it('runs for a HEAD request, whose body is dropped', async () => {
      const id = key('head');
      const res = await endpoints.fetch(createTestRequest(`/semantics/after?id=${id}`, { method: 'HEAD' }));
      expect(res.body).to.equal(null);
      await waitFor(() => state.afterLog.includes(`${id}:after`), 1000, 'after()');
    });

    it('sends its errors to onError', async () => {
      const id = key('fail');
      const res = await endpoints.fetch(createTestRequest(`/semantics/after?fail=throw&id=${id}`));
      expect(await res.text()).to.equal('sent');
      await waitFor(() => errors.length === 1, 1000, 'onError');
      expect((errors[0]![0] as Error).message).to.include(id);
    });
  });

  it('.routes reflects the loaded exports once .ready resolves', async () => {
    const fresh = mountEndpoints({ dir });
    const before = fresh.routes.find((route) => route.pattern === '/semantics/reexport')!;
    expect([before.methods, before.incomplete]).to.deep.equal([['OPTIONS'], true]);
    await fresh.ready;
    const after = fresh.routes.find((route) => route.pattern === '/semantics/reexport')!;
    expect([after.methods, after.incomplete]).to.deep.equal([['GET', 'HEAD', 'DELETE', 'OPTIONS'], false]);
  });
});

describe('the default onError', () => {
  let calls: unknown[][];
  const original = console.error;
  beforeEach(() => {
    calls = [];
    console.error = (...args: unknown[]) => void calls.push(args);
  });
  afterEach(() => {
    console.error = original;
  });

  it('logs, naming file and export, on a bare node:http server', async () => {
    const endpoints = mountEndpoints({ dir });
    await endpoints.ready;
    const server = await listen(http.createServer(endpoints));
    try {
      const res = await httpRequest(`${server.url}/errors/throw`);
      expect([res.status, res.body.toString()]).to.deep.equal([500, 'Internal Server Error']);
    } finally {
      await server.close();
    }
    expect(calls).to.have.length(1);
    expect(String(calls[0]![0])).to.include('test/fixtures/app/errors/throw/endpoint.ts (export GET)');
    expect((calls[0]![1] as Error).message).to.equal('thrown by the endpoint');
  });

  it('logs under .fetch()', async () => {
    const endpoints = mountEndpoints({ dir });
    const res = await endpoints.fetch(createTestRequest('/errors/not-a-response'));
    expect(res.status).to.equal(500);
    expect(calls).to.have.length(1);
    expect(String(calls[0]![0])).to.include(
      '(export GET) failed on GET http://localhost/errors/not-a-response',
    );
  });

  it("stays quiet when the error goes to Express's error handler, which answers as before", async () => {
    const app = express();
    await mountEndpoints(app, { dir });
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).json({ caught: error.message });
    });
    const server = await listen(http.createServer(app));
    try {
      const res = await httpRequest(`${server.url}/errors/throw`);
      expect(JSON.parse(res.body.toString())).to.deep.equal({ caught: 'thrown by the endpoint' });
    } finally {
      await server.close();
    }
    expect(calls).to.deep.equal([]);
  });
});

describe('expressPath: route patterns in Express 5 syntax for req.route.path', () => {
  const cases: Array<[string, Segment[], string]> = [
    ['the root', [], '/'],
    ['static', [{ kind: 'static', value: 'api' }], '/api'],
    [
      'param',
      [
        { kind: 'static', value: 'u' },
        { kind: 'param', name: 'id' },
      ],
      '/u/:id',
    ],
    [
      'catch-all',
      [
        { kind: 'static', value: 'docs' },
        { kind: 'catchAll', name: 'path' },
      ],
      '/docs/*path',
    ],
    [
      'optional catch-all',
      [
        { kind: 'static', value: 'f' },
        { kind: 'optionalCatchAll', name: 'p' },
      ],
      '/f{/*p}',
    ],
    ['optional catch-all at the root', [{ kind: 'optionalCatchAll', name: 'p' }], '/{*p}'],
    ['a name that is no identifier', [{ kind: 'param', name: 'user-id' }], '/:"user-id"'],
    ['reserved characters in a static segment', [{ kind: 'static', value: 'a+b(c)' }], '/a\\+b\\(c\\)'],
  ];
  for (const [what, segments, expected] of cases) {
    it(`${what}: ${expected}`, () => expect(expressPath(segments)).to.equal(expected));
  }
});
