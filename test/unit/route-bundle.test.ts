/**
 * How route files are split into bundles (src/load/route-bundle.ts): each file's bundle is picked by its path, so
 * that a file added or changed makes only its own bundle again; and which of them may go in one at all.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { bundlesOf, importSpecifiers, mayBundle } from '../../src/load/route-bundle';

const ROOT = '/app/app';
const filesOf = (names: readonly string[]) => names.map((name) => ({ file: `${ROOT}/${name}/endpoint.ts` }));

describe('route bundles', () => {
  it('splits a tree into at most 16 bundles of about equal size, every file in one', () => {
    const files = filesOf(Array.from({ length: 1000 }, (_, i) => `api/r${i}/[id]`));
    const groups = bundlesOf(ROOT, files);
    expect(groups).to.have.length(16);
    expect(groups.flat()).to.have.members(files);
    for (const group of groups) expect(group.length).to.be.within(35, 95);
    expect(bundlesOf(ROOT, files.slice(0, 39))).to.have.length(1);
  });

  // Past 320 files, 16 bundles, however many more.
  it('keeps every other file in its bundle when one is added (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 330, maxLength: 400 }),
        (names) => {
          const [added, ...rest] = names;
          const before = bundlesOf(ROOT, filesOf(rest));
          const after = bundlesOf(ROOT, filesOf([...rest, added!]));
          const bundleOf = (groups: { file: string }[][], file: string) =>
            groups.findIndex((group) => group.some((entry) => entry.file === file));
          for (const { file } of filesOf(rest))
            expect(bundleOf(after, file)).to.equal(bundleOf(before, file));
        },
      ),
      { numRuns: 20 },
    );
  });

  it('leaves out a file that reads its own place or loads code by a name known when it runs, and finds what a file imports', () => {
    expect(
      mayBundle("import { label } from '../_lib/label';\nexport const GET = () => new Response(label());"),
    ).to.equal(true);
    for (const source of [
      'export const where = import.meta.url;',
      'export const where = __dirname;',
      "const config = require('../config');",
      "export const GET = async () => (await import('../lazy')).GET();",
      "export const data = require.resolve('./data.json');",
      'module.exports = { GET() {} };',
      'exports.GET = () => {};',
    ])
      expect(mayBundle(source), source).to.equal(false);
    expect(
      importSpecifiers(
        "import {\n  a,\n  b,\n} from '../lib/a';\nimport '../setup';\nexport * from \"./more\";\nimport x from 'zod';",
      ),
    ).to.deep.equal(['../lib/a', '../setup', './more', 'zod']);
  });
});
