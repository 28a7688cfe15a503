/**
 * `mergeOpenAPI`: an app that builds its OpenAPI document from its own routes (a controller class that
 * registers each route's schema, express-openapi, swagger-jsdoc) keeps the operations it moved into
 * the tree in that document: the merged one has every path of both, the tree's under its mount path,
 * and a real validator accepts it. Both defining one operation or component is an error, not a silent win.
 */
import path from 'node:path';
import { expect } from 'chai';
import { mergeOpenAPI, mountEndpoints, type OpenAPIDocument } from '../../src';
import { validate } from '../support/openapi-validator';

const DIR = path.join(__dirname, '../fixtures/openapi-app/app');

/** The document such an app builds from the routes still in Express. */
function appDocument(): OpenAPIDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'Legacy app', version: '4.2.0' },
    paths: {
      '/hosted/api/admin/users': {
        get: {
          operationId: 'listAdminUsers',
          tags: ['admin'],
          responses: {
            '200': {
              description: 'The users',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/AdminUser' } } },
            },
          },
        },
      },
    },
    components: { schemas: { AdminUser: { type: 'object', properties: { id: { type: 'string' } } } } },
    tags: [{ name: 'admin' }],
  } as OpenAPIDocument;
}

describe('mergeOpenAPI', () => {
  let tree: OpenAPIDocument;
  before(async () => {
    const endpoints = mountEndpoints({ dir: DIR });
    await endpoints.ready;
    tree = await endpoints.openapi({ onWarning: () => {} });
    await endpoints.close();
  });

  it("holds every path of both documents, the tree's under the mount path, and validates", async () => {
    const app = appDocument();
    const merged = mergeOpenAPI(app, tree, { mountPath: '/hosted/' });
    const treePaths = Object.keys(tree.paths);
    expect(treePaths.length).to.be.above(1);
    expect(Object.keys(merged.paths)).to.have.members([
      ...Object.keys(app.paths),
      ...treePaths.map((p) => `/hosted${p}`),
    ]);
    expect(merged.info).to.deep.equal(app.info);
    for (const name of Object.keys(tree.components?.schemas ?? {})) {
      expect(merged.components?.schemas).to.have.property(name);
    }
    expect(merged.components?.schemas).to.have.property('AdminUser');
    await validate(merged);
    expect(Object.keys(app.paths), 'the app document is not changed').to.deep.equal([
      '/hosted/api/admin/users',
    ]);
  });

  it('refuses an operation both documents define, naming it', () => {
    const [first] = Object.keys(tree.paths);
    const operations = tree.paths[first!]!;
    const method = Object.keys(operations)[0]!;
    const app = appDocument();
    app.paths[`/hosted${first}`] = { [method]: { responses: { '200': { description: 'old' } } } };
    expect(() => mergeOpenAPI(app, tree, { mountPath: '/hosted' })).to.throw(
      new RegExp(`both documents define ${method} /hosted${first!.replace(/[[\]{}]/g, '\\$&')}`),
    );
  });

  it('refuses two different schemas under one name; the same one twice is fine', () => {
    const named = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} } as OpenAPIDocument;
    const same = mergeOpenAPI(
      { ...named, components: { schemas: { User: { type: 'object' } } } },
      { ...named, components: { schemas: { User: { type: 'object' } } } },
    );
    expect(same.components?.schemas).to.deep.equal({ User: { type: 'object' } });
    expect(() =>
      mergeOpenAPI(
        { ...named, components: { schemas: { User: { type: 'object' } } } },
        { ...named, components: { schemas: { User: { type: 'string' } } } },
      ),
    ).to.throw(/components\.schemas\.User/);
  });
});
