/**
 * What `check` and `routes` both start with: the tree found, validated, and checked for what would fail at
 * startup, without running endpoint code; and how both print the problems found.
 */
import { checkStartup, type StartupReport } from '../check';
import { discoverTree, displayPath, readExportsExactly, type DiscoveredTree } from '../discover';
import { validateTree, type Problem } from '../validate';
import { plural } from '../words';

export interface Examined {
  tree: DiscoveredTree;
  /** The tree's folder as the output names it. */
  where: string;
  problems: Problem[];
  startup: StartupReport;
}

/** Finds, validates and statically checks the tree; undefined (after saying why) when there is none. */
export function examineTree(dir: string | undefined): Examined | undefined {
  let tree: DiscoveredTree;
  try {
    tree = discoverTree(dir ?? 'app');
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    console.error(
      `${first}\nRun the command in your app's folder, or give the endpoint folder: express-file-endpoints check path/to/app`,
    );
    return undefined;
  }
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
