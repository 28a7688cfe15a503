/** Which routes accept WebSockets, as `.routes`, the routes command, typegen and validation tell it. */
import path from 'node:path';
import { expect } from 'chai';
import { mountEndpoints } from '../../src';
import { discoverTree } from '../../src/discover';
import { routeDeclarations } from '../../src/typed-routes';
import { validateTree } from '../../src/validate';
import { scratchTree } from '../dev/scratch-tree';

const dir = path.join(__dirname, '../fixtures/socket-app');

describe('WebSocket routes in the route table', () => {
  it('.routes marks the endpoints that export websocket, before and after loading', async () => {
    const endpoints = mountEndpoints({ dir });
    const marks = () => Object.fromEntries(endpoints.routes.map((route) => [route.pattern, route.websocket]));
    const expected = {
      '/crash': true,
      '/echo': true,
      '/flood': true,
      '/guarded': true,
      '/plain': false,
      '/refuse': true,
      '/rewrapped': true,
      '/rooms/[room]': true,
      '/token': true,
    };
    expect(marks()).to.deep.equal(expected);
    await endpoints.ready;
    expect(marks()).to.deep.equal(expected);
  });

  it('the OpenAPI document marks their paths with x-websocket, a WebSocket-only route included', async () => {
    const endpoints = mountEndpoints({ dir });
    const { paths } = await endpoints.openapi();
    expect(paths['/echo']).to.include({ 'x-websocket': true });
    expect(paths['/echo']).to.have.property('get');
    expect(paths['/refuse']).to.deep.equal({ 'x-websocket': true });
    expect(paths['/plain']).not.to.have.property('x-websocket');
  });

  it('a file that exports only websocket is a valid endpoint', () => {
    expect(validateTree(discoverTree(dir))).to.deep.equal([]);
  });

  it('typegen lists them in WebSocketRouteRegistry, and writes none for a tree without', () => {
    const text = routeDeclarations(discoverTree(dir), path.join(dir, '../routes.d.ts'));
    expect(text).to.include(
      "  interface WebSocketRouteRegistry {\n    '/crash': true;\n    '/echo': true;\n    '/flood': true;\n    '/guarded': true;\n    '/refuse': true;\n    '/rewrapped': true;\n    '/rooms/[room]': true;\n    '/token': true;\n  }\n",
    );
    const app = path.join(__dirname, '../fixtures/app');
    const without = routeDeclarations(discoverTree(app), path.join(app, '../routes.d.ts'));
    expect(without).not.to.include('WebSocketRouteRegistry');
  });

  for (const [source, message] of [
    [
      'exports.websocket = { onMessage() {} };',
      'app/endpoint.js: websocket.onMessage is not a WebSocket hook; the hooks are upgrade, open, message, close, error, drain.',
    ],
    [
      'exports.websocket = 42;',
      'app/endpoint.js: the websocket export is not an object of hooks; write `export const',
    ],
  ] as const) {
    it(`a malformed websocket export fails loading with a clear message: ${source}`, async () => {
      const tree = scratchTree('commonjs', { 'endpoint.js': source });
      try {
        const endpoints = mountEndpoints({ dir: tree.app, onError: () => {} });
        const error = await endpoints.ready.then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        expect(error?.message).to.include(message.slice('app/endpoint.js: '.length));
        expect(error?.message).to.match(/app\/endpoint\.js: /);
      } finally {
        await tree.cleanUp();
      }
    });
  }
});
