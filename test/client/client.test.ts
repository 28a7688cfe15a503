/**
 * The typed client at run time, against a real server (Express, mounted at a sub-path) and
 * against `.fetch`: URLs with params, the query, JSON bodies, answers read by their Content-Type, problem
 * details for an invalid body; and that test/client/registry.ts is what typegen writes for the tree.
 */
import { expect } from 'chai';
import express from 'express';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { mountEndpoints } from '../../src';
import { createClient } from '../../src/client';
import { discoverTree } from '../../src/discover';
import { routeDeclarations } from '../../src/typed-routes';
import { listen, type Listening } from '../support/net';
import type { Api } from './registry';

const DIR = path.join(__dirname, '../fixtures/openapi-app/app');

function calls(client: () => ReturnType<typeof createClient<Api>>) {
  it('GETs a route with a param, and reads its JSON', async () => {
    const api = client();
    const answer = await api.GET('/api/users/[id]', { params: { id: '1' } });
    expect(answer).to.include({ status: 200, ok: true });
    expect(answer.data).to.deep.equal({ id: '1', name: 'Ada', email: 'ada@example.com' });
    const missing = await api.GET('/api/users/[id]', { params: { id: '2' } });
    expect([missing.status, missing.ok, missing.data]).to.deep.equal([404, false, { error: 'not found' }]);
  });

  it('sends the query, a repeated key per array item', async () => {
    const api = client();
    const answer = await api.GET('/api/users', { query: { limit: 1, tag: ['a', 'b'] } });
    expect(answer.data).to.deep.equal({ users: [{ id: '1', name: 'Ada', email: 'ada@example.com' }] });
    const invalid = await api.GET('/api/users', { query: { limit: 0 } });
    expect((invalid.data as { detail: string }).detail).to.match(/^query.limit: /);
  });

  it('sends a JSON body, and gets problem details for an invalid one', async () => {
    const api = client();
    const created = await api.POST('/api/users', { body: { name: 'Grace', email: 'grace@example.com' } });
    expect([created.status, created.data]).to.deep.equal([
      201,
      { id: '2', name: 'Grace', email: 'grace@example.com' },
    ]);
    const invalid = await api.POST('/api/users', { body: { name: 'Grace', email: 'not an email' } as never });
    expect(invalid.status).to.equal(400);
    expect(invalid.response.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect((invalid.data as { issues: { path: string }[] }).issues.map((issue) => issue.path)).to.deep.equal([
      'body.email',
    ]);
  });

  it('sends a body with files in it as a form, which a multipart contract reads', async () => {
    const api = client();
    const png = (text: string) => new File([text], `${text}.png`, { type: 'image/png' });
    const uploaded = await api.POST('/uploads', { body: { title: 'Holiday', photos: [png('a'), png('b')] } });
    expect([uploaded.status, uploaded.data]).to.deep.equal([201, { count: 2 }]);
    // An array of one is the field once, and still the array the contract's schema wants.
    const one = await api.POST('/uploads', { body: { title: 'One', photos: [png('c')] } });
    expect([one.status, one.data]).to.deep.equal([201, { count: 1 }]);
    // A field that is an object has no form spelling: the call says so rather than sending "[object Object]".
    const nested = api.POST('/uploads', { body: { title: { text: 'x' }, photos: [png('a')] } as never });
    await nested.then(
      () => expect.fail('expected a TypeError'),
      (error: unknown) => expect(String(error)).to.match(/form field "title" is an object/),
    );
  });

  it('calls QUERY, ANY, catch-alls, text answers and a 204', async () => {
    const api = client();
    expect((await api.QUERY('/search', { body: { text: 'ada' } })).data).to.deep.equal({ hits: ['ada'] });
    expect((await api.PUT('/anything')).data).to.deep.equal({ method: 'PUT' });
    const file = await api.GET('/files/[...path]', { params: { path: ['a b', 'c'] } });
    expect(file.data).to.match(/^GET \/(?:v1\/)?files\/a%20b\/c$/);
    const removed = await api.DELETE('/api/users/[id]', { params: { id: '1' } });
    expect([removed.status, removed.data]).to.deep.equal([204, undefined]);
    expect((await api.GET('/docs/[[...slug]]')).data).to.deep.equal({ slug: [] });
  });

  it("resolves a proxy's 502 that says JSON and is HTML, with its text as data", async () => {
    const api = client();
    const answer = await api.GET('/api/users/[id]', { params: { id: 'behind-a-down-proxy' } });
    expect([answer.status, answer.ok, answer.data]).to.deep.equal([502, false, BAD_GATEWAY_PAGE]);
    expect(answer.response.headers.get('content-type')).to.match(/^application\/json\b/);
  });
}

/** What a proxy in front of the API answers when the API is down: HTML, labelled as the API's JSON. */
const BAD_GATEWAY_PAGE = '<html><body><h1>502 Bad Gateway</h1></body></html>';
const PROXY_DOWN = /\/api\/users\/behind-a-down-proxy$/;
const badGateway = () =>
  new Response(BAD_GATEWAY_PAGE, { status: 502, headers: { 'content-type': 'application/json' } });

describe('the typed client', () => {
  describe('against a server, the tree mounted at /v1', () => {
    let server: Listening;
    before(async () => {
      const app = express();
      app.use((req, res, next) => {
        if (!PROXY_DOWN.test(req.path)) return next();
        res.status(502).type('application/json').send(BAD_GATEWAY_PAGE);
      });
      app.use('/v1', mountEndpoints({ dir: DIR }));
      server = await listen(http.createServer(app));
    });
    after(() => server.close());
    calls(() => createClient<Api>({ baseUrl: `${server.url}/v1` }));
  });

  describe('against .fetch', () => {
    const endpoints = mountEndpoints({ dir: DIR });
    const behindProxy = (request: Request) =>
      PROXY_DOWN.test(new URL(request.url).pathname)
        ? Promise.resolve(badGateway())
        : endpoints.fetch(request);
    calls(() => createClient<Api>({ fetch: behindProxy }));
  });

  it('resolves an answer that says JSON and is not, with its text; rejects when a param is missing', async () => {
    const api = createClient<Api>({
      fetch: async () => new Response('<html>', { headers: { 'content-type': 'application/json' } }),
    });
    const answer = await api.GET('/plain');
    expect([answer.status, answer.ok, answer.data]).to.deep.equal([200, true, '<html>']);
    let missing: unknown;
    await api.GET('/api/users/[id]', {} as never).catch((caught: unknown) => (missing = caught));
    expect((missing as Error).message).to.equal('url(): /api/users/[id] needs params.id');
  });

  it('sends a stream body', async () => {
    let received = '';
    const api = createClient({
      fetch: async (request) => ((received = await request.text()), new Response(null, { status: 204 })),
    });
    const body = new Blob(['streamed ', 'body']).stream();
    const answer = await api.POST('/echo', { body });
    expect([answer.status, received]).to.deep.equal([204, 'streamed body']);
  });

  it("never leaves the base URL's origin: an empty catch-all item is refused, not read as //another-host", async () => {
    const sent: string[] = [];
    const api = createClient({
      baseUrl: 'https://api.example.com/v1?key=1#top',
      headers: { authorization: 'Bearer secret' },
      fetch: async (request) => (sent.push(request.url), new Response(null, { status: 204 })),
    });
    let error: unknown;
    await api
      .GET('/files/[...path]', { params: { path: ['', 'evil.example', 'x'] } })
      .catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(TypeError);
    expect((error as Error).message).to.match(/params\.path .* cannot hold an empty segment/);
    expect(sent).to.deep.equal([]);
    await api.GET('/files/[...path]', { params: { path: ['a', 'b'] } });
    expect(sent).to.deep.equal(['https://api.example.com/v1/files/a/b']);
  });

  it('test/client/registry.ts is what typegen writes for the tree (regenerate it when the fixture changes)', () => {
    const file = path.join(__dirname, 'registry.ts');
    const generated = routeDeclarations(discoverTree(DIR), file);
    // The entries, compared without whitespace: Prettier formats the committed file.
    const entries = generated.split('\n').filter((line) => line.startsWith("    '"));
    const squeeze = (text: string) => text.replace(/[\s;]+/g, '');
    expect(squeeze(readFileSync(file, 'utf8'))).to.include(squeeze(entries.join('')));
  });
});
