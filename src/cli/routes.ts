/**
 * `express-file-endpoints routes [dir] [--load]`: one row per endpoint (its methods, URL pattern and file),
 * read without running endpoint code; `--load` imports the modules in a child process, as `check --load`
 * does, and adds what each contract validates. Then the tree's problems, if any, and exit 1. A build folder
 * lists its table, validated and loaded when it was built (docs/build.md).
 */
import { describeRoutes, type RouteInfo } from '../describe-routes';
import { loadTree } from './check';
import { examineTree, findTreeOrBuild, printProblems } from './examine-tree';

export async function routes(
  dir: string | undefined,
  options: { load?: boolean },
  cliPath: string,
): Promise<number> {
  const found = findTreeOrBuild(dir, 'routes');
  if (!found) return 1;
  if (found.built) {
    printRoutes(describeRoutes(found.tree), new Set());
    return 0;
  }
  const examined = examineTree(found.tree);
  const { where, startup } = examined;
  let { tree, problems } = examined;
  if (options.load) ({ tree, problems } = await loadTree(tree, problems, cliPath));
  printRoutes(describeRoutes(tree), startup.unparsable);
  for (const note of startup.notes) console.log(`note: ${note}`);
  if (problems.length === 0) return 0;
  printProblems(problems, where);
  return 1;
}

function printRoutes(routes: readonly RouteInfo[], unparsable: ReadonlySet<string>): void {
  const sorted = [...routes].sort(comparePatterns);
  const rows = sorted.map((route) => {
    if (unparsable.has(route.file)) return ['✗ syntax error', route.pattern, route.file];
    const methods = [...route.methods, ...(route.websocket ? ['WS'] : [])].join(' ');
    return [`${methods}${route.incomplete ? ' …' : ''}`, route.pattern, route.file];
  });
  const loaded = routes.some((route) => route.contracts !== undefined);
  const table = loaded
    ? [
        ['METHODS', 'URL', 'CONTRACTS', 'FILE'],
        ...rows.map((row, i) => [row[0]!, row[1]!, contractsOf(sorted[i]!), row[2]!]),
      ]
    : [['METHODS', 'URL', 'FILE'], ...rows];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  for (const row of table) {
    console.log(
      row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '),
    );
  }
  if (routes.some((route) => route.incomplete && !unparsable.has(route.file))) {
    console.log('\n… re-exports (export *) or an unreadable module.exports: more methods may be served.');
  }
  if (routes.some((route) => route.websocket)) console.log('\nWS: upgrade requests open a WebSocket.');
}

/** `POST body → 201 409; PUT params body`: per handler with a contract, what it validates and the statuses it lists. */
function contractsOf(route: RouteInfo): string {
  const entries = Object.entries(route.contracts ?? {}).map(([name, { validates, responses }]) =>
    [name, ...validates, ...(responses.length > 0 ? ['→', ...responses] : [])].join(' '),
  );
  return entries.length > 0 ? entries.join('; ') : '-';
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
