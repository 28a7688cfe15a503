/**
 * `express-file-endpoints typegen [dir] [--out file]`: writes the typed-routes declaration file once, from the
 * tree or from a build of it (its route table).
 */
import path from 'node:path';
import { displayPath, treeRoot } from '../discover';
import { readBuildTable, tableTree } from '../manifest';
import { defaultTypesFile, routeDeclarations, writeIfChanged } from '../typed-routes';
import { plural } from '../words';
import { findTree } from './examine-tree';

/** Returns the exit code; main.ts parses the arguments. */
export function typegen(dir: string | undefined, out: string | undefined): number {
  const built = readBuildTable(treeRoot(dir ?? 'app'));
  const tree = built ? tableTree(built) : findTree(dir, 'typegen');
  if (!tree) return 1;
  const file = path.resolve(out ?? defaultTypesFile(tree.root));
  const wrote = writeIfChanged(file, routeDeclarations(tree, file));
  const count = tree.files.filter((f) => f.kind === 'endpoint').length;
  console.log(`${wrote ? 'wrote' : 'unchanged'} ${displayPath(file)} (${plural(count, 'route')})`);
  return 0;
}
