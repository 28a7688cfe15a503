/**
 * When development mode is on, and that production pays nothing for it: no watcher, no hook,
 * the same middleware. The error page's two forms.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveDevOptions } from '../../src/dev';
import { errorPage, formatProblems } from '../../src/dev/error-page';
import { mountEndpoints } from '../../src/index';
import { get, scratchTree } from './scratch-tree';

describe('dev mode: when it is on', () => {
  let nodeEnv: string | undefined;
  beforeEach(() => {
    nodeEnv = process.env.NODE_ENV;
  });
  afterEach(() => {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  });

  it('follows dev, else NODE_ENV=development', () => {
    delete process.env.NODE_ENV;
    expect(resolveDevOptions(undefined, '/srv/app')).to.equal(undefined);
    expect(resolveDevOptions(true, '/srv/app')?.types).to.equal(
      path.resolve('/srv/node_modules/.cache/express-file-endpoints/env.d.ts'),
    );
    process.env.NODE_ENV = 'production';
    expect(resolveDevOptions(undefined, '/srv/app')).to.equal(undefined);
    process.env.NODE_ENV = 'development';
    expect(resolveDevOptions(undefined, '/srv/app')?.debounce).to.equal(30);
    expect(resolveDevOptions(false, '/srv/app')).to.equal(undefined);
    expect(resolveDevOptions({ types: false, debounce: 5 }, '/srv/app')).to.include({
      types: false,
      debounce: 5,
    });
  });

  it("writes the declaration into the project's node_modules/.cache, or beside the tree once typegen put one there", () => {
    const project = mkdtempSync(path.join(tmpdir(), 'efe-dev-types-'));
    try {
      const app = path.join(project, 'src', 'lib', 'endpoints');
      mkdirSync(app, { recursive: true });
      writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }');
      expect(resolveDevOptions(true, app)?.types).to.equal(
        path.join(project, 'node_modules/.cache/express-file-endpoints/env.d.ts'),
      );
      const beside = path.join(project, 'src', 'lib', 'express-file-endpoints-env.d.ts');
      writeFileSync(beside, '');
      expect(resolveDevOptions(true, app)?.types).to.equal(beside);
      expect(resolveDevOptions({ types: 'types/routes.d.ts' }, app)?.types).to.equal(
        path.resolve('types/routes.d.ts'),
      );
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('watches nothing without it: an edit is not served until a restart', async () => {
    delete process.env.NODE_ENV;
    const tree = scratchTree('commonjs', {
      'a/endpoint.ts': `export const GET = () => new Response('one');\n`,
    });
    try {
      const production = mountEndpoints({ dir: tree.app });
      expect((await get(production, '/a')).text).to.equal('one');
      tree.write('a/endpoint.ts', `export const GET = () => new Response('two');\n`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await get(production, '/a')).text).to.equal('one');
      expect(await production.close()).to.equal(undefined);
    } finally {
      await tree.cleanUp();
    }
  });

  it('still throws at the call on a missing folder', () => {
    delete process.env.NODE_ENV;
    expect(() => mountEndpoints({ dir: path.join(__dirname, 'no-such-folder') })).to.throw(/does not exist/);
  });
});

describe('dev mode: the error page', () => {
  const problems = [
    {
      code: 'syntax-error',
      message: 'Unexpected "<b>" & more',
      files: ['app/<x>/endpoint.ts'],
      location: 'app/<x>/endpoint.ts:2:5',
    },
  ];

  it('is HTML for browsers, every value escaped', async () => {
    const response = errorPage(
      new Request('http://localhost/', { headers: { accept: 'text/html' } }),
      problems,
    );
    expect(response.status).to.equal(500);
    expect(response.headers.get('cache-control')).to.equal('no-store');
    const html = await response.text();
    expect(html).to.include('Unexpected &#34;&#60;b&#62;&#34; &#38; more');
    expect(html).to.include('app/&#60;x&#62;/endpoint.ts:2:5');
    expect(html).not.to.match(/<b>|<x>/);
  });

  it('is JSON for API clients, and plain text for the console', async () => {
    const response = errorPage(new Request('http://localhost/'), problems);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    expect(((await response.json()) as { problems: unknown[] }).problems).to.deep.equal(problems);
    expect(formatProblems(problems)).to.include('syntax-error: app/<x>/endpoint.ts:2:5');
  });
});
