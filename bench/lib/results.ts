/**
 * The saved results: what results.json and results-cross.json hold, how to read them back (an
 * older results.json is upgraded on the way in), the machine description saved with a run, and
 * the one same-round ratio every table and target uses.
 *
 * Measuring saves raw samples only; every median and ratio is computed by the report from these
 * files, so a re-render and the run itself cannot disagree.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from './stats';
import { BENCH_DIR } from './trees';

const ROOT = path.resolve(BENCH_DIR, '..');

export interface Sample {
  round: number;
  requestsPerSecond: number;
  p99: number;
  /** Server CPU time (user + system) per request, in µs: the median of the variant's processes. */
  cpuPerRequest: number;
  /** Each of the variant's server processes' CPU µs per request this round (absent from older runs). */
  processes?: number[];
  /** Bytes allocated on the JavaScript heap per request (absent from older runs). */
  allocatedPerRequest?: number;
  /** Time in GC pauses per request, in µs (absent from older runs). */
  gcPerRequest?: number;
  non2xx: number;
  errors: number;
}

export interface VariantResult {
  variant: string;
  label: string;
  samples: Sample[];
  /** Set when the variant's bytes were wrong in any round. */
  wrongBytes?: string;
}

export interface ScenarioResult {
  id: string;
  title: string;
  baseline: string;
  notes?: string;
  /** The bytes every variant had to answer, in words. */
  expected: string;
  variants: VariantResult[];
}

export interface StartupRow {
  tree: string;
  case: 'cold' | 'warm';
  runs: number[];
  /** Median of `runs`, in ms. */
  total: number;
  /** Phases (ms), measured by separate processes running the steps one by one. */
  discover?: number;
  validate?: number;
  load?: number;
}

/** (e) From process start to the first answered request: see measure-first-answer.ts. */
export interface FirstAnswerRow {
  variant: string;
  runs: number[];
  /** Median of `runs`, in ms. */
  total: number;
}

/**
 * The first-answer rows and when and where they were measured: bench/first-answer-run.ts measures them alone
 * and adds them to a saved run, whose other figures keep their own date and machine.
 */
export interface FirstAnswerRun {
  date: string;
  machine: Machine;
  rows: FirstAnswerRow[];
}

export interface TransferSample {
  round: number;
  seconds: number;
  /** Peak RSS growth during the transfer, in bytes. */
  growth: number;
}

export interface TransferResult {
  variant: string;
  label: string;
  direction: 'upload' | 'download';
  samples: TransferSample[];
  wrongBytes?: string;
}

/** The options a run is saved with: the report describes the run from these alone. */
export interface RunOptions {
  quick: boolean;
  rounds: number;
  duration: number;
  warmup: number;
  connections: number;
  /** Scenario ids to run, in the order given by the scenarios file. */
  only: string[];
  node: string;
  /** Server processes per variant, each measured every round (absent from older runs: 1). */
  processes?: number;
  /** The young generation pinned at this many MiB in server processes (`--semi-space`); absent: V8's sizing. */
  semiSpace?: number;
}

export type Machine = ReturnType<typeof describeMachine>;

export interface SavedRun {
  schema: 2;
  date: string;
  options: RunOptions;
  machine: Machine;
  scenarios: ScenarioResult[];
  startup: StartupRow[];
  /** Absent from runs saved before it was measured. */
  firstAnswer?: FirstAnswerRun;
  transfers: TransferResult[];
}

/** `npm run bench -- --cross-version`: scenario (a), one run per Node version. */
export interface SavedCross {
  schema: 2;
  date: string;
  options: RunOptions;
  runs: SavedRun[];
}

/** Median over rounds of value(a) / value(b), both taken from the same round. */
export function sameRoundRatio<T extends { round: number }>(
  a: readonly T[],
  b: readonly T[],
  value: (sample: T) => number,
): number {
  const ratios = a.map((s) => {
    const other = b.find((x) => x.round === s.round);
    return other ? value(s) / value(other) : Number.NaN;
  });
  return median(ratios.filter(Number.isFinite));
}

export const cpuOf = (s: Sample): number => s.cpuPerRequest;
export const rpsOf = (s: Sample): number => s.requestsPerSecond;

export function readRun(file: string): SavedRun | undefined {
  if (!existsSync(file)) return undefined;
  return upgrade(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
}

export function readCross(file: string): SavedCross | undefined {
  if (!existsSync(file)) return undefined;
  const saved = JSON.parse(readFileSync(file, 'utf8')) as SavedCross;
  return { ...saved, runs: saved.runs.map((run) => upgrade(run as unknown as Record<string, unknown>)) };
}

/** results.json before schema 2 kept the options at the top level and transfers as bare arrays. */
function upgrade(saved: Record<string, unknown>): SavedRun {
  if (saved.schema === 2) return saved as unknown as SavedRun;
  const old = saved as {
    date: string;
    quick: boolean;
    rounds: number;
    duration: number;
    warmup: number;
    connections: number;
    machine: Machine;
    scenarios: ScenarioResult[];
    startup: (StartupRow & { limit?: number })[];
    transfers: (Omit<TransferResult, 'samples'> & { seconds: number[]; growth: number[] })[];
  };
  const only = [...old.scenarios.map((s) => s.id)];
  if (old.startup.length > 0) only.push('e');
  if (old.transfers.length > 0) only.push('f');
  return {
    schema: 2,
    date: old.date,
    options: {
      quick: old.quick,
      rounds: old.rounds,
      duration: old.duration,
      warmup: old.warmup,
      connections: old.connections,
      only,
      node: old.machine.node.replace(/^v/, '').split('.')[0]!,
    },
    machine: old.machine,
    scenarios: old.scenarios.map((s) => ({
      ...s,
      variants: s.variants.map((v) => ({
        variant: v.variant,
        label: v.label,
        samples: v.samples,
        ...(v.wrongBytes ? { wrongBytes: v.wrongBytes } : {}),
      })),
    })),
    startup: old.startup.map(({ limit: _limit, ...row }) => row),
    transfers: old.transfers.map((t) => ({
      variant: t.variant,
      label: t.label,
      direction: t.direction,
      // Rounds were not recorded; a variant that answered wrong bytes has no samples at all.
      samples: t.seconds.map((seconds, round) => ({ round, seconds, growth: t.growth[round]! })),
      ...(t.wrongBytes ? { wrongBytes: t.wrongBytes } : {}),
    })),
  };
}

/** The machine and software a run was made with, saved with it (the report quotes this only). */
export function describeMachine() {
  const version = (name: string) => {
    try {
      const file = path.join(ROOT, 'node_modules', name, 'package.json');
      return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
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
    packages: Object.fromEntries([
      ['express-file-endpoints', `${own.version} (${commit})`],
      ...[
        'express',
        'express4',
        '@hono/node-server',
        'hono',
        '@whatwg-node/server',
        'srvx',
        '@remix-run/node-fetch-server',
        'autocannon',
      ].map((name) => [name, version(name)]),
    ]) as Record<string, string>,
  };
}
