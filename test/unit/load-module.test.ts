/**
 * loadModule hands dispatch the module's exports, whatever way the file was written: CommonJS by
 * hand (`exports.GET =`, `module.exports = {…}`), as tsc emits it, or an ES module.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EndpointLoadError, loadModule } from '../../src/load';
import { loadThroughRunner } from '../../src/load/load-module';
import { isForeignModuleSystem, runnerRequire } from '../../src/load/runner-require';

describe('loadModule: the exports object of every module shape', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ee-load-'));
    writeFileSync(path.join(dir, 'package.json'), '{ "type": "commonjs" }');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  let count = 0;
  async function load(ext: string, source: string) {
    const file = path.join(dir, `endpoint-${count++}${ext}`);
    writeFileSync(file, source);
    const exports = await loadModule(file, path.basename(file));
    return Object.fromEntries(Object.entries(exports).map(([name, value]) => [name, typeof value]));
  }

  it('CommonJS by hand: exports.GET = …', async () => {
    expect(await load('.js', 'exports.GET = () => new Response("x");')).to.deep.equal({ GET: 'function' });
  });

  it('CommonJS by hand: module.exports = { … }, non-handlers kept', async () => {
    const shape = await load('.js', 'module.exports = { POST() {}, config: { bodyLimit: 10 } };');
    expect(shape).to.deep.equal({ POST: 'function', config: 'object' });
  });

  it('CommonJS by hand: module.exports = function → the default (catch-all) handler', async () => {
    expect(await load('.cjs', 'module.exports = function handler() {};')).to.deep.include({
      default: 'function',
    });
  });

  it('CommonJS as tsc emits it (__esModule, exports.default)', async () => {
    const source = `"use strict"; Object.defineProperty(exports, "__esModule", { value: true });
exports.default = function () {}; exports.GET = function () {};`;
    expect(await load('.js', source)).to.deep.include({ default: 'function', GET: 'function' });
  });

  it('an ES module: a default object beside named handlers stays the namespace', async () => {
    const shape = await load('.mjs', 'export default { note: 1 };\nexport function GET() {}');
    expect(shape).to.deep.equal({ default: 'object', GET: 'function' });
  });

  it('an ES module: export default function', async () => {
    expect(await load('.mjs', 'export default function () {}')).to.deep.equal({ default: 'function' });
  });
});

describe('loadModule: load errors', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ee-load-errors-'));
    writeFileSync(path.join(dir, 'package.json'), '{ "type": "commonjs" }');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function loadError(name: string, source: string): Promise<EndpointLoadError> {
    writeFileSync(path.join(dir, name), source);
    try {
      await loadModule(path.join(dir, name), `app/${name}`);
    } catch (error) {
      expect(error).to.be.instanceOf(EndpointLoadError);
      return error as EndpointLoadError;
    }
    throw new Error(`${name} loaded`);
  }

  it('names the file, leaves out Node\'s "Require stack:" list, and points at `check`', async () => {
    const error = await loadError('missing.js', "require('./not-there');\nexports.GET = () => {};");
    expect(error.message)
      .to.include('app/missing.js (line 1, column 1)')
      .and.include("Cannot find module './not-there'")
      .and.include('express-file-endpoints check')
      .and.not.include('Require stack');
    expect(error.file).to.equal('app/missing.js');
  });

  it('has no stack trace and no cause, unless DEBUG=express-file-endpoints', async () => {
    const quiet = await loadError('quiet.js', "require('./not-there');");
    expect(quiet.stack).to.equal(`EndpointLoadError: ${quiet.message}`);
    expect(quiet.cause).to.equal(undefined);
    process.env.DEBUG = 'other,express-file-endpoints';
    try {
      const loud = await loadError('loud.js', "require('./not-there');");
      expect(loud.stack).to.match(/\n\s+at /);
      expect((loud.cause as Error).message).to.include('Require stack:');
    } finally {
      delete process.env.DEBUG;
    }
  });

  // The tests run under tsx, which would compile these files; Node would not, and neither may we.
  it('`export` in a .js file of a "type": "commonjs" package: the line and the three fixes', async () => {
    const error = await loadError('esm-syntax.js', 'export function GET() {}');
    expect(error.message).to.include('app/esm-syntax.js (line 1)');
    expectTheThreeFixes(error.message, 'esm-syntax.mjs');
  });

  it('`import` in a .cjs file: the same fixes', async () => {
    const error = await loadError('imports.cjs', "import fs from 'node:fs';\nexports.GET = () => fs;");
    expect(error.message).to.include('app/imports.cjs (line 1)');
    expectTheThreeFixes(error.message, 'imports.mjs');
  });

  it('a module that throws while loading: its own error, where it was thrown, no hint', async () => {
    const error = await loadError('throws.js', "throw new Error('database down');");
    expect(error.message).to.include('app/throws.js (line 1, column 7)').and.include('database down');
    expect(error.message).not.to.include('\n');
  });

  // A SyntaxError is not always one of the file: JSON.parse of a bad environment variable throws one too.
  // The hint that says so is the message's last line (its words: messages.test.ts).
  const THROWN = /\n[^\n]*\btop-level code threw it\b[^\n]*$/;

  it('a SyntaxError thrown by top-level code (CommonJS): where it was thrown, and not "run check"', async () => {
    const error = await loadError(
      'json-env.js',
      "const config = JSON.parse(process.env.EE_NO_SUCH_VAR ?? '{bad');\nexports.GET = () => config;\n",
    );
    expect(error.message).to.match(/\bapp\/json-env\.js \(line 1, column \d+\): /);
    expect(error.message).to.include('JSON').and.match(THROWN);
    expect(error.message).not.to.include('check');
  });

  it('a SyntaxError thrown by top-level code (ES module): the same', async () => {
    const error = await loadError(
      'regexp.mjs',
      "export const re = new RegExp('[');\nexport const GET = () => re;\n",
    );
    expect(error.message).to.match(/\bapp\/regexp\.mjs \(line 1, column \d+\): .*Invalid regular expression/);
    expect(error.message).to.match(THROWN);
  });

  it('a file that does not parse: a syntax error, and `check` for the line and column', async () => {
    const error = await loadError('unparsable.mjs', 'export const GET = () => {\n  return f(1 ;\n};\n');
    expect(error.message).to.include('express-file-endpoints check');
    expect(error.message).not.to.include('top-level code threw');
  });

  it('CommonJS that merely mentions import/export still loads', async () => {
    const file = path.join(dir, 'mentions.js');
    writeFileSync(file, "// export GET below; import() stays legal\nexports.GET = () => import('node:fs');");
    expect(Object.keys(await loadModule(file, 'mentions.js'))).to.deep.equal(['GET']);
  });
});

// A test runner's own registry (Jest's) is simulated by a `require` of the test's making; the real one runs in
// test/integration/test-runners.test.ts.
describe("loadThroughRunner: every file through a test runner's require", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ee-load-runner-'));
    writeFileSync(path.join(dir, 'package.json'), '{ "type": "commonjs" }');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A runner's `require` that answers with `answer`, or throws it, and records what it was asked for. */
  function runner(answer: (file: string) => unknown) {
    const asked: string[] = [];
    const fake = ((file: string) => (asked.push(file), answer(file))) as unknown as NodeJS.Require;
    return { fake, asked };
  }

  function failure(name: string, message: string, code?: string): Error {
    return Object.assign(new Error(message), { name, ...(code ? { code } : {}) });
  }

  it('is not used under Node, whose require and import() share one cache', () => {
    expect(runnerRequire).to.equal(undefined);
    expect(isForeignModuleSystem(module, require, __filename)).to.equal(false);
  });

  it("is a registry whose cache holds this file's own module object, not Node's (Jest's)", () => {
    const own = { exports: {} };
    const jestLike = Object.assign(() => undefined, { cache: { '/lib/index.js': own } });
    expect(isForeignModuleSystem(own, jestLike as unknown as NodeJS.Require, '/lib/index.js')).to.equal(true);
  });

  it("is not a bundle's own wrapper object: Node loaded the bundle, and its cache holds the bundle's module", () => {
    const wrapper = { exports: {} };
    expect(isForeignModuleSystem(wrapper, require, __filename)).to.equal(false);
  });

  it('returns what the runner gives, without compiling, registering or importing anything itself', async () => {
    const exports = { GET() {} };
    const { fake, asked } = runner(() => exports);
    // Not a file Node could load: the runner's transforms decide what a file may contain.
    const file = path.join(dir, 'typed.ts');
    expect(await loadThroughRunner(fake, file, 'app/typed.ts')).to.equal(exports);
    expect(asked).to.deep.equal([file]);
  });

  it("an ES module the runner's require refuses goes to import()", async () => {
    const file = path.join(dir, 'esm.mjs');
    writeFileSync(file, 'export const GET = () => 1;');
    const refusal = failure('Error', `Must use import to load ES Module: ${file}`, 'ERR_REQUIRE_ESM');
    const { fake } = runner(() => {
      throw refusal;
    });
    expect(Object.keys(await loadThroughRunner(fake, file, 'app/esm.mjs'))).to.deep.equal(['GET']);
  });

  it("a runner's failure is the load error, named by file; TypeScript it does not compile says how to", async () => {
    const { fake } = runner(() => {
      throw failure('SyntaxError', "Jest encountered an unexpected token\n\nDetails: Unexpected token ':'");
    });
    const error = await loadThroughRunner(fake, path.join(dir, 'a.ts'), 'app/a.ts').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(EndpointLoadError);
    expect((error as Error).message)
      .to.match(/^Could not load app\/a\.ts: Jest encountered an unexpected token/)
      .and.include("preset: 'ts-jest'")
      .and.include('@babel/preset-typescript');
  });

  it("a module's own error gets no advice", async () => {
    const { fake } = runner(() => {
      throw new Error('database down');
    });
    const error = (await loadThroughRunner(fake, path.join(dir, 'b.js'), 'app/b.js').catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).to.equal('Could not load app/b.js: database down');
  });
});

/** The fixes for ES module syntax in a CommonJS file: the .mjs name, `exports.GET =`, or "type": "module". */
function expectTheThreeFixes(message: string, mjsName: string): void {
  expect(message).to.include(mjsName).and.include('exports.GET').and.include('"type": "module"');
}
