/**
 * Every JavaScript, TypeScript and JSON block of the documentation (the README, docs/, SECURITY.md,
 * CONTRIBUTING.md, the example app's README) parses, so none can rot into code that does not: a block that uses
 * `require()` and has no `import` or `export` statement is parsed as CommonJS, where a top-level `await` is a
 * syntax error (as it is for Node). The adoption snippets also run, in scratch apps installed from the tarball:
 * test/package/readme.test.ts; docs/testing.md's test runner snippets in test/integration/test-runners.test.ts.
 */
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { commandsOf, docSnippets, readmeSnippets, snippet } from '../support/readme-snippets';

const PACKAGE_NAME = (require('../../package.json') as { name: string }).name;

const { parse } = createRequire(__filename)('@babel/parser') as {
  parse(code: string, options: Record<string, unknown>): unknown;
};

describe('documentation code blocks', () => {
  const blocks = docSnippets().filter((s) => ['ts', 'js', 'json'].includes(s.lang));

  it('there are some, and the README names its adoption snippets', () => {
    expect(blocks.length).to.be.greaterThan(30);
    const names = readmeSnippets().map((s) => s.name);
    for (const name of [
      'install',
      'endpoint-ts',
      'endpoint-cjs',
      'server-cjs',
      'server-esm',
      'test-ts',
      'test-cjs',
      'test-commands',
      'check',
    ])
      expect(names).to.include(name);
  });

  it('installs, imports and runs the package by the name it is published under', () => {
    // The npm name express-endpoints belongs to another package: documentation that drifts from
    // package.json's name would install someone else's code.
    expect(commandsOf(snippet('install').code)[0]).to.deep.equal(['npm', 'install', PACKAGE_NAME]);
    const ours = /(?:from |require\()'((?:@[\w-]+\/)?[\w-]*endpoints[\w-]*)(\/[\w-]+)?'/g;
    for (const block of blocks) {
      for (const [, name] of block.code.matchAll(ours))
        expect(name, `${block.file}:${block.line}`).to.equal(PACKAGE_NAME);
    }
    for (const block of docSnippets().filter((s) => s.lang === 'sh' || s.lang === 'text')) {
      for (const [, name] of block.code.matchAll(/npx ([\w-]*endpoints[\w-]*)/g)) {
        expect(name, `${block.file}:${block.line}`).to.equal(PACKAGE_NAME);
      }
    }
  });

  for (const block of blocks) {
    const title = `${block.file}:${block.line} (${block.lang}${block.name ? `, ${block.name}` : ''}) parses`;
    it(title, () => {
      if (block.lang === 'json') return void JSON.parse(block.code);
      // An ES module may call a `require` of its own making (createRequire): its import statements decide.
      const commonjs = /\brequire\(/.test(block.code) && !/^(?:import|export)\s/m.test(block.code);
      expect(() =>
        parse(block.code, {
          sourceType: commonjs ? 'script' : 'module',
          plugins: block.lang === 'ts' ? ['typescript'] : [],
        }),
      ).not.to.throw();
    });
  }
});
