/**
 * What the commands start with: the tree found (and, when it is missing, the same advice from each); for
 * `check` and `routes`, validated and checked for what would fail at startup, without running endpoint code,
 * and the problems printed the same way.
 */
import { checkStartup, type StartupReport } from '../check';
import { discoverTree, displayPath, readExportsExactly, treeRoot, type DiscoveredTree } from '../discover';
import { readBuildTable, tableTree } from '../manifest';
import { validateTree, type Problem } from '../validate';
import { plural } from '../words';

export interface Examined {
  tree: DiscoveredTree;
  /** The tree's folder as the output names it. */
  where: string;
  problems: Problem[];
  startup: StartupReport;
}

/** The tree in `dir` (default `app`); undefined, after saying why, when there is none. */
export function findTree(dir: string | undefined, command: string): DiscoveredTree | undefined {
  try {
    return discoverTree(dir ?? 'app');
  } catch (error) {
    // Only the first line: the rest advises on `mountEndpoints`' dir option, not on a command's argument.
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    console.error(
      `${first}\nRun the command in your app's folder, or give the endpoint folder: express-file-endpoints ${command} path/to/app`,
    );
    return undefined;
  }
}

/**
 * The tree in `dir`, or the table of a build when `dir` is a build folder (docs/build.md): what `typegen`,
 * `openapi` and `routes` describe. `dir` is the folder to mount, for a command that loads the modules.
 */
export function findTreeOrBuild(
  dir: string | undefined,
  command: string,
): { tree: DiscoveredTree; dir: string; built: boolean } | undefined {
  const folder = treeRoot(dir ?? 'app');
  const table = readBuildTable(folder);
  if (table) return { tree: tableTree(table), dir: folder, built: true };
  const tree = findTree(dir, command);
  return tree && { tree, dir: tree.root, built: false };
}

/** Validates and statically checks the tree. */
export function examineTree(tree: DiscoveredTree): Examined {
  const where = displayPath(tree.root);
  const startup = checkStartup(tree);
  // Exports as the syntax tree gives them, exact where startup's lexers leave names open or cannot tell a
  // literal: `check` reports what startup would, at the call or after the import. `route.ts` and `index.ts`
  // files are read for their exports only: they are never loaded, so they do not have to parse.
  const exact: DiscoveredTree = {
    ...tree,
    files: tree.files.map((file) => ({ ...file, exports: startup.exports.get(file.file) ?? file.exports })),
    misnamed: tree.misnamed?.map((file) => ({
      ...file,
      exports: readExportsExactly(file.file) ?? file.exports,
    })),
  };
  // A file that does not parse has no readable exports: its syntax error is the problem to report.
  const parsable = {
    ...exact,
    files: exact.files.filter((file) => !startup.unparsable.has(file.displayPath)),
  };
  return { tree: exact, where, problems: [...validateTree(parsable), ...startup.problems], startup };
}

export function printProblems(problems: readonly Problem[], where: string): void {
  console.error(`✗ ${plural(problems.length, 'problem')} in ${where}:`);
  for (const problem of problems) console.error(`  ${problem.code}: ${problem.message}`);
}
