/**
 * Typed routes at run time: `url()` builds what the router matches back, the declaration text
 * for a tree (and the committed test/types/route-registry.d.ts is what typegen writes). The
 * `typegen` command, run as a child process, is in test/unit/cli.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { routeDeclarations } from '../../src/typed-routes';
import { discoverTree } from '../../src/discover';
import { mountEndpoints, url } from '../../src/index';

const fixture = path.join(__dirname, '../fixtures/typed-routes/app');

describe('url()', () => {
  it('fills in params, one encoded segment each', () => {
    expect(url('/api/users')).to.equal('/api/users');
    expect(url('/api/users/[id]', { id: 'a/b c' })).to.equal('/api/users/a%2Fb%20c');
    expect(url('/docs/[[...path]]')).to.equal('/docs');
    expect(url('/docs/[[...path]]', { path: ['a', 'b?'] })).to.equal('/docs/a/b%3F');
    expect(url('/files/[...parts]', { parts: ['x'] })).to.equal('/files/x');
  });

  it('writes static folders in the encoding the router matches, and refuses . and .. params', () => {
    // Patterns outside the fixture's registry: called untyped.
    const anyUrl = url as unknown as (pattern: string, params?: Record<string, unknown>) => string;
    expect(anyUrl('/café/a b')).to.equal('/caf%C3%A9/a%20b');
    expect(() => anyUrl('/files/[name]', { name: '..' })).to.throw(
      TypeError,
      /params\.name .* cannot be "\.\."/,
    );
    expect(() => anyUrl('/files/[...parts]', { parts: ['a', '.'] })).to.throw(TypeError, /cannot be "\."/);
    expect(anyUrl('/files/[name]', { name: '...' })).to.equal('/files/...');
    expect(() => anyUrl('/files/[...parts]', { parts: ['', 'evil.example'] })).to.throw(
      TypeError,
      /empty segment/,
    );
  });

  it('throws on a missing param rather than building a wrong URL', () => {
    expect(() => url('/api/users/[id]', {} as { id: string })).to.throw(TypeError, /params\.id/);
    expect(() => url('/files/[...parts]', { parts: [] })).to.throw(TypeError, /params\.parts/);
  });

  it('builds URLs that the route table matches back to the same params', async () => {
    const endpoints = mountEndpoints({ dir: fixture, dev: false });
    const echo = await endpoints.fetch(
      new Request(`http://localhost${url('/api/users/[id]', { id: 'a/b' })}`),
    );
    expect(await echo.text()).to.equal('user');
  });
});

describe('typegen', () => {
  it('declares every route pattern with its params and its methods', () => {
    const text = routeDeclarations(discoverTree(fixture), path.join(fixture, '../routes.d.ts'));
    expect(text).to.include("declare module 'express-file-endpoints' {");
    expect(text).to.include(
      "'/api/users': { params: Record<string, never>; methods: EndpointMethods<typeof import('./app/api/users/endpoint.js')> };",
    );
    expect(text).to.include("'/api/users/[id]': { params: { id: string }; methods: EndpointMethods<");
    expect(text).to.include("'/docs/[[...path]]': { params: { path?: string[] }; methods: EndpointMethods<");
    expect(text).to.include(
      "'/files/[...parts]': { params: { parts: string[] }; methods: EndpointMethods<typeof import('./app/(admin)/files/[...parts]/endpoint.js')>; locals: LocalsOf<typeof import('./app/(admin)/middleware.js')> };",
    );
  });

  it("types a route's locals from each TypeScript middleware above it, outermost first; JavaScript ones say nothing", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ee-typegen-'));
    try {
      const files: Record<string, string> = {
        'app/middleware.ts': 'export default (r: Request, next: () => Promise<Response>) => next();\n',
        'app/(auth)/middleware.ts': 'export default (r: Request, next: () => Promise<Response>) => next();\n',
        'app/(auth)/me/endpoint.ts': 'export function GET() { return new Response(); }\n',
        'app/js/middleware.js': 'export default (r, next) => next();\n',
        'app/js/endpoint.js': 'export function GET() {}\n',
      };
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      }
      const text = routeDeclarations(discoverTree(path.join(dir, 'app')), path.join(dir, 'routes.d.ts'));
      expect(text).to.include("import type { EndpointMethods, LocalsOf } from 'express-file-endpoints';");
      expect(text).to.include(
        "locals: LocalsOf<typeof import('./app/middleware.js')> & LocalsOf<typeof import('./app/(auth)/middleware.js')> };",
      );
      expect(text).to.include(
        "'/js': { params: Record<string, never>; methods: { GET: unknown }; locals: LocalsOf<typeof import('./app/middleware.js')> };",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists a JavaScript endpoint’s methods from its exports, untyped, and imports .mts as .mjs', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ee-typegen-'));
    try {
      const files: Record<string, string> = {
        'app/js/endpoint.js': 'export function GET() {}\nexport const DELETE = () => {};\n',
        'app/any/endpoint.js': 'export function ANY() {}\n',
        'app/esm/endpoint.mts': 'export function GET() { return new Response(); }\n',
      };
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      }
      const text = routeDeclarations(
        discoverTree(path.join(dir, 'app')),
        path.join(dir, 'types/routes.d.ts'),
      );
      expect(text).to.include(
        "'/js': { params: Record<string, never>; methods: { GET: unknown; DELETE: unknown } };",
      );
      expect(text).to.include(
        "'/any': { params: Record<string, never>; methods: { GET: unknown; POST: unknown; PUT: unknown; PATCH: unknown; DELETE: unknown } };",
      );
      expect(text).to.include("methods: EndpointMethods<typeof import('../app/esm/endpoint.mjs')> };");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('wrote test/types/route-registry.d.ts (regenerate it when the fixture changes)', () => {
    const cwd = process.cwd();
    process.chdir(path.join(__dirname, '../..'));
    try {
      // The committed file augments this repository's source, where a user's augments the package.
      const expected = routeDeclarations(
        discoverTree('test/fixtures/typed-routes/app'),
        path.resolve('test/types/route-registry.d.ts'),
      ).replaceAll("'express-file-endpoints'", "'../../src/index'");
      expect(readFileSync(path.join(__dirname, '../types/route-registry.d.ts'), 'utf8')).to.equal(expected);
    } finally {
      process.chdir(cwd);
    }
  });
});
