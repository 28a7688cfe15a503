/**
 * `express-file-endpoints build [dir] [--out folder]`: every check `check --load` makes, then the build
 * (src/build): the tree compiled to one module with its route table, which `mountEndpoints({ dir: folder })`
 * or the `manifest` option mounts without globbing, validating or tsx.
 */
import path from 'node:path';
import { buildEndpoints } from '../build';
import { displayPath, treeRoot } from '../discover';
import { plural } from '../words';
import { checkTree } from './check';

/** Beside the tree's folder: `app` builds into `dist/endpoints`. */
function defaultOut(dir: string | undefined): string {
  return path.join(path.dirname(treeRoot(dir ?? 'app')), 'dist', 'endpoints');
}

export async function build(
  dir: string | undefined,
  out: string | undefined,
  cliPath: string,
): Promise<number> {
  const checked = await checkTree(dir, { load: true }, cliPath);
  if (checked.code !== 0) return checked.code;
  // The tree as checked: discovered once, and its table keeps the exports the modules really have.
  const outcome = await buildEndpoints(dir ?? 'app', out ?? defaultOut(dir), checked.tree);
  const from = displayPath(path.dirname(outcome.module));
  for (const warning of outcome.warnings) console.log(`note: ${warning}`);
  // The app's own modules are imported, not compiled in: said, since a count of compiled files alone hides them.
  const imported = outcome.imports.length > 0 ? `, ${outcome.imports.length} imported from the app` : '';
  console.log(
    `✓ built ${displayPath(outcome.module)} (${outcome.format === 'esm' ? 'ES module' : 'CommonJS'}, ${plural(outcome.inputs, 'file')} compiled${imported}); mount it with dir: '${from}'`,
  );
  return 0;
}
