/**
 * Typed routes at run time: `url()` builds what the router matches back, the declaration text
 * for a tree (and the committed test/types/route-registry.d.ts is what typegen writes). The
 * `typegen` command, run as a child process, is in test/unit/cli.test.ts.
 */
import { readFileSync } from 'node:fs';
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
  it('declares every route pattern with its params', () => {
    const text = routeDeclarations(discoverTree(fixture));
    expect(text).to.include("declare module 'express-file-endpoints' {");
    expect(text).to.include("'/api/users': Record<string, never>;");
    expect(text).to.include("'/api/users/[id]': { id: string };");
    expect(text).to.include("'/docs/[[...path]]': { path?: string[] };");
    expect(text).to.include("'/files/[...parts]': { parts: string[] };");
  });

  it('wrote test/types/route-registry.d.ts (regenerate it when the fixture changes)', () => {
    const cwd = process.cwd();
    process.chdir(path.join(__dirname, '../..'));
    try {
      // The committed file augments this repository's source, where a user's augments the package.
      const expected = routeDeclarations(discoverTree('test/fixtures/typed-routes/app')).replaceAll(
        "'express-file-endpoints'",
        "'../../src/index'",
      );
      expect(readFileSync(path.join(__dirname, '../types/route-registry.d.ts'), 'utf8')).to.equal(expected);
    } finally {
      process.chdir(cwd);
    }
  });
});
