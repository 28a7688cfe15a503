/**
 * In development mode the document follows the tree: `.openapi()` and the served document
 * describe the code as last reloaded, and the typed-routes file holds each route's methods.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { scratchTree, until, type ScratchTree } from '../dev/scratch-tree';

describe('OpenAPI in development mode', () => {
  let tree: ScratchTree;
  afterEach(() => tree.cleanUp());

  it('describes the tree as last reloaded', async () => {
    tree = scratchTree('commonjs', {
      'users/endpoint.ts': 'export function GET() { return Response.json([]); }\n',
    });
    const endpoints = tree.mount();
    await endpoints.ready;
    expect(Object.keys((await endpoints.openapi()).paths['/users'] ?? {})).to.deep.equal(['get']);

    tree.write(
      'users/endpoint.ts',
      'export function GET() { return Response.json([]); }\nexport function POST() { return new Response(null, { status: 201 }); }\n',
    );
    await until(async () => tree.reloads.length >= 2);
    expect(Object.keys((await endpoints.openapi()).paths['/users'] ?? {})).to.deep.equal(['get', 'post']);

    const types = readFileSync(path.join(tree.root, 'express-file-endpoints-env.d.ts'), 'utf8');
    expect(types).to.include(
      "'/users': { params: Record<string, never>; methods: EndpointMethods<typeof import('./app/users/endpoint.js')> };",
    );
  });
});
