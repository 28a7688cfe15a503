/**
 * A long development session must not grow without bound: 200 reloads in a row, in a CommonJS
 * and an ES module package, measured after forced garbage collection. CommonJS modules are
 * dropped from require.cache and collected. ES modules cannot be removed from Node's module map,
 * so every reload of a module leaves its record (and its compiled source) behind: the growth is
 * linear in reloads times module size, a few kB per reload of a small endpoint. Both figures are
 * printed; the bounds asserted are generous multiples of what was measured (see docs/development-mode.md).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { get, scratchTree, until, type PackageType, type ScratchTree } from './scratch-tree';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const RELOADS = 200;
// A typical small endpoint plus a helper it imports, both reloaded each time (~1.5 kB of source).
const helper = (n: number) =>
  `export function describe(n: number): string {\n  return 'reload ' + n + ' of ${RELOADS}';\n}\nexport const padding = ${JSON.stringify('x'.repeat(800))};\nexport const version = ${n};\n`;
const endpoint = `import { describe, version } from '../_lib/helper';\nexport function GET(): Response {\n  return Response.json({ text: describe(version) });\n}\n`;

function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

const bounds: Record<PackageType, number> = {
  // measured: see docs/development-mode.md, "Memory"; the bounds leave room for noise between runs
  commonjs: 8 * 1024 * 1024,
  module: 12 * 1024 * 1024,
};

for (const type of ['commonjs', 'module'] as PackageType[]) {
  describe(`dev mode memory: ${RELOADS} reloads, ${type === 'module' ? 'ES module' : 'CommonJS'} package`, function () {
    this.timeout(60_000);
    let tree: ScratchTree;
    before(() => {
      tree = scratchTree(type, { '_lib/helper.ts': helper(0), 'memory/endpoint.ts': endpoint });
    });
    after(() => tree.cleanUp());

    it('stays within a fixed bound', async () => {
      const endpoints = tree.mount();
      const reloadTo = async (n: number) => {
        const before = tree.reloads.length;
        tree.write('_lib/helper.ts', helper(n));
        await until(
          async () =>
            tree.reloads.length > before && (await get(endpoints, '/memory')).text.includes(`reload ${n} `),
        );
      };
      for (let n = 1; n <= 10; n++) await reloadTo(n); // warm-up: tsx, the hooks, the lexers
      const start = heapAfterGc();
      for (let n = 11; n <= 10 + RELOADS; n++) await reloadTo(n);
      const growth = heapAfterGc() - start;
      console.log(
        `      ${type}: heap +${(growth / 1024 / 1024).toFixed(2)} MiB after ${RELOADS} reloads of 2 modules ` +
          `(${(growth / RELOADS / 1024).toFixed(1)} kB per reload)`,
      );
      expect(growth).to.be.below(bounds[type]);
    });
  });
}
