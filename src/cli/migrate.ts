/**
 * `express-file-endpoints migrate [entry] [--dir app] [--write] [--only path|file] [--json] [--allow-dirty]`:
 * the app's Express routes, found from its entry (package.json `main` by default), moved into endpoint files.
 * Without --write it prints the plan, the routes it leaves and why, and the diff; with --write it makes the
 * changes, on a clean git tree unless --allow-dirty, then checks the tree as `check` does.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { planDiff, planMigration, writePlan, type Plan } from '../migrate';
import { plural } from '../words';
import { check } from './check';

export interface MigrateCliOptions {
  dir?: string;
  write: boolean;
  only?: string;
  json: boolean;
  allowDirty: boolean;
}

export async function migrate(
  entryArgument: string | undefined,
  options: MigrateCliOptions,
  cliPath: string,
): Promise<number> {
  const entry = entryArgument ?? packageMain();
  if (!entry || !existsSync(entry)) {
    console.error(
      entry
        ? `express-file-endpoints migrate: ${entry} does not exist.`
        : 'express-file-endpoints migrate: name the file that creates your Express app (express-file-endpoints migrate server.js), or set "main" in package.json.',
    );
    return 1;
  }
  const plan = planMigration({
    entry,
    ...(options.dir !== undefined ? { dir: options.dir } : {}),
    ...(options.only !== undefined ? { only: options.only } : {}),
  });
  const { dir } = plan;
  if (options.json) console.log(JSON.stringify(jsonPlan(plan), null, 2));
  else printPlan(plan, options.write);
  if (!options.write || plan.changes.length === 0) return 0;
  if (!options.allowDirty) {
    const dirty = gitDirty(plan.root);
    if (dirty) {
      console.error(
        `\nexpress-file-endpoints migrate: the git tree has changes not committed (${dirty}). Commit them first, so that this run's changes are a diff of their own, or pass --allow-dirty.`,
      );
      return 1;
    }
  }
  writePlan(plan);
  if (!options.json) console.log(`\nWrote ${plural(plan.changes.length, 'file')}. Checking the tree:`);
  return options.json ? 0 : check(path.relative(process.cwd(), dir) || '.', { load: false }, cliPath);
}

function printPlan(plan: Plan, writing: boolean): void {
  const byFile = new Map<string, Plan['moved']>();
  for (const route of plan.moved) {
    const file = route.from.replace(/:\d+$/, '');
    byFile.set(file, [...(byFile.get(file) ?? []), route]);
  }
  for (const [file, routes] of byFile) {
    console.log(`${file}: ${plural(routes.length, 'route')}`);
    for (const route of routes) {
      const how =
        route.how === 'rewritten'
          ? `rewritten${route.note ? `, ${route.note}` : ''}`
          : `as it was, through expressMiddleware: ${route.note}`;
      console.log(`  ${route.method} ${route.path} -> ${route.to} (${how})`);
    }
  }
  if (plan.left.length > 0) {
    console.log('\nLeft where they are:');
    for (const left of plan.left)
      console.log(`  ${path.relative(plan.root, left.file)}:${left.line}  ${left.what}: ${left.reason}`);
  }
  for (const note of plan.notes) console.log(`\n${note}`);
  const rewritten = plan.moved.filter((r) => r.how === 'rewritten').length;
  console.log(
    `\n${plural(plan.found, 'route')} found: ${plan.moved.length} moved (${rewritten} rewritten, ${plan.moved.length - rewritten} as they were), ${plan.left.length} left.`,
  );
  if (plan.changes.length === 0) {
    console.log('Nothing to change.');
    return;
  }
  if (!writing) {
    console.log(`\n${planDiff(plan)}`);
    console.log('Run again with --write to make these changes.');
  }
}

function jsonPlan(plan: Plan): unknown {
  return {
    found: plan.found,
    moved: plan.moved,
    left: plan.left.map((l) => ({ ...l, file: path.relative(plan.root, l.file) })),
    changes: plan.changes.map((c) => ({
      file: path.relative(plan.root, c.file),
      created: c.before === null,
    })),
    notes: plan.notes,
    diff: planDiff(plan),
  };
}

function packageMain(): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { main?: string };
    return pkg.main ?? (existsSync('index.js') ? 'index.js' : undefined);
  } catch {
    return undefined;
  }
}

/** The first changed paths of the git tree the app is in, or undefined when clean or not in git. */
function gitDirty(cwd: string): string | undefined {
  let status: string;
  try {
    status = execFileSync('git', ['status', '--porcelain'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return undefined;
  }
  const lines = status.split('\n').filter(Boolean);
  if (lines.length === 0) return undefined;
  const shown = lines.slice(0, 3).map((l) => l.slice(3));
  return `${shown.join(', ')}${lines.length > 3 ? ', …' : ''}`;
}
