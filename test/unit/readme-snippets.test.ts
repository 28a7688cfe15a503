/**
 * Every JavaScript, TypeScript and JSON block of the README parses, so none can rot into code that does not:
 * a block that uses `require()` is parsed as CommonJS, where a top-level `await` is a syntax error (as it is for
 * Node). The adoption snippets also run, in scratch apps installed from the tarball: test/package/readme.test.ts.
 */
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { commandsOf, readmeSnippets, snippet } from '../support/readme-snippets';

const PACKAGE_NAME = (require('../../package.json') as { name: string }).name;

const { parse } = createRequire(__filename)('@babel/parser') as {
  parse(code: string, options: Record<string, unknown>): unknown;
};

describe('README code blocks', () => {
  const blocks = readmeSnippets().filter((s) => ['ts', 'js', 'json'].includes(s.lang));

  it('there are some, and the adoption section names its snippets', () => {
    expect(blocks.length).to.be.greaterThan(20);
    const names = readmeSnippets().map((s) => s.name);
    for (const name of [
      'install',
      'endpoint-ts',
      'endpoint-cjs',
      'server-cjs',
      'server-esm',
      'test-ts',
      'test-cjs',
    ])
      expect(names).to.include(name);
  });

  it('installs, imports and runs the package by the name it is published under', () => {
    // The npm name express-endpoints belongs to another package: a README that drifts from
    // package.json's name would install someone else's code.
    expect(commandsOf(snippet('install').code)[0]).to.deep.equal(['npm', 'install', PACKAGE_NAME]);
    const ours = /(?:from |require\()'((?:@[\w-]+\/)?[\w-]*endpoints[\w-]*)(\/[\w-]+)?'/g;
    for (const block of blocks) {
      for (const [, name] of block.code.matchAll(ours))
        expect(name, `line ${block.line}`).to.equal(PACKAGE_NAME);
    }
    for (const block of readmeSnippets().filter((s) => s.lang === 'sh')) {
      for (const [, name] of block.code.matchAll(/npx ([\w-]*endpoints[\w-]*)/g)) {
        expect(name, `line ${block.line}`).to.equal(PACKAGE_NAME);
      }
    }
  });

  for (const block of blocks) {
    it(`line ${block.line} (${block.lang}${block.name ? `, ${block.name}` : ''}) parses`, () => {
      if (block.lang === 'json') return void JSON.parse(block.code);
      const commonjs = /\brequire\(/.test(block.code);
      expect(() =>
        parse(block.code, {
          sourceType: commonjs ? 'script' : 'module',
          plugins: block.lang === 'ts' ? ['typescript'] : [],
        }),
      ).not.to.throw();
    });
  }
});
