/** `express-file-endpoints typegen [dir] [--out file]`: writes the typed-routes declaration file once. */
import path from 'node:path';
import { discoverTree, displayPath, type DiscoveredTree } from '../discover';
import { defaultTypesFile, routeDeclarations, writeIfChanged } from '../typed-routes';

/** Returns the exit code; main.ts parses the arguments. */
export function typegen(dir: string | undefined, out: string | undefined): number {
  let tree: DiscoveredTree;
  try {
    tree = discoverTree(dir ?? 'app');
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
  const file = path.resolve(out ?? defaultTypesFile(tree.root));
  const wrote = writeIfChanged(file, routeDeclarations(tree));
  const count = tree.files.filter((f) => f.kind === 'endpoint').length;
  console.log(`${wrote ? 'wrote' : 'unchanged'} ${displayPath(file)} (${count} routes)`);
  return 0;
}
