/**
 * `express-file-endpoints check [dir] [--load]`: every problem of the tree at once, and exit 1 on any. The
 * files are read, never run; `--load` also imports every module, in a child process (see src/check).
 */
import { loadInChild } from '../check';
import { treeRoot, type DiscoveredTree } from '../discover';
import { readBuildTable } from '../manifest';
import { contractProblems, validateTree, type Problem } from '../validate';
import { plural } from '../words';
import { examineTree, findTree, printProblems } from './examine-tree';

export async function check(
  dir: string | undefined,
  options: { load?: boolean },
  cliPath: string,
): Promise<number> {
  return (await checkTree(dir, options, cliPath)).code;
}

/** `check`, and the tree it checked: with `load`, with the exports its modules really have (for `build`). */
export async function checkTree(
  dir: string | undefined,
  options: { load?: boolean },
  cliPath: string,
): Promise<{ code: number; tree?: DiscoveredTree }> {
  // A build was checked when it was made: what can be checked again is the tree it was made from.
  const built = readBuildTable(treeRoot(dir ?? 'app'));
  if (built) {
    console.error(
      `express-file-endpoints: ${dir ?? 'app'} is a build of ${built.sourceDisplay}; check the tree itself: express-file-endpoints check ${built.sourceDisplay}`,
    );
    return { code: 1 };
  }
  const found = findTree(dir, 'check');
  if (!found) return { code: 1 };
  const examined = examineTree(found);
  const { where, startup } = examined;
  let { tree, problems } = examined;
  const endpoints = tree.files.filter((file) => file.kind === 'endpoint');
  if (options.load) ({ tree, problems } = await loadTree(tree, problems, cliPath));

  for (const note of startup.notes) console.log(`note: ${note}`);
  if (problems.length > 0) {
    printProblems(problems, where);
    return { code: 1 };
  }
  const loaded = options.load ? ', every module loaded' : '';
  console.log(`✓ ${plural(endpoints.length, 'endpoint')}, 0 problems in ${where}${loaded}`);
  return { code: 0, tree };
}

/**
 * Imports every module that parsed, in a child process; each failure is a problem naming its file. When all
 * load, the tree is validated again against the exports the modules really have (`export * from`…, what
 * each contract checks), and comes back with those exports, for `routes --load` to list.
 */
export async function loadTree(
  tree: DiscoveredTree,
  known: readonly Problem[],
  cliPath: string,
): Promise<{ tree: DiscoveredTree; problems: Problem[] }> {
  const reported = new Set(known.flatMap((problem) => problem.files));
  const files = tree.files.filter((file) => file.kind !== 'page' && !reported.has(file.displayPath));
  const results = await loadInChild(cliPath, files);
  const failed: Problem[] = results
    .filter((result) => result.error !== undefined)
    .map((result) => ({ code: 'load-error', files: [result.displayPath], message: result.error as string }));
  const exportsOf = new Map(results.map((result) => [result.file, result.exports]));
  const loaded = {
    ...tree,
    files: tree.files.map((f) => ({ ...f, exports: exportsOf.get(f.file) ?? f.exports })),
  };
  if (failed.length > 0 || known.length > 0) return { tree: loaded, problems: [...known, ...failed] };
  return { tree: loaded, problems: [...validateTree(loaded), ...contractProblems(loaded)] };
}
