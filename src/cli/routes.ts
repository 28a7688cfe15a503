/**
 * `express-file-endpoints routes [dir]`: one row per endpoint (its methods, URL pattern and file), read
 * without running endpoint code; then the tree's problems, if any, and exit 1.
 */
import { describeRoutes, type RouteInfo } from '../describe-routes';
import { examineTree, printProblems } from './examine-tree';

export function routes(dir: string | undefined): number {
  const examined = examineTree(dir, 'routes');
  if (!examined) return 1;
  const { tree, where, problems, startup } = examined;
  printRoutes(describeRoutes(tree), startup.unparsable);
  for (const note of startup.notes) console.log(`note: ${note}`);
  if (problems.length === 0) return 0;
  printProblems(problems, where);
  return 1;
}

function printRoutes(routes: readonly RouteInfo[], unparsable: ReadonlySet<string>): void {
  const rows = [...routes].sort(comparePatterns).map((route) => {
    if (unparsable.has(route.file)) return ['✗ syntax error', route.pattern, route.file];
    const methods = [...route.methods, ...(route.websocket ? ['WS'] : [])].join(' ');
    return [`${methods}${route.incomplete ? ' …' : ''}`, route.pattern, route.file];
  });
  const table = [['METHODS', 'URL', 'FILE'], ...rows];
  const widths = [0, 1].map((column) => Math.max(...table.map((row) => row[column]!.length)));
  for (const [methods, url, file] of table)
    console.log(`${methods!.padEnd(widths[0]!)}  ${url!.padEnd(widths[1]!)}  ${file}`);
  if (routes.some((route) => route.incomplete && !unparsable.has(route.file))) {
    console.log('\n… re-exports (export *) or an unreadable module.exports: more methods may be served.');
  }
  if (routes.some((route) => route.websocket)) console.log('\nWS: upgrade requests open a WebSocket.');
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
