import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isCommonJsFile, isStrictlyCommonJsFile } from '../../src/load/module-format';

describe('isCommonJsFile (which loader a file needs)', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'ee-format-'));
    mkdirSync(path.join(root, 'esm', 'deep', 'er'), { recursive: true });
    mkdirSync(path.join(root, 'esm', 'cjs-inside'), { recursive: true });
    mkdirSync(path.join(root, 'broken'), { recursive: true });
    writeFileSync(path.join(root, 'package.json'), '{}');
    writeFileSync(path.join(root, 'esm', 'package.json'), '{ "type": "module" }');
    writeFileSync(path.join(root, 'esm', 'cjs-inside', 'package.json'), '{ "type": "commonjs" }');
    writeFileSync(path.join(root, 'broken', 'package.json'), '{ not json');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const cases: Array<[string, boolean]> = [
    ['endpoint.ts', true],
    ['endpoint.js', true],
    ['endpoint.mts', false],
    ['endpoint.cts', true],
    ['esm/endpoint.ts', false],
    ['esm/deep/er/endpoint.ts', false],
    ['esm/endpoint.cts', true],
    ['esm/endpoint.cjs', true],
    ['esm/cjs-inside/endpoint.ts', true],
    ['broken/endpoint.ts', true],
  ];
  for (const [file, commonJs] of cases) {
    it(`${file} is ${commonJs ? 'CommonJS' : 'an ES module'}`, () => {
      expect(isCommonJsFile(path.join(root, file))).to.equal(commonJs);
    });
  }

  // Node reads `export` in a .js file as an ES module unless "type" says "commonjs".
  const strict: Array<[string, boolean]> = [
    ['endpoint.js', false],
    ['endpoint.cjs', true],
    ['esm/cjs-inside/endpoint.js', true],
    ['esm/cjs-inside/endpoint.ts', false],
    ['esm/endpoint.js', false],
    ['broken/endpoint.js', false],
  ];
  for (const [file, commonJs] of strict) {
    it(`${file} is ${commonJs ? '' : 'not '}CommonJS whatever it contains`, () => {
      expect(isStrictlyCommonJsFile(path.join(root, file))).to.equal(commonJs);
    });
  }
});
