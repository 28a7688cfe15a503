/**
 * `check` and `routes`: the tree found, validated, and checked for what would fail at startup; `check --load`
 * also imports every module in a child process. Both print every problem at once, and exit 1 on any.
 */
import path from 'node:path';
import { checkStartup, loadInChild, type StartupReport } from '../check';
import { describeRoutes, type RouteInfo } from '../describe-routes';
import { discoverTree, type DiscoveredTree } from '../discover';
import { validateTree, type Problem } from '../validate';

interface Examined {
  tree: DiscoveredTree;
  where: string;
  problems: Problem[];
  startup: StartupReport;
}

/** Finds, validates and statically checks the tree; undefined (after saying why) when there is none. */
function examine(dir: string | undefined): Examined | undefined {
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
  const where = path.relative(process.cwd(), tree.root).split(path.sep).join('/') || '.';
  const startup = checkStartup(tree);
  // A file that does not parse has no readable exports: its syntax error is the problem to report.
  const parsable = { ...tree, files: tree.files.filter((file) => !startup.unparsable.has(file.displayPath)) };
  return { tree, where, problems: [...validateTree(parsable), ...startup.problems], startup };
}

export async function check(
  dir: string | undefined,
  options: { load?: boolean },
  cliPath: string,
): Promise<number> {
  const examined = examine(dir);
  if (!examined) return 1;
  const { tree, where, startup } = examined;
  let { problems } = examined;
  const endpoints = tree.files.filter((file) => file.kind === 'endpoint');
  if (options.load) problems = [...problems, ...(await loadProblems(tree, problems, cliPath))];

  for (const note of startup.notes) console.log(`note: ${note}`);
  if (problems.length > 0) {
    printProblems(problems, where);
    return 1;
  }
  const count = endpoints.length === 1 ? '1 endpoint' : `${endpoints.length} endpoints`;
  const loaded = options.load ? ', every module loaded' : '';
  console.log(`✓ ${count}, 0 problems in ${where}${loaded}`);
  return 0;
}

export function routes(dir: string | undefined): number {
  const examined = examine(dir);
  if (!examined) return 1;
  const { tree, where, problems, startup } = examined;
  printRoutes(describeRoutes(tree), startup.unparsable);
  for (const note of startup.notes) console.log(`note: ${note}`);
  if (problems.length === 0) return 0;
  printProblems(problems, where);
  return 1;
}

/**
 * Imports every module that parsed, in a child process; each failure is a problem naming its file. When all
 * load, the tree is validated again against the exports the modules really have (`export * from`…).
 */
async function loadProblems(
  tree: DiscoveredTree,
  known: readonly Problem[],
  cliPath: string,
): Promise<Problem[]> {
  const reported = new Set(known.flatMap((problem) => problem.files));
  const files = tree.files.filter((file) => file.kind !== 'page' && !reported.has(file.displayPath));
  const results = await loadInChild(cliPath, files);
  const failed: Problem[] = results
    .filter((result) => result.error !== undefined)
    .map((result) => ({ code: 'load-error', files: [result.displayPath], message: result.error as string }));
  if (failed.length > 0 || known.length > 0) return failed;
  const exportsOf = new Map(results.map((result) => [result.file, result.exports]));
  const loaded = {
    ...tree,
    files: tree.files.map((f) => ({ ...f, exports: exportsOf.get(f.file) ?? f.exports })),
  };
  return validateTree(loaded);
}

function printProblems(problems: readonly Problem[], where: string): void {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  console.error(`✗ ${count} in ${where}:`);
  for (const problem of problems) console.error(`  ${problem.code}: ${problem.message}`);
}

function printRoutes(routes: readonly RouteInfo[], unparsable: ReadonlySet<string>): void {
  const rows = [...routes].sort(comparePatterns).map((route) => {
    if (unparsable.has(route.file)) return ['✗ syntax error', route.pattern, route.file];
    return [`${route.methods.join(' ')}${route.incomplete ? ' …' : ''}`, route.pattern, route.file];
  });
  const table = [['METHODS', 'URL', 'FILE'], ...rows];
  const widths = [0, 1].map((column) => Math.max(...table.map((row) => row[column]!.length)));
  for (const [methods, url, file] of table)
    console.log(`${methods!.padEnd(widths[0]!)}  ${url!.padEnd(widths[1]!)}  ${file}`);
  if (routes.some((route) => route.incomplete && !unparsable.has(route.file))) {
    console.log('\n… re-exports (export *) or an unreadable module.exports: more methods may be served.');
  }
}

// Static segments before dynamic ones, the order the router tries them in.
function comparePatterns(a: RouteInfo, b: RouteInfo): number {
  const rank = (pattern: string) =>
    pattern
      .replace(/\[\[/g, '\uffff3')
      .replace(/\[\.\.\./g, '\uffff2')
      .replace(/\[/g, '\uffff1');
  const [x, y] = [rank(a.pattern), rank(b.pattern)];
  return x < y ? -1 : x > y ? 1 : a.file < b.file ? -1 : 1;
}
