#!/usr/bin/env node
/**
 * The `express-endpoints` command. `check` validates a tree at build time and `routes` lists what it serves;
 * both read files statically and never import endpoint code, so they are safe to run in CI.
 */
import path from 'node:path';
import { discoverTree, type DiscoveredTree, type RouteFile } from './discover';
import { validateTree, type Problem } from './validate';

const USAGE = `Usage: express-endpoints <command> [dir]

Commands:
  check [dir]    validate the endpoint tree in dir (default: app); exit code 1 when it has problems
  routes [dir]   list every endpoint: the methods it serves, its URL pattern and its file

Options:
  -h, --help     show this help`;

// The order dispatch answers them in; HEAD follows from GET and OPTIONS is always answered.
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function main(args: string[]): number {
  if (args.includes('-h') || args.includes('--help') || args[0] === 'help') {
    console.log(USAGE);
    return 0;
  }
  const [command, dir, ...extra] = args;
  if ((command !== 'check' && command !== 'routes') || extra.length > 0 || dir?.startsWith('-')) {
    console.error(
      command === undefined ? USAGE : `express-endpoints: unexpected "${args.join(' ')}"\n\n${USAGE}`,
    );
    return 2;
  }

  let tree: DiscoveredTree;
  try {
    tree = discoverTree(dir ?? 'app');
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
  const problems = validateTree(tree);
  const endpoints = tree.files.filter((file) => file.kind === 'endpoint');
  const where = path.relative(process.cwd(), tree.root).split(path.sep).join('/') || '.';

  if (command === 'routes') printRoutes(endpoints);
  if (problems.length > 0) {
    printProblems(problems, where);
    return 1;
  }
  if (command === 'check') {
    const count = endpoints.length === 1 ? '1 endpoint' : `${endpoints.length} endpoints`;
    console.log(`✓ ${count}, 0 problems in ${where}`);
  }
  return 0;
}

function printProblems(problems: readonly Problem[], where: string): void {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  console.error(`✗ ${count} in ${where}:`);
  for (const problem of problems) console.error(`  ${problem.code}: ${problem.message}`);
}

function printRoutes(endpoints: readonly RouteFile[]): void {
  const rows = [...endpoints]
    .sort((a, b) => comparePatterns(a, b))
    .map((file) => [methodsOf(file), file.pattern, file.displayPath]);
  const table = [['METHODS', 'URL', 'FILE'], ...rows];
  const widths = [0, 1].map((column) => Math.max(...table.map((row) => (row[column] as string).length)));
  for (const [methods, url, file] of table) {
    console.log(
      `${(methods as string).padEnd(widths[0] as number)}  ${(url as string).padEnd(widths[1] as number)}  ${file}`,
    );
  }
  if (endpoints.some((file) => file.exports?.hasStar)) {
    console.log('\n… re-exports (export *) or an unreadable module.exports: more methods may be served.');
  }
}

/** The methods as dispatch serves them: GET brings HEAD, OPTIONS is always answered, default reads as ANY. */
function methodsOf(file: RouteFile): string {
  const info = file.exports;
  if (!info || info.parseError !== undefined) return '?';
  const names = new Set(info.names);
  if (names.has('GET')) names.add('HEAD');
  const any = names.has('ANY') || names.has('default');
  if (!any) names.add('OPTIONS');
  const listed = METHODS.filter((method) => names.has(method));
  if (any) listed.push('ANY');
  return `${listed.join(' ')}${info.hasStar ? ' …' : ''}`;
}

// Static before dynamic at each position, roughly the order the router tries them in.
const RANK = { static: 0, param: 1, catchAll: 2, optionalCatchAll: 3 } as const;

function comparePatterns(a: RouteFile, b: RouteFile): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const [x, y] = [a.segments[i], b.segments[i]];
    if (!x || !y) break;
    if (x.kind !== y.kind) return RANK[x.kind] - RANK[y.kind];
    const [p, q] = x.kind === 'static' && y.kind === 'static' ? [x.value, y.value] : ['', ''];
    if (p !== q) return p < q ? -1 : 1;
  }
  return a.segments.length - b.segments.length || (a.displayPath < b.displayPath ? -1 : 1);
}

process.exitCode = main(process.argv.slice(2));
