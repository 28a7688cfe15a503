/**
 * Who imports whom under a tree (src/dev/import-graph.ts): read once the mount is ready, not as the graph is made,
 * and kept up to date file by file after that.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createImportGraph } from '../../src/dev/import-graph';

describe('dev mode: the import graph', () => {
  let root: string;
  const write = (relative: string, text: string) => {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };
  const names = (files: Iterable<string>) => [...files].map((file) => path.relative(root, file)).sort();

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'ee-import-graph-'));
    write('_lib/label.ts', 'export const label = 1;\n');
    write('a/endpoint.ts', "import { label } from '../_lib/label';\nexport const GET = () => label;\n");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads the tree when first asked, not when it is made', () => {
    const graph = createImportGraph(root);
    // Written after the graph was made, and never told to it: found all the same, since nothing was read yet.
    write('b/endpoint.ts', "export * from '../_lib/label';\n");
    expect(names(graph.withImporters([path.join(root, '_lib/label.ts')]))).to.deep.equal([
      '_lib/label.ts',
      'a/endpoint.ts',
      'b/endpoint.ts',
    ]);
  });

  it('once read, follows the saves it is told of, a first save included', () => {
    const graph = createImportGraph(root);
    const added = write('b/endpoint.ts', "import '../_lib/label';\n");
    graph.update([added]);
    graph.read(); // read already: nothing changes
    const label = path.join(root, '_lib/label.ts');
    expect(names(graph.withImporters([label]))).to.deep.equal([
      '_lib/label.ts',
      'a/endpoint.ts',
      'b/endpoint.ts',
    ]);
    const edited = write('a/endpoint.ts', 'export const GET = () => 2;\n');
    write('b/endpoint.ts', 'export const GET = () => 3;\n'); // not told: the graph keeps what it read
    graph.update([edited]);
    expect(names(graph.withImporters([label]))).to.deep.equal(['_lib/label.ts', 'b/endpoint.ts']);
    expect(names(graph.dependenciesOf(path.join(root, 'b/endpoint.ts')))).to.deep.equal([
      '_lib/label.ts',
      'b/endpoint.ts',
    ]);
  });
});
