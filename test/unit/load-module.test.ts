/**
 * loadModule hands dispatch the module's exports, whatever way the file was written: CommonJS by
 * hand (`exports.GET =`, `module.exports = {…}`), as tsc emits it, or an ES module.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadModule } from '../../src/load';

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
