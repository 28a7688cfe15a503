/**
 * `npx tsx bench/migrate.ts [--routers 50] [--runs 5] [--rounds 8] [--duration 2] [--slice 0.5] [--only cli|requests]`:
 * the `migrate` command on an Express 5 app of 500 routes over 50 router files (bench/migrate-app.ts),
 * and what the endpoints it writes cost per request against the same routes written by hand.
 *
 * - **The command**, as a user runs it: `node …/dist/cli.js migrate server.js` (the plan and the diff)
 *   and `migrate server.js --write --allow-dirty` (the files written, then `check` on the tree), from
 *   process start to exit, each run on a fresh copy of the app, laid out as npm installs it (the
 *   built package copied into node_modules/express-file-endpoints, express and the package's
 *   dependencies linked). Every run's summary line must say that every route moved. The app the
 *   command wrote is then served beside the original, and every route's answer compared (status,
 *   Content-Type, Cache-Control, body).
 * - **Per request**: four routes of one router as the command wrote them, against the same routes
 *   written by hand as docs/migrating.md shows, with `Response.json` and with its `json()` helper
 *   (which sends `res.json`'s Content-Type, as the generated files do). Each tree is mounted with
 *   `mountEndpoints(app, { dir })` in an Express 5 app of its own process (bench/migrate-server.ts),
 *   loaded by autocannon from the bench's load process (bench/load.ts). Each round starts fresh
 *   processes and measures every route on every variant, in slices of `--slice` seconds that
 *   alternate between the variants, in an order that rotates; the figure is the server's CPU time
 *   per request, a ratio the median of same-round ratios. Their answers are compared first.
 *
 * Writes bench/migrate-results.md (a run with other sizes, or `--only`, writes
 * bench/.scratch/migrate-results.md). Not part of `npm test`. Run it on Node 24:
 * `node scripts/node-versions.mjs run 24 -- npx tsx bench/migrate.ts`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildBench } from './lib/build';
import { ask, forkServer } from './lib/measured-server';
import { rotate } from './lib/measure-throughput';
import { LoadProcess, childEnv } from './lib/processes';
import type { CannonJob } from './load';
import { median } from './lib/stats';
import {
  NEW_ITEM,
  TOKEN,
  generateApp,
  routerName,
  routesOf,
  writeHandWritten,
  type RouteRequest,
} from './migrate-app';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const ROUTES_PER_ROUTER = 10;
/** The router whose routes are measured per request: an odd one, whose POST and DELETE have no middleware. */
const MEASURED_ROUTER = 1;

const log = (line: string) => void process.stderr.write(`${line}\n`);

/** `npm run build` unless dist/ is newer than every file of src/. */
function ensureBuilt(): void {
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
        const full = path.join(dir, entry.name);
        return entry.isDirectory() ? newest(full) : statSync(full).mtimeMs;
      }),
    );
  const cli = path.join(ROOT, 'dist', 'cli.js');
  if (existsSync(cli) && statSync(cli).mtimeMs >= newest(path.join(ROOT, 'src'))) return;
  log('dist/ is older than src/: npm run build');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * `dir`'s node_modules as `npm install express express-file-endpoints` lays it out: the package
 * copied (its package.json and dist/), express and the package's dependencies linked to this
 * repository's.
 */
function install(dir: string): void {
  const modules = path.join(dir, 'node_modules');
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  for (const name of ['express', ...Object.keys(pkg.dependencies)]) {
    mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', name), path.join(modules, name), 'dir');
  }
  const installed = path.join(modules, 'express-file-endpoints');
  mkdirSync(installed);
  cpSync(path.join(ROOT, 'package.json'), path.join(installed, 'package.json'));
  cpSync(path.join(ROOT, 'dist'), path.join(installed, 'dist'), { recursive: true });
}

interface Scratch {
  root: string;
  /** The generated app, without node_modules: each run copies it. */
  template: string;
  requests: RouteRequest[];
  copies: number;
}

function freshCopy(scratch: Scratch): string {
  const dir = path.join(scratch.root, `copy-${scratch.copies++}`);
  cpSync(scratch.template, dir, { recursive: true });
  install(dir);
  return dir;
}

interface CommandRun {
  ms: number;
  /** When the command said it was checking the tree (after --write), in ms from spawn. */
  checkingAt?: number;
  code: number | null;
  output: string;
}

const CHECKING = 'Checking the tree:';

/** `node node_modules/express-file-endpoints/dist/cli.js <args>` in `dir`, from spawn to exit. */
function runCli(dir: string, args: string[]): Promise<CommandRun> {
  const cli = path.join(dir, 'node_modules', 'express-file-endpoints', 'dist', 'cli.js');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let checkingAt: number | undefined;
    let tail = '';
    const started = performance.now();
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: dir,
      env: childEnv({ NO_COLOR: '1', FORCE_COLOR: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (checkingAt !== undefined) return;
      const text = tail + chunk.toString('utf8');
      if (text.includes(CHECKING)) checkingAt = performance.now() - started;
      tail = text.slice(-CHECKING.length);
    });
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        ms: performance.now() - started,
        ...(checkingAt !== undefined ? { checkingAt } : {}),
        code,
        output: Buffer.concat(chunks).toString('utf8'),
      }),
    );
  });
}

interface Summary {
  found: number;
  moved: number;
  rewritten: number;
  asTheyWere: number;
  left: number;
  line: string;
}

function summaryOf(output: string): Summary | undefined {
  const match =
    /^(\d+) routes? found: (\d+) moved \((\d+) rewritten, (\d+) as they were\), (\d+) left\.$/m.exec(output);
  if (!match) return undefined;
  const [line, found, moved, rewritten, asTheyWere, left] = match;
  return {
    line,
    found: Number(found),
    moved: Number(moved),
    rewritten: Number(rewritten),
    asTheyWere: Number(asTheyWere),
    left: Number(left),
  };
}

/** The check's verdict after --write, e.g. "338 endpoints, 0 problems". */
const checkOf = (output: string) => /(\d+) endpoints?, (\d+) problems?/.exec(output)?.[0];

/** A route the command left where it was, as its plan lists it. */
interface Left {
  file: string;
  method: string;
  route: string;
  reason: string;
}

/** The plan's "Left where they are:" list. */
function leftOf(output: string): Left[] {
  const section = /^Left where they are:\n((?: {2}.*\n)+)/m.exec(output)?.[1] ?? '';
  return section
    .split('\n')
    .map((line) => /^ {2}(\S+):\d+ {2}(\S+) (\S+): (.*)$/.exec(line))
    .filter((match) => match !== null)
    .map(([, file, method, route, reason]) => ({
      file: file!,
      method: method!.toUpperCase(),
      route: route!,
      reason: reason!,
    }));
}

/** The plan's list of moved routes, as `METHOD /path`. */
const movedOf = (output: string) =>
  new Set([...output.matchAll(/^ {2}([A-Z]+) (\S+) -> /gm)].map(([, method, route]) => `${method} ${route}`));

interface CliResults {
  /** The routes the last write run left, with its reasons. */
  left: Left[];
  /** Routes of the app the last write run neither moved nor listed as left, as `METHOD /path`. */
  unlisted: string[];
  plan: CommandRun[];
  write: CommandRun[];
  summaries: (Summary | undefined)[];
  check: string | undefined;
  /** A copy the command wrote, for the answers and the per-request runs. */
  written: string;
  /** Routes still in the routers after --write: their method calls, `router.get(…)` or `.route(…).get(…)`. */
  routesLeftInRouters: number;
  endpointFiles: number;
  middlewareFiles: number;
}

function filesNamed(dir: string, name: string): number {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) count += filesNamed(path.join(dir, entry.name), name);
    else if (entry.name === name) count++;
  }
  return count;
}

async function measureCli(scratch: Scratch, runs: number, routers: number): Promise<CliResults> {
  const plan: CommandRun[] = [];
  const write: CommandRun[] = [];
  const summaries: (Summary | undefined)[] = [];
  let written: string | undefined;
  let check: string | undefined;
  for (let run = 0; run < runs; run++) {
    // The plan first in even runs, the write first in odd ones.
    const kinds = run % 2 === 0 ? (['plan', 'write'] as const) : (['write', 'plan'] as const);
    for (const kind of kinds) {
      const dir = freshCopy(scratch);
      const args =
        kind === 'plan' ? ['migrate', 'server.js'] : ['migrate', 'server.js', '--write', '--allow-dirty'];
      const result = await runCli(dir, args);
      const summary = summaryOf(result.output);
      summaries.push(summary);
      if (result.code !== 0)
        throw new Error(`migrate ${args.join(' ')} exited with ${result.code}:\n${result.output}`);
      if (kind === 'plan') {
        plan.push(result);
        mkdirSync(path.join(HERE, '.scratch'), { recursive: true });
        writeFileSync(path.join(HERE, '.scratch', 'migrate-plan.txt'), result.output);
        rmSync(dir, { recursive: true, force: true });
      } else {
        write.push(result);
        check = checkOf(result.output);
        if (written) rmSync(written, { recursive: true, force: true });
        written = dir;
      }
      log(
        `run ${run + 1} ${kind.padEnd(5)} ${(result.ms / 1000).toFixed(2)} s  ${summary?.line ?? 'no summary line'}` +
          (kind === 'write' ? `  ${check ?? 'no check line'}` : ''),
      );
    }
  }
  const routes = readdirSync(path.join(written!, 'routes')).map((file) =>
    readFileSync(path.join(written!, 'routes', file), 'utf8'),
  );
  const routesLeftInRouters = routes.reduce(
    (sum, text) => sum + (text.match(/\.(get|post|put|patch|delete|all)\(/g)?.length ?? 0),
    0,
  );
  const last = write[write.length - 1]!.output;
  const moved = movedOf(last);
  const left = leftOf(last);
  const unlisted = Array.from({ length: routers }, (_, i) => routesOf(i))
    .flat()
    .map(({ method, route }) => `${method} ${route}`)
    .filter((route) => !moved.has(route) && !left.some((l) => `${l.method} ${l.route}` === route));
  return {
    left,
    unlisted,
    plan,
    write,
    summaries,
    check,
    written: written!,
    routesLeftInRouters,
    endpointFiles: filesNamed(path.join(written!, 'app'), 'endpoint.js'),
    middlewareFiles: filesNamed(path.join(written!, 'app'), 'middleware.js'),
  };
}

interface Running {
  child: ChildProcess;
  url: string;
}

async function startServer(env: Record<string, string>): Promise<Running> {
  const child = forkServer(path.join(HERE, 'migrate-server.ts'), env);
  const { port } = await ask<{ port: number }>(child);
  return { child, url: `http://127.0.0.1:${port}` };
}

function stopServer({ child }: Running): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill();
  });
}

interface Answer {
  status: number;
  contentType: string | null;
  cacheControl: string | null;
  etag: string | null;
  body: string;
}

async function request(base: string, route: RouteRequest): Promise<Answer> {
  const response = await fetch(base + route.path, {
    method: route.method,
    headers: { authorization: TOKEN, ...(route.body ? { 'content-type': 'application/json' } : {}) },
    ...(route.body ? { body: route.body } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    cacheControl: response.headers.get('cache-control'),
    etag: response.headers.get('etag'),
    body: await response.text(),
  };
}

const shown = (route: RouteRequest) => `${route.method} ${route.path}`;

/** Every route of the original app and of the app the command wrote: the answers that differ. */
async function compareApps(original: string, written: string, requests: RouteRequest[]): Promise<string[]> {
  const before = await startServer({ APP_DIR: original, ENTRY: 'server.js' });
  const after = await startServer({ APP_DIR: written, ENTRY: 'server.js' });
  const differences: string[] = [];
  try {
    for (const route of requests) {
      const a = await request(before.url, route);
      const b = await request(after.url, route);
      for (const key of ['status', 'contentType', 'cacheControl', 'body'] as const) {
        if (a[key] !== b[key])
          differences.push(
            `${shown(route)}: ${key} ${JSON.stringify(b[key])}, was ${JSON.stringify(a[key])}`,
          );
      }
    }
  } finally {
    await Promise.all([stopServer(before), stopServer(after)]);
  }
  return differences;
}

const VARIANTS = [
  { id: 'generated', name: 'written by `migrate`', folder: 'generated' },
  { id: 'plain', name: 'by hand, `Response.json`', folder: 'hand-plain' },
  { id: 'helper', name: 'by hand, `json()` helper', folder: 'hand-helper' },
] as const;
type VariantId = (typeof VARIANTS)[number]['id'];

interface MeasuredRoute extends RouteRequest {
  id: string;
  name: string;
  /** The route as Express has it, as the command names the routes it leaves. */
  route: string;
}

function measuredRoutes(): MeasuredRoute[] {
  const base = `/api/${routerName(MEASURED_ROUTER)}`;
  return [
    {
      id: 'get',
      name: `\`GET ${base}/:id\`, a record as JSON`,
      route: `${base}/:id`,
      method: 'GET',
      path: `${base}/42`,
    },
    {
      id: 'search',
      name: `\`GET ${base}/search?q=\`, reads the query`,
      route: `${base}/search`,
      method: 'GET',
      path: `${base}/search?q=item%201`,
    },
    {
      id: 'post',
      name: `\`POST ${base}\`, the JSON body echoed, 201`,
      route: base,
      method: 'POST',
      path: base,
      body: NEW_ITEM,
    },
    {
      id: 'delete',
      name: `\`DELETE ${base}/:id\`, 204`,
      route: `${base}/:id`,
      method: 'DELETE',
      path: `${base}/42`,
    },
    {
      id: 'comment',
      name: `\`DELETE ${base}/:id/comments/:commentId\`, behind \`requireUser\`, 204`,
      route: `${base}/:id/comments/:commentId`,
      method: 'DELETE',
      path: `${base}/42/comments/7`,
    },
  ];
}

/** The measured routes' folders of the written tree, copied beside app/ (the paths to lib/ stay the same). */
function prepareTrees(written: string): void {
  const base = path.join('api', routerName(MEASURED_ROUTER));
  for (const folder of ['', 'search', '[id]', '[id]/comments/[commentId]']) {
    const from = path.join(written, 'app', base, folder);
    const to = path.join(written, 'generated', base, folder);
    mkdirSync(to, { recursive: true });
    if (!existsSync(from)) continue;
    for (const entry of readdirSync(from, { withFileTypes: true }))
      if (entry.isFile()) cpSync(path.join(from, entry.name), path.join(to, entry.name));
  }
  writeHandWritten(written, 'hand-plain', MEASURED_ROUTER, 'plain');
  writeHandWritten(written, 'hand-helper', MEASURED_ROUTER, 'helper');
}

interface Checked {
  /** The routes the written tree serves, to measure. */
  served: MeasuredRoute[];
  /** The others, and why. */
  skipped: string[];
  notes: string[];
}

/**
 * Each variant's answers to the measured routes, against the generated tree's: the same status, ETag
 * and body, and for the helper the same Content-Type too (`Response.json` sends `application/json`).
 * A route the command left in its router, or that the written tree does not serve, is not measured.
 */
async function checkVariants(written: string, routes: MeasuredRoute[], left: Left[]): Promise<Checked> {
  const notes: string[] = [];
  const served: MeasuredRoute[] = [];
  const skipped: string[] = [];
  const running = {} as Record<VariantId, Running>;
  try {
    for (const { id, folder } of VARIANTS)
      running[id] = await startServer({ APP_DIR: written, TREE: path.join(written, folder) });
    for (const route of routes) {
      const stays = left.find((l) => l.method === route.method && l.route === route.route);
      if (stays) {
        skipped.push(`${route.name}: left in its router by the command (“${stays.reason}”)`);
        continue;
      }
      const generated = await request(running.generated.url, route);
      if (generated.status >= 300) {
        skipped.push(
          `${route.name}: not in the written tree (it answered ${generated.status}), nor listed as left`,
        );
        continue;
      }
      served.push(route);
      for (const { id } of VARIANTS.slice(1)) {
        const answer = await request(running[id].url, route);
        const keys = ['status', 'etag', 'body', 'contentType'] as const;
        for (const key of id === 'plain' ? keys.slice(0, 3) : keys)
          if (answer[key] !== generated[key])
            throw new Error(
              `${id}: ${shown(route)} ${key} ${JSON.stringify(answer[key])}, generated ${JSON.stringify(generated[key])}`,
            );
        if (id === 'plain' && answer.contentType !== generated.contentType)
          notes.push(
            `${shown(route)}: Content-Type ${answer.contentType}, generated ${generated.contentType}`,
          );
      }
    }
  } finally {
    await Promise.all(Object.values(running).map(stopServer));
  }
  return { served, skipped, notes };
}

type Samples = Record<string, Record<VariantId, number[]>>;

async function measureRequests(
  written: string,
  routes: MeasuredRoute[],
  rounds: number,
  duration: number,
  warmup: number,
  slice: number,
): Promise<Samples> {
  const samples: Samples = Object.fromEntries(
    routes.map((route) => [route.id, { generated: [], plain: [], helper: [] }]),
  );
  await buildBench();
  const load = new LoadProcess();
  await load.ready;
  try {
    for (let round = 0; round < rounds; round++) {
      const order = rotate(VARIANTS, round);
      const running = {} as Record<VariantId, Running>;
      try {
        // Fresh processes every round: copies of one server differ from one process to the next.
        for (const { id, folder } of order)
          running[id] = await startServer({ APP_DIR: written, TREE: path.join(written, folder) });
        for (const route of routes) {
          const jobs = {} as Record<VariantId, Omit<CannonJob, 'id' | 'duration'>>;
          for (const { id } of order) {
            jobs[id] = {
              type: 'cannon',
              url: running[id].url + route.path,
              method: route.method,
              headers: {
                authorization: TOKEN,
                ...(route.body ? { 'content-type': 'application/json' } : {}),
              },
              ...(route.body ? { body: route.body } : {}),
              connections: 10,
            };
            await load.run({ ...jobs[id], duration: warmup });
          }
          // The measured time in slices that alternate between the variants, so that whatever else the
          // machine does in those seconds weighs on all of them alike.
          const cpu = { generated: 0, plain: 0, helper: 0 };
          const served = { generated: 0, plain: 0, helper: 0 };
          const slices = Math.max(1, Math.round(duration / slice));
          for (let i = 0; i < slices; i++) {
            for (const { id } of rotate(order, i)) {
              const before = await ask<{ cpu: number }>(running[id].child, 'cpu');
              const result = await load.run({ ...jobs[id], duration: duration / slices });
              const after = await ask<{ cpu: number }>(running[id].child, 'cpu');
              if (result.non2xx + result.errors + result.timeouts > 0)
                throw new Error(
                  `${id} ${shown(route)}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
                );
              cpu[id] += after.cpu - before.cpu;
              served[id] += result.total;
            }
          }
          for (const { id } of order) samples[route.id]![id].push(cpu[id] / Math.max(1, served[id]));
        }
      } finally {
        await Promise.all(Object.values(running).map(stopServer));
      }
      const line = routes
        .map(
          (route) =>
            `${route.id} ${VARIANTS.map(({ id }) => samples[route.id]![id][round]!.toFixed(1)).join('/')}`,
        )
        .join('  ');
      log(`round ${round + 1}/${rounds}  µs CPU per request (generated/plain/helper): ${line}`);
    }
  } finally {
    load.close();
  }
  return samples;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
/** `low–high unit`: `format` gives the number and its unit, apart. */
const spread = (values: number[], format: (n: number) => [string, string]) => {
  const [low] = format(Math.min(...values));
  const [high, unit] = format(Math.max(...values));
  return `${low}–${high}${unit}`;
};
const inSeconds = (ms: number): [string, string] => [(ms / 1000).toFixed(2), ' s'];
const inTimes = (n: number): [string, string] => [n.toFixed(2), '×'];
const times = (n: number) => `${n.toFixed(2)}×`;

/** The write runs' medians before and after the command said it was checking the tree. */
function checkSplit(runs: CommandRun[]): string {
  const split = runs.filter((run) => run.checkingAt !== undefined);
  if (split.length === 0) return 'The write runs did not say when they started checking the tree.';
  const before = median(split.map((run) => run.checkingAt!));
  const after = median(split.map((run) => run.ms - run.checkingAt!));
  return (
    `Of a write run, ${seconds(before)} (median) went by until it printed “${CHECKING}” (the plan made and the files ` +
    `written), and ${seconds(after)} from there to exit (the check).`
  );
}

/** How many routes the routers still hold after --write, against the number the plan listed as left. */
function stillInRouters({ routesLeftInRouters: still, left }: CliResults): string {
  const more = still - left.length;
  return `${still} routes still in the routers (${
    more === 0
      ? 'the ones listed as left'
      : `the ${left.length} listed as left, and ${more} ${more > 0 ? 'more' : 'fewer'}`
  })`;
}

/** The routes left, one line per reason (the router's name made rNN), with how many. */
function leftSummary(left: Left[]): string {
  if (left.length === 0) return '';
  const byReason = new Map<string, number>();
  for (const route of left) {
    const line = `\`${route.method} ${route.route}\`: ${route.reason}`.replace(/\br\d{2}\b/g, 'rNN');
    byReason.set(line, (byReason.get(line) ?? 0) + 1);
  }
  return `\nThe routes the command left where they were, and why (its own words):\n\n${[...byReason]
    .map(([line, count]) => `- ${count} × ${line}`)
    .join('\n')}\n`;
}

/** The routes neither moved nor listed as left, one line per route of a router (rNN), with how many. */
function unlistedSummary(unlisted: string[]): string {
  if (unlisted.length === 0) return '';
  const byRoute = new Map<string, string[]>();
  for (const route of unlisted) {
    const name = /\br\d{2}\b/.exec(route)?.[0] ?? '';
    const key = route.replace(/\br\d{2}\b/g, 'rNN');
    byRoute.set(key, [...(byRoute.get(key) ?? []), name]);
  }
  return `\nRoutes the plan neither moved nor listed as left (they stay in their routers, unnamed):\n\n${[
    ...byRoute,
  ]
    .map(([route, names]) => `- ${names.length} × \`${route}\` (${names.join(', ')})`)
    .join('\n')}\n`;
}

function cliSection(cli: CliResults, routes: number, routers: number, differences: string[]): string {
  const row = (what: string, runs: CommandRun[]) => {
    const ms = runs.map((run) => run.ms);
    return `| ${what} | ${seconds(median(ms))} | ${spread(ms, inSeconds)} | ${runs.length} |`;
  };
  const worst = Math.max(...cli.plan.map((run) => run.ms), ...cli.write.map((run) => run.ms));
  const allMoved = cli.summaries.every(
    (summary) => summary && summary.found === routes && summary.moved === routes && summary.left === 0,
  );
  const lines = [...new Set(cli.summaries.map((summary) => summary?.line ?? 'no summary line'))];
  const unaccounted = cli.summaries.filter(
    (summary) => summary && summary.moved + summary.left !== summary.found,
  ).length;
  const targets = [
    [
      `plan and write each finish in ≤ 5 s (${routes} routes, ${routers} router files)`,
      worst <= 5000,
      `slowest run ${seconds(worst)}`,
    ],
    [`all ${routes} routes moved, in every run`, allMoved, lines.map((line) => `“${line}”`).join(', ')],
    [
      'every route found is moved or listed as left',
      unaccounted === 0,
      unaccounted === 0 ? 'in every run' : `not in ${unaccounted} of ${cli.summaries.length} runs`,
    ],
    [
      'the written app answers every route as the original did',
      differences.length === 0,
      `${routes - new Set(differences.map((d) => d.split(':')[0])).size} of ${routes} the same`,
    ],
  ] as const;
  return `## The command

An Express 5 app in CommonJS: ${routers} router files (\`routes/r00.js\` …), ${ROUTES_PER_ROUTER} routes each (5 GET, 2 POST,
1 PUT, 2 DELETE: \`res.json\`, \`res.status(201).json(req.body)\`, \`res.sendStatus(204)\`, \`res.status(204).end()\`,
\`res.set(…).json\`, \`req.params\`, \`req.query\`, a \`requireUser\` guard on some, \`await\` and \`next(err)\` in some,
\`router.route('/:id')\` in some), mounted in \`server.js\` behind \`express.json()\`. Each run on a fresh copy; the time
is from process start to exit of \`node node_modules/express-file-endpoints/dist/cli.js …\` (npx's own start is not in it).

| Command | Median | Range | Runs |
| --- | ---: | ---: | ---: |
${row('`migrate server.js`: the plan and the diff', cli.plan)}
${row('`migrate server.js --write --allow-dirty`: written, then checked', cli.write)}

${checkSplit(cli.write)}

After \`--write\`: ${cli.endpointFiles} endpoint files and ${cli.middlewareFiles} \`middleware.js\`, ${cli.check ?? 'no check line'};
${stillInRouters(cli)}. The written app and the original, each in its own process,
answered one request per route with the same status, Content-Type, Cache-Control and body for ${routes - new Set(differences.map((d) => d.split(':')[0])).size} of ${routes} routes.
${differences.length ? `\n${differences.map((d) => `- ${d}`).join('\n')}\n` : ''}${leftSummary(cli.left)}${unlistedSummary(cli.unlisted)}
| Target | Met | Figure |
| --- | --- | --- |
${targets.map(([what, met, figure]) => `| ${what} | ${met ? 'yes' : '**no**'} | ${figure} |`).join('\n')}
`;
}

const COUNTS = ['no', 'one', 'two', 'three', 'four', 'five', 'six'];

function requestSection(
  samples: Samples,
  { served: routes, skipped, notes }: Checked,
  chosen: number,
  rounds: number,
  duration: number,
  warmup: number,
  slice: number,
): string {
  const intro = `${COUNTS[chosen] ?? chosen} routes of \`routes/${routerName(MEASURED_ROUTER)}.js\` (one behind \`requireUser\`, which moves with it)`;
  const skippedText = skipped.length
    ? `\n\nNot measured:\n\n${skipped.map((line) => `- ${line}`).join('\n')}`
    : '';
  if (routes.length === 0)
    return `## Per request\n\nNone of the ${intro} is in the written tree: nothing measured.${skippedText}\n`;
  const ratios = (to: VariantId, route?: string) => {
    const ids = route ? [route] : routes.map((r) => r.id);
    const perRound = (id: VariantId, round: number) =>
      ids.reduce((sum, r) => sum + samples[r]![id][round]!, 0) / ids.length;
    return Array.from({ length: rounds }, (_, round) => perRound('generated', round) / perRound(to, round));
  };
  const ratioCell = (to: VariantId, route?: string) => {
    const values = ratios(to, route);
    return `${times(median(values))} (${spread(values, inTimes)})`;
  };
  const us = (route: string, id: VariantId) => `${median(samples[route]![id]).toFixed(1)} µs`;
  const rows = routes.map(
    (route) =>
      `| ${route.name} | ${VARIANTS.map(({ id }) => us(route.id, id)).join(' | ')} | ${ratioCell('plain', route.id)} | ${ratioCell('helper', route.id)} |`,
  );
  const mean = (id: VariantId) =>
    median(
      Array.from(
        { length: rounds },
        (_, round) => routes.reduce((sum, route) => sum + samples[route.id]![id][round]!, 0) / routes.length,
      ),
    );
  const all = `| **the ${COUNTS[routes.length] ?? routes.length} measured, equal numbers** | ${VARIANTS.map(({ id }) => `${mean(id).toFixed(1)} µs`).join(' | ')} | ${ratioCell('plain')} | ${ratioCell('helper')} |`;
  const targets = (['plain', 'helper'] as const).map((to) => {
    const value = median(ratios(to));
    const name = VARIANTS.find((variant) => variant.id === to)!.name;
    return `| generated endpoints cost no more per request than hand-written ones (${name}) | ${value <= 1 ? 'yes' : '**no**'} | ${ratioCell(to)} |`;
  });
  return `## Per request

${intro[0]!.toUpperCase()}${intro.slice(1)}, as \`migrate\` wrote them and as written by hand following docs/migrating.md: with \`Response.json\` as its table writes it, and with its
\`json()\` helper, which sends \`res.json\`'s Content-Type (\`application/json; charset=utf-8\`) as the generated files do.
Each tree is mounted with \`mountEndpoints(app, { dir })\` in an Express 5 app behind \`express.json()\`, in a process of
its own; autocannon, 10 connections, ${duration} s per route, variant and round, in slices of ${slice} s that alternate between
the variants, after a ${warmup} s warm-up each; ${rounds} rounds, fresh processes each round. Server CPU time (user + system) per request: medians over rounds; ratios are generated ÷ hand-written, the
median of same-round ratios (range over rounds in brackets). Every variant answered the same status, ETag and body as
the generated one${notes.length ? `, and the same Content-Type but for \`Response.json\`'s \`application/json\`` : ''}.${skippedText}

| Route | ${VARIANTS.map((variant) => variant.name).join(' | ')} | ratio to \`Response.json\` | ratio to \`json()\` |
| --- | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}
${all}

| Target | Met | Figure |
| --- | --- | --- |
${targets.join('\n')}
`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      routers: { type: 'string', default: '50' },
      runs: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '8' },
      duration: { type: 'string', default: '2' },
      warmup: { type: 'string', default: '1' },
      slice: { type: 'string', default: '0.5' },
      only: { type: 'string' },
    },
  });
  const routers = Number(values.routers);
  const runs = Number(values.runs);
  const rounds = Number(values.rounds);
  const duration = Number(values.duration);
  const warmup = Number(values.warmup);
  const slice = Number(values.slice);
  const only = values.only;
  if (only !== undefined && only !== 'cli' && only !== 'requests')
    throw new Error('--only cli or --only requests');
  if (routers <= MEASURED_ROUTER) throw new Error(`--routers must be more than ${MEASURED_ROUTER}`);
  const routes = routers * ROUTES_PER_ROUTER;
  const full =
    only === undefined &&
    routers === 50 &&
    runs >= 5 &&
    rounds >= 8 &&
    duration >= 2 &&
    warmup >= 1 &&
    slice <= 0.5;

  ensureBuilt();
  const root = mkdtempSync(path.join(os.tmpdir(), 'bench-migrate-'));
  try {
    const scratch: Scratch = { root, template: path.join(root, 'template'), requests: [], copies: 0 };
    scratch.requests = generateApp(scratch.template, routers);
    const sections: string[] = [];

    // Only the per-request part: one --write, not timed.
    const cli = await measureCli(scratch, only === 'requests' ? 1 : runs, routers);
    if (only !== 'requests') {
      const differences = await compareApps(freshCopy(scratch), cli.written, scratch.requests);
      for (const difference of differences) log(`differs: ${difference}`);
      sections.push(cliSection(cli, routes, routers, differences));
    }
    if (only !== 'cli') {
      const measured = measuredRoutes();
      prepareTrees(cli.written);
      const checked = await checkVariants(cli.written, measured, cli.left);
      for (const line of checked.skipped) log(`not measured: ${line}`);
      const samples = checked.served.length
        ? await measureRequests(cli.written, checked.served, rounds, duration, warmup, slice)
        : {};
      sections.push(requestSection(samples, checked, measured.length, rounds, duration, warmup, slice));
    }

    const cpus = os.cpus();
    const markdown = `# migrate: 500 routes, and what the endpoints it writes cost

Written by \`bench/migrate.ts\`: Node ${process.versions.node}, ${cpus[0]?.model.trim() ?? 'unknown CPU'} × ${cpus.length}, ${new Date().toISOString().slice(0, 10)}.
Reproduce with \`node scripts/node-versions.mjs run 24 -- npx tsx bench/migrate.ts\`${full ? '' : ` (this run: \`--routers ${routers} --runs ${runs} --rounds ${rounds} --duration ${duration} --warmup ${warmup} --slice ${slice}${only ? ` --only ${only}` : ''}\`)`}.

${sections.join('\n')}`;
    const out = full
      ? path.join(HERE, 'migrate-results.md')
      : path.join(HERE, '.scratch', 'migrate-results.md');
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, markdown);
    console.log(markdown);
    log(`written to ${path.relative(ROOT, out)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
