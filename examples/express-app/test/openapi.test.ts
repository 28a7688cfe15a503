/**
 * The example app describes itself: GET /openapi.json is an OpenAPI document a real validator accepts, and
 * the typed client calls the app, typed from its routes (`Api` is what `npx express-file-endpoints typegen`
 * writes into express-file-endpoints-env.d.ts, as a plain interface here).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import type { EndpointMethods, OpenAPIDocument } from 'express-file-endpoints';
import { validate } from '../../../test/support/openapi-validator';
import { createApp, DEFAULT_TOKEN, silentLogger } from './support';
import { createClient } from 'express-file-endpoints/client';

interface Api {
  '/api/users': {
    params: Record<string, never>;
    methods: EndpointMethods<typeof import('../app/api/users/endpoint.js')>;
  };
  '/api/users/[id]': {
    params: { id: string };
    methods: EndpointMethods<typeof import('../app/api/users/[id]/endpoint.js')>;
  };
}

describe('example app: OpenAPI and the typed client', () => {
  let server: http.Server;
  let base: string;

  before(async () => {
    server = http.createServer(await createApp({ token: DEFAULT_TOKEN, logger: silentLogger() }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  it('serves its OpenAPI document at /openapi.json', async () => {
    const { body } = await request(server).get('/openapi.json').expect(200).expect('content-type', /json/);
    const document = body as OpenAPIDocument;
    expect(document.info).to.deep.equal({ title: 'Example app', version: '1.0.0' });
    expect(Object.keys(document.paths)).to.include.members(['/api/users', '/api/users/{id}', '/events']);
    expect(document.paths['/api/users/{id}']).to.include.keys('get', 'put', 'patch', 'delete');
    await validate(document);
    await validate((await request(server).get('/openapi.json').expect(200)).body as OpenAPIDocument);
  });

  it('is called through the typed client', async () => {
    const api = createClient<Api>({ baseUrl: base, headers: { authorization: `Bearer ${DEFAULT_TOKEN}` } });
    const created = await api.POST('/api/users', { body: { name: ' Ada ', email: 'ada@example.com' } });
    if (created.status !== 201) expect.fail(`expected 201, got ${created.status}`);
    expect(created.data).to.include({ name: 'Ada', email: 'ada@example.com' });

    const changed = await api.PATCH('/api/users/[id]', {
      params: { id: created.data.id },
      body: { name: 'Grace' },
    });
    expect(changed.status === 200 && changed.data.name).to.equal('Grace');

    const invalid = await api.POST('/api/users', { body: { name: '', email: 'nope' } });
    expect(invalid.status).to.equal(400);
    expect((invalid.data as { issues: { path: string }[] }).issues.map((issue) => issue.path)).to.deep.equal([
      'body.name',
      'body.email',
    ]);

    const removed = await api.DELETE('/api/users/[id]', { params: { id: created.data.id } });
    expect(removed.status).to.equal(204);
  });
});
