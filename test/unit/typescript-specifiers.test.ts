/**
 * The one rule for `.js` specifiers that name `.ts` files under Node's type stripping (src/load/typescript-specifiers.ts),
 * as the resolve hook, the stripped-links reading and `check` use it; and the one answer to "which package manager",
 * which every message that says to install something uses. The hook itself, in Node: test/integration/nodenext-app.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { installDevCommand, packageManagerOf } from '../../src/load/package-manager';
import { resolveImport } from '../../src/load/resolve-import';
import { linksWhenStripped } from '../../src/load/stripped-links';
import { strippedImportTarget, typeScriptSpecifierFor } from '../../src/load/typescript-specifiers';

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ee-specifiers-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('`.js` specifiers that name `.ts` files, under Node type stripping', () => {
  let dir: string;
  before(() => {
    dir = tree({
      'package.json': '{ "type": "module" }',
      'lib/x.ts': 'export const x = 1;\n',
      'lib/y.ts': 'export const y = 1;\n',
      'lib/y.js': 'export const y = 2;\n',
      'lib/z.mts': 'export const z = 1;\n',
      'lib/c.cts': 'module.exports = {};\n',
      'lib/[id]/w.ts': 'export const w = 1;\n',
      'node_modules/pkg/inner.ts': 'export const inner = 1;\n',
      'node_modules/pkg/from.ts': '',
      'main.ts': '',
      'main.js': '',
    });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const isFile = (url: URL) => statSync(url, { throwIfNoEntry: false })?.isFile() ?? false;
  const from = (file: string) => pathToFileURL(path.join(dir, file)).href;

  it('maps a missing .js, .mjs or .cjs to the .ts, .mts or .cts beside it, keeping the specifier as written', () => {
    expect(typeScriptSpecifierFor('./lib/x.js', from('main.ts'), isFile)).to.equal('./lib/x.ts');
    expect(typeScriptSpecifierFor('./lib/z.mjs', from('main.ts'), isFile)).to.equal('./lib/z.mts');
    expect(typeScriptSpecifierFor('./lib/c.cjs', from('main.ts'), isFile)).to.equal('./lib/c.cts');
    expect(typeScriptSpecifierFor('../x.js', from('lib/[id]/w.ts'), isFile)).to.equal('../x.ts');
    expect(typeScriptSpecifierFor('./lib/x.js?v=1#h', from('main.ts'), isFile)).to.equal('./lib/x.ts?v=1#h');
    const absolute = path.join(dir, 'lib/x.js');
    expect(typeScriptSpecifierFor(absolute, from('main.ts'), isFile)).to.equal(absolute.replace(/js$/, 'ts'));
    const url = pathToFileURL(absolute).href;
    expect(typeScriptSpecifierFor(url, from('main.mts'), isFile)).to.equal(url.replace(/js$/, 'ts'));
  });

  it('leaves every other import alone', () => {
    const unmapped = [
      ['./lib/y.js', 'main.ts'], // y.js is there
      ['./lib/missing.js', 'main.ts'], // nothing is
      ['./lib/x.js', 'main.js'], // from JavaScript
      ['./node_modules/pkg/inner.js', 'main.ts'], // into node_modules
      ['./inner.js', 'node_modules/pkg/from.ts'], // from node_modules
      ['pkg/inner.js', 'main.ts'], // a package
      ['./lib/x', 'main.ts'], // extensionless: tsx's
      ['./lib/x.json', 'main.ts'],
    ];
    for (const [specifier, parent] of unmapped) {
      expect(
        typeScriptSpecifierFor(specifier!, from(parent!), isFile),
        `${specifier} from ${parent}`,
      ).to.equal(undefined);
    }
    expect(typeScriptSpecifierFor('./lib/x.js', undefined, isFile)).to.equal(undefined);
    expect(typeScriptSpecifierFor('./lib/x.js', 'data:text/javascript,', isFile)).to.equal(undefined);
  });

  it('stripped links and check read the same rule', () => {
    const main = path.join(dir, 'main.ts');
    expect(strippedImportTarget(main, './lib/x.js')).to.equal(path.join(dir, 'lib/x.ts'));
    expect(strippedImportTarget(main, './lib/y.js')).to.equal(path.join(dir, 'lib/y.js'));
    expect(strippedImportTarget(main, './lib/missing.js')).to.equal(undefined);
    expect(resolveImport(main, './lib/x.js', 'import', 'strip')).to.deep.equal({
      file: path.join(dir, 'lib/x.ts'),
    });
    expect(resolveImport(main, './lib/missing.js', 'import', 'strip')).to.deep.equal({
      reason: 'no such file',
    });
    expect(resolveImport(main, './lib/x.js', 'import', 'node')).to.deep.equal({ reason: 'no such file' });
    writeFileSync(
      path.join(dir, 'endpoint.ts'),
      "import { x } from './lib/x.js';\nexport const GET = () => x;\n",
    );
    expect(linksWhenStripped(path.join(dir, 'endpoint.ts'))).to.equal(true);
  });
});

describe('the package manager an app is installed with, for the messages', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const app = (files: Record<string, string>) => {
    const dir = tree({ ...files, 'src/endpoints/health/endpoint.ts': '' });
    dirs.push(dir);
    return path.join(dir, 'src/endpoints/health');
  };

  it('pnpm by its lockfile or packageManager, yarn the same, npm otherwise', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ 'package.json': '{}', 'pnpm-lock.yaml': '' }, 'pnpm add -D tsx'],
      [{ 'package.json': '{ "packageManager": "pnpm@9.15.9" }' }, 'pnpm add -D tsx'],
      [{ 'package.json': '{}', 'yarn.lock': '' }, 'yarn add -D tsx'],
      [{ 'package.json': '{ "packageManager": "yarn@4.9.1+sha512.abc" }' }, 'yarn add -D tsx'],
      [{ 'package.json': '{}', 'package-lock.json': '{}' }, 'npm install -D tsx'],
      [{ 'package.json': '{}' }, 'npm install -D tsx'],
      // The field says what the lockfile left behind does not.
      [
        { 'package.json': '{ "packageManager": "pnpm@9.15.9" }', 'package-lock.json': '{}' },
        'pnpm add -D tsx',
      ],
      // A workspace package: its workspace root, above it, says.
      [
        { 'pnpm-lock.yaml': '', 'package.json': '{}', 'src/package.json': '{ "type": "module" }' },
        'pnpm add -D tsx',
      ],
    ];
    for (const [files, command] of cases) {
      expect(installDevCommand(app(files), 'tsx'), JSON.stringify(files)).to.equal(command);
    }
    expect(packageManagerOf(app({ 'yarn.lock': '' }))).to.equal('yarn');
  });
});
