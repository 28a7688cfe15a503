#!/usr/bin/env node
/**
 * The `express-endpoints` command. `check` validates a tree at build time and `routes` lists what it serves;
 * both read files statically and never import endpoint code, so they are safe to run in CI.
 */
import path from 'node:path';
import { describeRoutes, type RouteInfo } from './describe-routes';
import { typegenCommand } from './dev/typegen';
import { discoverTree, type DiscoveredTree } from './discover';
import { validateTree, type Problem } from './validate';

const USAGE = `Usage: express-endpoints <command> [dir]

Commands:
  check [dir]    validate the endpoint tree in dir (default: app); exit code 1 when it has problems
  routes [dir]   list every endpoint: the methods it serves, its URL pattern and its file
  typegen [dir]  write the typed-routes declaration (--out file; default express-endpoints-env.d.ts beside dir)

Options:
  -h, --help     show this help`;

function main(args: string[]): number {
  if (args.includes('-h') || args.includes('--help') || args[0] === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (args[0] === 'typegen') return typegenCommand(args.slice(1));
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

  if (command === 'routes') printRoutes(describeRoutes(tree));
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

function printRoutes(routes: readonly RouteInfo[]): void {
  const rows = [...routes]
    .sort(comparePatterns)
    .map((route) => [`${route.methods.join(' ')}${route.incomplete ? ' …' : ''}`, route.pattern, route.file]);
  const table = [['METHODS', 'URL', 'FILE'], ...rows];
  const widths = [0, 1].map((column) => Math.max(...table.map((row) => row[column]!.length)));
  for (const [methods, url, file] of table)
    console.log(`${methods!.padEnd(widths[0]!)}  ${url!.padEnd(widths[1]!)}  ${file}`);
  if (routes.some((route) => route.incomplete)) {
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

process.exitCode = main(process.argv.slice(2));
