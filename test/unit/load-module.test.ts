/**
 * loadModule hands dispatch the module's exports, whatever way the file was written: CommonJS by
 * hand (`exports.GET =`, `module.exports = {…}`), as tsc emits it, or an ES module.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EndpointLoadError, loadModule } from '../../src/load';

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
    const exports = await loadModule(file);
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

  it('names the file and leaves out Node\'s "Require stack:" list', async () => {
    const error = await loadError('missing.js', "require('./not-there');\nexports.GET = () => {};");
    expect(error.message).to.match(/^Could not load app\/missing\.js: Cannot find module '\.\/not-there'$/);
    expect(error.file).to.equal('app/missing.js');
    expect((error.cause as Error).message).to.include('Require stack:');
  });

  // The tests run under tsx, which would compile these files; Node would not, and neither may we.
  it('`export` in a .js file of a "type": "commonjs" package: the three fixes', async () => {
    const error = await loadError('esm-syntax.js', 'export function GET() {}');
    expect(error.message).to.include('Could not load app/esm-syntax.js: ');
    expect(error.message).to.include('its package.json says "type": "commonjs"');
    expect(error.message).to.include('rename it to esm-syntax.mjs');
    expect(error.message).to.include('write `exports.GET = …` instead of `export`');
    expect(error.message).to.include('set "type": "module" in package.json');
  });

  it('`import` in a .cjs file: the same fixes', async () => {
    const error = await loadError('imports.cjs', "import fs from 'node:fs';\nexports.GET = () => fs;");
    expect(error.message).to.include('Could not load app/imports.cjs: ');
    expect(error.message).to.include('(a .cjs file)');
    expect(error.message).to.include('rename it to imports.mjs');
  });

  it('a module that throws while loading: its own error, no hint', async () => {
    const error = await loadError('throws.js', "throw new Error('database down');");
    expect(error.message).to.equal('Could not load app/throws.js: database down');
  });

  it('CommonJS that merely mentions import/export still loads', async () => {
    const file = path.join(dir, 'mentions.js');
    writeFileSync(file, "// export GET below; import() stays legal\nexports.GET = () => import('node:fs');");
    expect(Object.keys(await loadModule(file))).to.deep.equal(['GET']);
  });
});
