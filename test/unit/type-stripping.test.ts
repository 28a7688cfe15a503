/**
 * When the loader tries Node's own type stripping first (only where it is on and prints no warning), and which
 * load failures send a file to tsx. How the two answer alike is test/integration/type-stripping.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { needsMoreThanStripping, nodeStripsTypes } from '../../src/load/type-stripping';
import { tsconfigAllowsStripping } from '../../src/load/tsx-tsconfig';

const stripping = (process.features as { typescript?: unknown }).typescript === 'strip';

describe('Node type stripping: when the loader uses it', () => {
  it('only on versions that strip without an ExperimentalWarning and load a failed file afresh', function () {
    if (!stripping) this.skip();
    const strippingFirst = ['24.21.0', '24.22.1', '25.0.0', '26.10.0'];
    // Off by default, noisy, or (Node 22) keeping a module whose imports failed to link failed.
    const tsxOnly = ['20.19.0', '22.17.1', '22.23.3', '23.11.1', '24.2.0', '24.20.0'];
    expect(strippingFirst.filter((version) => !nodeStripsTypes(version))).to.deep.equal([]);
    expect(tsxOnly.filter((version) => nodeStripsTypes(version))).to.deep.equal([]);
  });

  it('sends a file to tsx on what stripping cannot do, and on no other failure', () => {
    const coded = (code: string) => Object.assign(new Error(code), { code });
    for (const error of [
      coded('ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX'),
      coded('ERR_MODULE_NOT_FOUND'),
      coded('ERR_UNSUPPORTED_DIR_IMPORT'),
      coded('ERR_IMPORT_ATTRIBUTE_MISSING'),
      coded('ERR_UNKNOWN_FILE_EXTENSION'),
      new SyntaxError("The requested module './user.ts' does not provide an export named 'User'"),
      new SyntaxError('Invalid or unexpected token'),
    ]) {
      expect(needsMoreThanStripping(error), String(error)).to.equal(true);
    }
    for (const error of [
      new TypeError('x is not a function'),
      coded('ECONNREFUSED'),
      'thrown string',
      null,
    ]) {
      expect(needsMoreThanStripping(error), String(error)).to.equal(false);
    }
  });
});

describe('Node type stripping: the tsconfig tsx compiles with must give stripped files the same meaning', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ee-tsconfig-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  };
  const allows = (config?: string, cwd = dir) => {
    if (config !== undefined) write('tsconfig.json', config);
    return tsconfigAllowsStripping(cwd, {});
  };

  it('no tsconfig, or one whose class fields are defined as stripping defines them', () => {
    expect(allows()).to.equal(true);
    expect(allows('{ "compilerOptions": { "strict": true } }')).to.equal(true);
    expect(allows('{ "compilerOptions": { "target": "ES2022" } }')).to.equal(true);
    expect(allows('{ "compilerOptions": { "target": "esnext" } }')).to.equal(true);
    expect(allows('{ "compilerOptions": { "target": "ES2017", "useDefineForClassFields": true } }')).to.equal(
      true,
    );
  });

  it('not where tsx would leave class fields out, or map imports through paths', () => {
    expect(allows('{ "compilerOptions": { "target": "ES2020" } }')).to.equal(false);
    expect(allows('{ "compilerOptions": { "target": "es6" } }')).to.equal(false);
    expect(allows('{ "compilerOptions": { "useDefineForClassFields": false } }')).to.equal(false);
    expect(allows('{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }')).to.equal(false);
    expect(allows('{ "compilerOptions": { "baseUrl": "." } }')).to.equal(false);
  });

  it('reads comments, trailing commas and what the config extends, file or package', () => {
    write('base.json', '{ "compilerOptions": { "target": "ES2019" } }');
    expect(allows('{\n  // an older target, inherited\n  "extends": "./base",\n}')).to.equal(false);
    expect(
      allows('{ "extends": "./base.json", "compilerOptions": { "target": "ES2023", /* newer */ } }'),
    ).to.equal(true);
    write(
      'node_modules/@scope/config/tsconfig.json',
      '{ "compilerOptions": { "useDefineForClassFields": false } }',
    );
    expect(
      allows('{ "extends": ["./base.json", "@scope/config"], "compilerOptions": { "target": "ES2022" } }'),
    ).to.equal(false);
    expect(allows('{ "compilerOptions": { "target": "ES2022", "outDir": "a//b/*c*/" } }')).to.equal(true);
  });

  it('is found from the working directory up, or named by TSX_TSCONFIG_PATH; unreadable counts as disagreeing', () => {
    write('tsconfig.json', '{ "compilerOptions": { "target": "ES2020" } }');
    write('app/src/x.ts', '');
    expect(tsconfigAllowsStripping(path.join(dir, 'app/src'), {})).to.equal(false);
    write('other.json', '{}');
    expect(tsconfigAllowsStripping(dir, { TSX_TSCONFIG_PATH: 'other.json' })).to.equal(true);
    expect(allows('{ "extends": "./missing.json" }')).to.equal(false);
    expect(allows('{ not json')).to.equal(false);
  });
});
