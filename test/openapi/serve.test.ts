/**
 * The `openapi` mount option: the document served as JSON below the mount, by Express and by
 * `.fetch`, with `servers` saying where the tree is mounted; every other request reaches the tree as before.
 */
import { expect } from 'chai';
import express from 'express';
import path from 'node:path';
import request from 'supertest';
import { mountEndpoints, type OpenAPIDocument } from '../../src';
import { validate } from '../support/openapi-validator';

const DIR = path.join(__dirname, '../fixtures/openapi-app/app');
const quiet = { onWarning: () => {} };

describe('the openapi mount option', () => {
  it('serves the document below a sub-path mount, its servers the mount path', async () => {
    const app = express();
    app.use('/v1', mountEndpoints({ dir: DIR, openapi: { path: '/openapi.json', ...quiet } }));
    const response = await request(app).get('/v1/openapi.json').expect(200);
    expect(response.headers['content-type']).to.equal('application/json; charset=utf-8');
    const document = response.body as OpenAPIDocument;
    expect(document.servers).to.deep.equal([{ url: '/v1' }]);
    expect(document.paths).to.have.property('/api/users/{id}');
    await validate(document);
    // The tree is served as before, and the document is found where its servers say.
    await request(app).get('/v1/api/users/1').expect(200, { id: '1', name: 'Ada', email: 'ada@example.com' });
    await request(app).head('/v1/openapi.json').expect(200);
    await request(app).get('/v1/openapi.json?download=1').expect(200);
    await request(app).get('/openapi.json').expect(404);
  });

  it('makes the document once per tree: a mount path the client spells changes only servers', async () => {
    const warnings: string[] = [];
    const app = express();
    const onWarning = (warning: string) => void warnings.push(warning);
    app.use('/:tenant', mountEndpoints({ dir: DIR, openapi: { path: '/openapi.json', onWarning } }));
    for (let i = 0; i < 20; i++) {
      const response = await request(app).get(`/tenant-${i}/openapi.json`).expect(200);
      expect((response.body as OpenAPIDocument).servers).to.deep.equal([{ url: `/tenant-${i}` }]);
    }
    expect(warnings.length).to.be.greaterThan(0);
    expect(new Set(warnings).size).to.equal(warnings.length); // each told once, not once per request
  });

  it('takes info, version and servers from the option', async () => {
    const app = express();
    await mountEndpoints(app, {
      dir: DIR,
      openapi: {
        path: '/docs/openapi.json',
        version: '3.2',
        info: { title: 'Users', version: '2.0.0' },
        servers: [{ url: 'https://api.example.com' }],
        ...quiet,
      },
    });
    const { body } = await request(app).get('/docs/openapi.json').expect(200);
    expect(body).to.include({ openapi: '3.2.0' });
    expect(body.info).to.deep.equal({ title: 'Users', version: '2.0.0' });
    expect(body.servers).to.deep.equal([{ url: 'https://api.example.com' }]);
  });

  it('is served by .fetch too; other methods and paths reach the tree', async () => {
    const endpoints = mountEndpoints({ dir: DIR, openapi: { path: '/openapi.json', ...quiet } });
    const response = await endpoints.fetch(new Request('http://localhost/openapi.json'));
    expect(response.status).to.equal(200);
    const document = (await response.json()) as OpenAPIDocument;
    expect(document).to.not.have.property('servers');
    // The document is a route of the tree's table: another method is told what it serves.
    const posted = await endpoints.fetch(new Request('http://localhost/openapi.json', { method: 'POST' }));
    expect(posted.status).to.equal(405);
    expect(posted.headers.get('allow')).to.equal('GET, HEAD, OPTIONS');
    expect((await endpoints.fetch(new Request('http://localhost/plain'))).status).to.equal(200);
  });

  it('rejects a path that does not start with a slash, at the call', () => {
    expect(() => mountEndpoints({ dir: DIR, openapi: { path: 'openapi.json' } })).to.throw(
      TypeError,
      'openapi.path must be a path that starts with "/", not "openapi.json"',
    );
  });
});
