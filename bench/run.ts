/**
 * `npm run bench [-- --quick] [-- --only a,b] [-- --rounds N] [-- --duration S] [-- --node 24]`:
 * the benchmark driver. It runs on Node 24 unless `--node` names another supported version (the
 * same pinned binaries as the test matrix, from scripts/node-versions.mjs); `--rerender` rebuilds
 * results.md from results.json.
 *
 * Builds the servers with esbuild (bench/.scratch/build), generates the large trees, then for each
 * scenario starts every variant in its own process on 127.0.0.1 and measures them round by round,
 * interleaved (the order rotates each round), with autocannon running in a separate load process.
 * Before each measurement the variant's answer is checked byte for byte (status + body) against
 * what the scenario must return; a variant that answers differently is reported, not measured.
 * Writes bench/results.md and bench/results.json.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BIG_BYTES,
  CHUNK_SIZE,
  ECHO_BODY,
  FILL_BYTE,
  HELLO,
  LAST_ROUTE,
  STREAM_CHUNKS,
  routeBody,
  routeName,
} from './lib/payloads';
import { BUILD, buildBench } from './lib/build';
import { LoadProcess, ROOT, ask, childEnv, startServer, type RunningServer } from './lib/processes';
import { fmtInt, fmtMiB, fmtMs, fmtRatio, median } from './lib/stats';
import { BENCH_DIR, generateTrees, treeDir } from './lib/trees';
import { describeVariant } from './lib/variants';
import { nodeBinDir } from '../scripts/node-versions.mjs';

// --- options ------------------------------------------------------------------------------------

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? undefined : argv[i + 1];
};

// Every process of the run (driver, servers, load, startup) uses the chosen Node: re-run under it.
const NODE_MAJOR = option('node') ?? '24';
if (process.versions.node.split('.')[0] !== NODE_MAJOR) {
  const bin = nodeBinDir(NODE_MAJOR);
  const rerun = spawnSync(path.join(bin, 'node'), [...process.execArgv, process.argv[1]!, ...argv], {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
  });
  process.exit(rerun.status ?? 1);
}
const QUICK = flag('quick');
const ROUNDS = Number(option('rounds') ?? (QUICK ? 1 : 3));
const DURATION = Number(option('duration') ?? (QUICK ? 1 : 3));
const WARMUP = QUICK ? 0.5 : 1;
const CONNECTIONS = 10;
const ONLY = new Set((option('only') ?? 'a,b,c,d,e,f').split(','));
const STARTUP_RUNS = QUICK ? 1 : 3;

// --- scenarios ----------------------------------------------------------------------------------

interface Expected {
  status: number;
  body: Buffer;
}

interface ThroughputScenario {
  id: 'a' | 'b' | 'c' | 'd';
  title: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  expected: Expected;
  variants: string[];
  /** The variant every ratio column is relative to. */
  baseline: string;
  notes?: string;
}

interface Target {
  scenario: string;
  what: string;
  variant: string;
  vs: string;
  min: number;
}

const json = (value: unknown): Expected => ({ status: 200, body: Buffer.from(JSON.stringify(value)) });

const THROUGHPUT: ThroughputScenario[] = [
  {
    id: 'a',
    title: '(a) GET, small JSON',
    method: 'GET',
    path: '/api/hello',
    expected: json(HELLO),
    variants: [
      'node-raw',
      'node-response',
      'express5-floor',
      'express5-response',
      'express5-native',
      'ee-express5',
      'hono-express5',
      'honoNoGlobals-express5',
      'whatwg-express5',
      'express4-floor',
      'express4-native',
      'ee-express4',
      'ee-node',
      'hono-node',
      'honoNoGlobals-node',
    ],
    baseline: 'express5-native',
  },
  {
    id: 'b',
    title: '(b) POST, 1 KiB JSON echoed',
    method: 'POST',
    path: '/api/echo',
    headers: { 'content-type': 'application/json' },
    body: ECHO_BODY,
    expected: { status: 200, body: Buffer.from(ECHO_BODY) },
    variants: [
      'node-raw',
      'express5-native+json',
      'ee-express5',
      'ee-express5+json',
      'hono-express5',
      'hono-express5+json',
      'honoNoGlobals-express5',
      'whatwg-express5',
      'whatwg-express5+json',
      'express4-native+json',
      'ee-node',
      'hono-node',
    ],
    baseline: 'express5-native+json',
    notes: '`+json`: `express.json()` runs before the route or bridge, so the body arrives already parsed.',
  },
  {
    id: 'c',
    title: '(c) GET, 1 MiB streamed response (16 × 64 KiB, chunked)',
    method: 'GET',
    path: '/api/stream',
    expected: { status: 200, body: Buffer.alloc(CHUNK_SIZE * STREAM_CHUNKS, FILL_BYTE) },
    variants: [
      'node-raw',
      'express5-native',
      'ee-express5',
      'hono-express5',
      'whatwg-express5',
      'ee-node',
      'hono-node',
    ],
    baseline: 'express5-native',
  },
  {
    id: 'd',
    title: `(d) 1,000 endpoints vs 1: GET /api/${routeName(LAST_ROUTE)}/42, the route Express tries last`,
    method: 'GET',
    path: `/api/${routeName(LAST_ROUTE)}/42`,
    expected: json(routeBody(LAST_ROUTE, '42')),
    variants: [
      'ee-express5@one',
      'ee-express5@many',
      'express5-native@one',
      'express5-native@many',
      'ee-node@one',
      'ee-node@many',
    ],
    baseline: 'ee-express5@one',
  },
];

const TARGETS: Target[] = [
  { scenario: 'a', what: '(a) GET in Express 5', variant: 'ee-express5', vs: 'express5-native', min: 1.1 },
  { scenario: 'a', what: '(a) GET in Express 5', variant: 'ee-express5', vs: 'hono-express5', min: 1.05 },
  { scenario: 'a', what: '(a) GET in Express 5', variant: 'ee-express5', vs: 'whatwg-express5', min: 1.5 },
  { scenario: 'a', what: '(a) GET in Express 5', variant: 'ee-express5', vs: 'express5-floor', min: 0.9 },
  { scenario: 'a', what: '(a) GET on node:http', variant: 'ee-node', vs: 'hono-node', min: 1.05 },
  { scenario: 'a', what: '(a) GET on node:http', variant: 'ee-node', vs: 'node-raw', min: 0.7 },
  {
    scenario: 'b',
    what: '(b) POST 1 KiB JSON',
    variant: 'ee-express5',
    vs: 'express5-native+json',
    min: 1.2,
  },
  { scenario: 'b', what: '(b) POST 1 KiB JSON', variant: 'ee-express5', vs: 'hono-express5', min: 1.05 },
  {
    scenario: 'd',
    what: '(d) 1,000 endpoints',
    variant: 'ee-express5@many',
    vs: 'ee-express5@one',
    min: 0.95,
  },
];

/** Same bars, not in the issue's table: Express 4, and the bridge without Express. */
const EXTRA_TARGETS: Target[] = [
  { scenario: 'a', what: '(a) GET in Express 4', variant: 'ee-express4', vs: 'express4-native', min: 1.1 },
  { scenario: 'a', what: '(a) GET in Express 4', variant: 'ee-express4', vs: 'express4-floor', min: 0.9 },
  {
    scenario: 'b',
    what: '(b) POST in Express 4',
    variant: 'ee-express5',
    vs: 'express4-native+json',
    min: 1.2,
  },
  {
    scenario: 'b',
    what: '(b) POST behind `express.json()`',
    variant: 'ee-express5+json',
    vs: 'express5-native+json',
    min: 1.0,
  },
  { scenario: 'b', what: '(b) POST on node:http', variant: 'ee-node', vs: 'hono-node', min: 1.05 },
  // Peers held to our constraint: @hono/node-server without replacing the global Request/Response.
  {
    scenario: 'a',
    what: '(a) GET in Express 5, hono without global patching',
    variant: 'ee-express5',
    vs: 'honoNoGlobals-express5',
    min: 1.05,
  },
  {
    scenario: 'a',
    what: '(a) GET on node:http, hono without global patching',
    variant: 'ee-node',
    vs: 'honoNoGlobals-node',
    min: 1.05,
  },
  {
    scenario: 'b',
    what: '(b) POST in Express 5, hono without global patching',
    variant: 'ee-express5',
    vs: 'honoNoGlobals-express5',
    min: 1.05,
  },
  {
    scenario: 'd',
    what: '(d) 1,000 endpoints, node:http',
    variant: 'ee-node@many',
    vs: 'ee-node@one',
    min: 0.95,
  },
];

// --- byte check ---------------------------------------------------------------------------------

interface CheckResult {
  ok: boolean;
  detail: string;
}

async function checkBytes(url: string, scenario: ThroughputScenario): Promise<CheckResult> {
  try {
    const response = await fetch(url + scenario.path, {
      method: scenario.method,
      headers: scenario.headers,
      body: scenario.body,
      signal: AbortSignal.timeout(5000),
    });
    const body = Buffer.from(await response.arrayBuffer());
    const ok = response.status === scenario.expected.status && body.equals(scenario.expected.body);
    const shown =
      body.length > 80
        ? `${body.length} bytes, sha256 ${hash(body).slice(0, 12)}`
        : JSON.stringify(body.toString());
    return { ok, detail: `${response.status} ${shown}` };
  } catch (error) {
    return { ok: false, detail: `no answer (${(error as Error).message})` };
  }
}

const hash = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

// --- throughput scenarios -------------------------------------------------------------------------

interface Sample {
  round: number;
  requestsPerSecond: number;
  p99: number;
  /** Server CPU time (user + system) per request, in µs: robust to a busy machine, unlike req/s. */
  cpuPerRequest: number;
  non2xx: number;
  errors: number;
}

interface VariantResult {
  variant: string;
  label: string;
  samples: Sample[];
  /** Set when the variant's bytes were wrong in any round. */
  wrongBytes?: string;
  requestsPerSecond: number;
  p99: number;
  cpuPerRequest: number;
  /** Median over rounds of (this round's req/s / the baseline's req/s in the same round). */
  ratio: number;
}

interface ScenarioResult {
  id: string;
  title: string;
  baseline: string;
  notes?: string;
  expected: string;
  variants: VariantResult[];
}

const log = (line: string) => process.stderr.write(`${line}\n`);

async function runThroughput(scenario: ThroughputScenario, load: LoadProcess): Promise<ScenarioResult> {
  log(`\n${scenario.title}`);
  const servers = new Map<string, RunningServer>();
  for (const variant of scenario.variants) {
    servers.set(variant, await startServer({ scenario: scenario.id, variant }));
  }
  const samples = new Map<string, Sample[]>(scenario.variants.map((v) => [v, []]));
  const wrong = new Map<string, string>();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order each round, so no variant always runs first (or right after another).
      const order = scenario.variants.map(
        (_, i) => scenario.variants[(i + round) % scenario.variants.length]!,
      );
      for (const variant of order) {
        const url = servers.get(variant)!.url;
        const check = await checkBytes(url, scenario);
        if (!check.ok) {
          wrong.set(variant, check.detail);
          log(`  round ${round + 1} ${variant.padEnd(24)} WRONG BYTES: ${check.detail}`);
          continue;
        }
        const job = {
          type: 'cannon' as const,
          url: url + scenario.path,
          method: scenario.method,
          headers: scenario.headers,
          body: scenario.body,
          connections: CONNECTIONS,
        };
        await load.run({ ...job, duration: WARMUP });
        const server = servers.get(variant)!;
        await ask(server.child, { type: 'cpu-start' }, 'cpu-started');
        const result = await load.run({ ...job, duration: DURATION });
        const cpu = await ask<{ micros: number }>(server.child, { type: 'cpu-stop' }, 'cpu');
        samples.get(variant)!.push({
          round,
          requestsPerSecond: result.requestsPerSecond,
          p99: result.p99,
          cpuPerRequest: cpu.micros / Math.max(1, result.total),
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
        });
        const flagged =
          result.non2xx + result.errors + result.timeouts > 0
            ? ` (non-2xx ${result.non2xx}, errors ${result.errors + result.timeouts})`
            : '';
        log(
          `  round ${round + 1} ${variant.padEnd(24)} ${fmtInt(result.requestsPerSecond).padStart(7)} req/s  p99 ${result.p99} ms  ${(cpu.micros / Math.max(1, result.total)).toFixed(1)} µs CPU/req${flagged}`,
        );
      }
    }
  } finally {
    await Promise.all([...servers.values()].map((s) => s.stop()));
  }

  const baseline = samples.get(scenario.baseline)!;
  const variants = scenario.variants.map((variant): VariantResult => {
    const own = samples.get(variant)!;
    const ratios = own
      .map(
        (s) =>
          s.requestsPerSecond / (baseline.find((b) => b.round === s.round)?.requestsPerSecond ?? Number.NaN),
      )
      .filter(Number.isFinite);
    const result: VariantResult = {
      variant,
      label: describeVariant(variant),
      samples: own,
      requestsPerSecond: median(own.map((s) => s.requestsPerSecond)),
      p99: median(own.map((s) => s.p99)),
      cpuPerRequest: median(own.map((s) => s.cpuPerRequest)),
      ratio: median(ratios),
    };
    const bad = wrong.get(variant);
    if (bad !== undefined) result.wrongBytes = bad;
    return result;
  });
  const expected = scenario.expected.body;
  return {
    id: scenario.id,
    title: scenario.title,
    baseline: scenario.baseline,
    ...(scenario.notes ? { notes: scenario.notes } : {}),
    expected: `${scenario.expected.status}, ${expected.length} bytes${expected.length <= 80 ? ` ${expected.toString()}` : ''}`,
    variants,
  };
}

/** Median over rounds of variant / vs, both from the same round. */
function pairRatio(result: ScenarioResult, variant: string, vs: string): number {
  const a = result.variants.find((v) => v.variant === variant);
  const b = result.variants.find((v) => v.variant === vs);
  if (!a || !b || a.wrongBytes) return Number.NaN;
  const ratios = a.samples
    .map(
      (s) =>
        s.requestsPerSecond / (b.samples.find((x) => x.round === s.round)?.requestsPerSecond ?? Number.NaN),
    )
    .filter(Number.isFinite);
  return median(ratios);
}

// --- (e) startup ----------------------------------------------------------------------------------

interface StartupRow {
  tree: string;
  case: string;
  runs: number[];
  total: number;
  discover?: number;
  validate?: number;
  load?: number;
  validationShare?: number;
  limit: number;
}

function runStartupProcess(mode: 'mount' | 'phases', dir: string, tmp?: string): Record<string, number> {
  const result = spawnSync(
    process.execPath,
    [path.join(BUILD, 'startup.mjs'), JSON.stringify({ mode, dir })],
    {
      cwd: ROOT,
      env: childEnv(tmp ? { TMPDIR: tmp } : {}),
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`startup (${mode}, ${dir}) failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as Record<string, number>;
}

function runStartup(): StartupRow[] {
  log('\n(e) startup');
  const rows: StartupRow[] = [];
  const jsDir = treeDir('many-js');
  const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'ee-bench-'));
  try {
    // JavaScript. Node 20 keeps no compile cache between processes, so "cold" (the first process
    // after the tree was written) and "warm" differ only by what the OS has cached.
    const jsCold = runStartupProcess('mount', jsDir).total!;
    const jsWarm = Array.from({ length: STARTUP_RUNS }, () => runStartupProcess('mount', jsDir).total!);
    const jsPhases = Array.from({ length: STARTUP_RUNS }, () => runStartupProcess('phases', jsDir));
    rows.push({ tree: 'JavaScript', case: 'cold', runs: [jsCold], total: jsCold, limit: 500 });
    rows.push({
      tree: 'JavaScript',
      case: 'warm',
      runs: jsWarm,
      total: median(jsWarm),
      limit: 500,
      ...phases(jsPhases),
    });

    rows.push(
      ...typeScriptRows('TypeScript (ES module package)', treeDir('many-ts'), path.join(tmpRoot, 'esm')),
    );
    rows.push(
      ...typeScriptRows('TypeScript (CommonJS package)', treeDir('many-ts-cjs'), path.join(tmpRoot, 'cjs')),
    );
  } finally {
    rmSync(tmpRoot, { recursive: true, force: true });
  }
  for (const row of rows)
    log(`  ${row.tree} ${row.case}: ${fmtMs(row.total)} ms (runs ${row.runs.map(fmtMs).join(', ')})`);
  return rows;
}

/**
 * TypeScript, loaded through tsx (registered by the library): import() and tsx's ESM hooks in an
 * ES module package, require() and its in-thread CommonJS hook in a CommonJS one. Cold: tsx's
 * transform cache is empty (a fresh TMPDIR per run); warm: the cache of an earlier run.
 */
function typeScriptRows(tree: string, dir: string, tmpRoot: string): StartupRow[] {
  const cold = Array.from({ length: STARTUP_RUNS }, (_, i) => {
    const tmp = path.join(tmpRoot, `cold-${i}`);
    mkdirSync(tmp, { recursive: true });
    return runStartupProcess('mount', dir, tmp).total!;
  });
  const warmTmp = path.join(tmpRoot, 'warm');
  mkdirSync(warmTmp, { recursive: true });
  runStartupProcess('mount', dir, warmTmp);
  const warm = Array.from({ length: STARTUP_RUNS }, () => runStartupProcess('mount', dir, warmTmp).total!);
  const warmPhases = Array.from({ length: STARTUP_RUNS }, () => runStartupProcess('phases', dir, warmTmp));
  return [
    { tree, case: 'cold', runs: cold, total: median(cold), limit: 2000 },
    { tree, case: 'warm', runs: warm, total: median(warm), limit: 2000, ...phases(warmPhases) },
  ];
}

function phases(runs: Record<string, number>[]) {
  const discover = median(runs.map((r) => r.discover!));
  const validate = median(runs.map((r) => r.validate!));
  const load = median(runs.map((r) => r.load!));
  return { discover, validate, load, validationShare: validate / (discover + load) };
}

// --- (f) big transfers ----------------------------------------------------------------------------

const TRANSFER_VARIANTS = ['node-raw', 'ee-node', 'ee-express5', 'hono-node'];

interface TransferRow {
  variant: string;
  label: string;
  direction: 'upload' | 'download';
  seconds: number[];
  growth: number[];
  mibPerSecond: number;
  peakGrowth: number;
  ratio: number;
  wrongBytes?: string;
}

async function runTransfers(load: LoadProcess): Promise<TransferRow[]> {
  log('\n(f) 256 MiB upload and download');
  const rows: TransferRow[] = [];
  const expected = {
    upload: JSON.stringify({ bytes: BIG_BYTES }),
    download: `${BIG_BYTES} bytes, all 'a'`,
  };
  for (const direction of ['upload', 'download'] as const) {
    const byVariant = new Map<string, { seconds: number[]; growth: number[]; wrong?: string }>(
      TRANSFER_VARIANTS.map((v) => [v, { seconds: [], growth: [] }]),
    );
    for (let round = 0; round < ROUNDS; round++) {
      const order = TRANSFER_VARIANTS.map(
        (_, i) => TRANSFER_VARIANTS[(i + round) % TRANSFER_VARIANTS.length]!,
      );
      for (const variant of order) {
        // A fresh process each time, so the peak RSS it reports belongs to this transfer.
        const server = await startServer({ scenario: 'f', variant });
        try {
          await fetch(`${server.url}/api/hello`).then((r) => r.arrayBuffer());
          await ask(server.child, { type: 'mem-start' }, 'mem-started');
          const result = await load.run({ type: direction, url: `${server.url}/api/${direction}` });
          const mem = await ask<{ before: number; peak: number }>(server.child, { type: 'mem-stop' }, 'mem');
          const entry = byVariant.get(variant)!;
          // The transfer's own bytes, checked on the measured transfer itself.
          if (result.status !== 200 || result.body !== expected[direction]) {
            entry.wrong = `${result.status} ${result.body.slice(0, 80)}`;
            log(`  round ${round + 1} ${direction} ${variant.padEnd(14)} WRONG BYTES: ${entry.wrong}`);
            continue;
          }
          entry.seconds.push(result.seconds);
          entry.growth.push(mem.peak - mem.before);
          log(
            `  round ${round + 1} ${direction} ${variant.padEnd(14)} ${(BIG_BYTES / 1048576 / result.seconds).toFixed(0).padStart(5)} MiB/s  peak RSS +${fmtMiB(mem.peak - mem.before)} MiB`,
          );
        } finally {
          await server.stop();
        }
      }
    }
    const raw = byVariant.get('node-raw')!;
    for (const [variant, entry] of byVariant) {
      // Per-round ratios against raw node:http in the same round.
      const ratios = entry.seconds.map((s, i) => (raw.seconds[i] ?? Number.NaN) / s).filter(Number.isFinite);
      const row: TransferRow = {
        variant,
        label: describeVariant(variant),
        direction,
        seconds: entry.seconds,
        growth: entry.growth,
        mibPerSecond: BIG_BYTES / 1048576 / median(entry.seconds),
        peakGrowth: Math.max(...entry.growth),
        ratio: median(ratios),
      };
      if (entry.wrong) row.wrongBytes = entry.wrong;
      rows.push(row);
    }
  }
  return rows;
}

// --- report ---------------------------------------------------------------------------------------

interface TargetRow {
  what: string;
  target: string;
  measured: string;
  met: boolean;
  extra?: boolean;
}

function machine() {
  const version = (name: string) => {
    try {
      return (
        JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version;
    } catch {
      return 'not installed';
    }
  };
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout
  }
  const own = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memory: `${Math.round(os.totalmem() / 1024 ** 3)} GiB`,
    os: `${os.type()} ${os.release()}`,
    loadAverage: os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' '),
    node: process.version,
    undici: process.versions.undici,
    packages: {
      'express-endpoints': `${own.version} (${commit})`,
      express: version('express'),
      express4: version('express4'),
      '@hono/node-server': version('@hono/node-server'),
      hono: version('hono'),
      '@whatwg-node/server': version('@whatwg-node/server'),
      autocannon: version('autocannon'),
    },
  };
}

function targetRows(results: ScenarioResult[], startup: StartupRow[], transfers: TransferRow[]): TargetRow[] {
  const rows: TargetRow[] = [];
  for (const [list, extra] of [
    [TARGETS, false],
    [EXTRA_TARGETS, true],
  ] as const) {
    for (const t of list) {
      const result = results.find((r) => r.id === t.scenario);
      if (!result) continue;
      const ratio = pairRatio(result, t.variant, t.vs);
      rows.push({
        what: t.what,
        target: `${describeVariant(t.variant)} ≥ ${t.min.toFixed(2)}× ${describeVariant(t.vs)}`,
        measured: fmtRatio(ratio),
        met: ratio >= t.min,
        extra,
      });
    }
  }
  for (const row of startup) {
    rows.push({
      what: '(e) startup, 1,000 endpoints',
      target: `${row.tree} ${row.case} ≤ ${row.limit / 1000} s`,
      measured: `${fmtMs(row.total)} ms`,
      met: row.total <= row.limit,
    });
    if (row.validationShare !== undefined) {
      rows.push({
        what: '(e) startup, 1,000 endpoints',
        target: `${row.tree}: validation adds ≤ 20% to discovery + loading`,
        measured: `${(row.validationShare * 100).toFixed(1)}% (${fmtMs(row.validate!)} ms)`,
        met: row.validationShare <= 0.2,
      });
    }
  }
  for (const row of transfers) {
    if (row.variant === 'node-raw' || row.variant === 'hono-node') continue;
    rows.push({
      what: `(f) 256 MiB ${row.direction}`,
      target: `${describeVariant(row.variant)}: throughput ≥ 0.80× raw node:http piping`,
      measured: row.wrongBytes ? `wrong bytes` : fmtRatio(row.ratio),
      met: !row.wrongBytes && row.ratio >= 0.8,
    });
    rows.push({
      what: `(f) 256 MiB ${row.direction}`,
      target: `${describeVariant(row.variant)}: peak RSS growth ≤ 64 MiB`,
      measured: `${fmtMiB(row.peakGrowth)} MiB`,
      met: !row.wrongBytes && row.peakGrowth <= 64 * 1024 * 1024,
    });
  }
  return rows;
}

function markdown(
  info: ReturnType<typeof machine>,
  results: ScenarioResult[],
  startup: StartupRow[],
  transfers: TransferRow[],
  targets: TargetRow[],
): string {
  const out: string[] = [];
  out.push('# Benchmark results', '');
  out.push(
    `Generated by \`npm run bench${QUICK ? ' -- --quick' : ''}\` on ${new Date().toISOString().slice(0, 10)}. ` +
      `${info.cpu}, ${info.cores} cores, ${info.memory}; ${info.os}; Node ${info.node} (undici ${info.undici}); ` +
      `load average at the end ${info.loadAverage}.`,
    '',
    `Packages: ${Object.entries(info.packages)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
    `Method: every variant runs in its own process on 127.0.0.1; autocannon (${CONNECTIONS} connections, no pipelining) runs in ` +
      `a separate load process. ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}, variants interleaved within each round (the order rotates), ` +
      `${WARMUP} s warm-up + ${DURATION} s measured per variant and round. Before each measurement the variant's answer ` +
      'is checked against the bytes the scenario must return (status + body). req/s and p99 are medians over rounds; ' +
      '**ratios are medians of same-round ratios**, which is what the targets are about: the machine is shared and ' +
      'absolute numbers drift, ratios much less. See bench/README.md.',
    '',
  );
  if (QUICK) out.push('> Quick mode: 1 round, short runs. Indicative only.', '');

  out.push('## Targets', '', '| scenario | target | measured | |', '|---|---|---|---|');
  for (const t of targets.filter((t) => !t.extra))
    out.push(`| ${t.what} | ${t.target} | ${t.measured} | ${t.met ? '**met**' : '**missed**'} |`);
  const extras = targets.filter((t) => t.extra);
  if (extras.length > 0) {
    out.push('', 'The same bars applied where the issue sets none (for information):', '');
    out.push('| scenario | bar | measured | |', '|---|---|---|---|');
    for (const t of extras)
      out.push(`| ${t.what} | ${t.target} | ${t.measured} | ${t.met ? 'met' : 'missed'} |`);
  }
  out.push('');

  for (const result of results) {
    out.push(`## ${result.title}`, '');
    out.push(`Expected answer: ${result.expected}. Ratio: against **${describeVariant(result.baseline)}**.`);
    if (result.notes) out.push('', result.notes);
    out.push('', '| variant | req/s | p99 (ms) | ratio | server CPU µs/req |', '|---|---:|---:|---:|---:|');
    for (const v of result.variants) {
      if (v.wrongBytes && v.samples.length === 0) {
        out.push(`| ${v.label} | wrong bytes: ${v.wrongBytes.replace(/\|/g, '\\|')} | | |`);
        continue;
      }
      const bad = v.samples.some((s) => s.non2xx + s.errors > 0) ? ' ⚠ non-2xx/errors' : '';
      out.push(
        `| ${v.label}${bad} | ${fmtInt(v.requestsPerSecond)} | ${fmtMs(v.p99)} | ${fmtRatio(v.ratio)} | ${v.cpuPerRequest.toFixed(1)} |`,
      );
    }
    out.push('');
  }

  if (startup.length > 0) {
    out.push('## (e) Startup: discover + validate + load 1,000 endpoints', '');
    out.push(
      '`mountEndpoints({ dir })` then `await .ready`, timed inside a fresh process (module import of the library itself not included). ' +
        'Phases are measured in separate processes running the same steps one by one.',
      '',
      '| tree | case | total (median) | runs | discover | validate (both passes) | load | validation / (discover + load) |',
      '|---|---|---:|---|---:|---:|---:|---:|',
    );
    for (const row of startup) {
      out.push(
        `| ${row.tree} | ${row.case} | ${fmtMs(row.total)} ms | ${row.runs.map(fmtMs).join(', ')} | ${row.discover === undefined ? '' : `${fmtMs(row.discover)} ms`} | ${row.validate === undefined ? '' : `${fmtMs(row.validate)} ms`} | ${row.load === undefined ? '' : `${fmtMs(row.load)} ms`} | ${row.validationShare === undefined ? '' : `${(row.validationShare * 100).toFixed(1)}%`} |`,
      );
    }
    out.push('');
  }

  if (transfers.length > 0) {
    out.push('## (f) 256 MiB upload and download', '');
    out.push(
      'One transfer per variant and round, each in a fresh server process; the load process streams or reads the 256 MiB ' +
        "(every downloaded byte compared). Peak RSS growth: the server process's peak RSS during the transfer (the kernel's high-water " +
        'mark `VmHWM`, reset just before it, and 5 ms sampling) minus its RSS before it. ' +
        'Ratio: against raw node:http piping in the same round.',
      '',
      '| direction | variant | MiB/s (median) | ratio | peak RSS growth (max over rounds) |',
      '|---|---|---:|---:|---:|',
    );
    for (const row of transfers) {
      if (row.wrongBytes && row.seconds.length === 0) {
        out.push(`| ${row.direction} | ${row.label} | wrong bytes: ${row.wrongBytes} | | |`);
        continue;
      }
      out.push(
        `| ${row.direction} | ${row.label} | ${row.mibPerSecond.toFixed(0)} | ${fmtRatio(row.ratio)} | ${fmtMiB(row.peakGrowth)} MiB |`,
      );
    }
    out.push('');
  }
  return out.join('\n');
}

// --- main -----------------------------------------------------------------------------------------

/** `--rerender`: rebuild results.md from results.json (after a change to the report's layout). */
function rerender(): void {
  const saved = JSON.parse(readFileSync(path.join(BENCH_DIR, 'results.json'), 'utf8')) as {
    machine: ReturnType<typeof machine>;
    scenarios: ScenarioResult[];
    startup: StartupRow[];
    transfers: TransferRow[];
  };
  const targets = targetRows(saved.scenarios, saved.startup, saved.transfers);
  writeFileSync(
    path.join(BENCH_DIR, 'results.md'),
    `${markdown(saved.machine, saved.scenarios, saved.startup, saved.transfers, targets)}\n`,
  );
}

async function main(): Promise<void> {
  if (flag('rerender')) return rerender();
  const started = Date.now();
  log(`building servers into ${path.relative(ROOT, BUILD)} ...`);
  await buildBench();
  generateTrees();

  const load = new LoadProcess();
  await load.ready;
  const results: ScenarioResult[] = [];
  let startup: StartupRow[] = [];
  let transfers: TransferRow[] = [];
  try {
    for (const scenario of THROUGHPUT) {
      if (ONLY.has(scenario.id)) results.push(await runThroughput(scenario, load));
    }
    if (ONLY.has('e')) startup = runStartup();
    if (ONLY.has('f')) transfers = await runTransfers(load);
  } finally {
    load.close();
  }

  const info = machine();
  const targets = targetRows(results, startup, transfers);
  // A partial run (`--only`) must not overwrite the full results the README quotes.
  const file = (name: string) => path.join(option('only') ? BUILD : BENCH_DIR, name);
  writeFileSync(
    file('results.json'),
    `${JSON.stringify({ date: new Date().toISOString(), quick: QUICK, rounds: ROUNDS, duration: DURATION, warmup: WARMUP, connections: CONNECTIONS, machine: info, targets, scenarios: results, startup, transfers }, null, 2)}\n`,
  );
  writeFileSync(file('results.md'), `${markdown(info, results, startup, transfers, targets)}\n`);
  log(
    `\nwrote ${path.relative(ROOT, file('results.md'))} and results.json in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const t of targets) log(`  ${t.met ? 'met   ' : 'MISSED'} ${t.what}: ${t.target} — ${t.measured}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
