/**
 * The driver's command line, parsed once. The options a run was made with are saved in
 * results.json and the report reads them from there, never from the current command, so that
 * `--rerender` describes the saved run.
 */
import path from 'node:path';
import type { RunOptions } from './results';
import { BENCH_DIR } from './trees';

export const USAGE = `usage: npm run bench -- [options]

  --quick              1 round, 0.5 s warm-up + 1 s runs: for development, indicative only
  --only a,b,…         some scenarios (a–f) only
  --rounds N           interleaved rounds (default 3; quick: 1)
  --duration S         seconds measured per variant and round (default 3; quick: 1)
  --node 22|24|26      run every process on that pinned Node (default 24)
  --processes N        server processes per variant, each measured every round (default 2; quick: 1):
                       copies of one build differ by up to 15% between processes
  --semi-space MiB     pin the servers' young generation at this size (--min/max-semi-space-size), so
                       that GC does not size it differently per variant; results.md says it was used
  --cross-version      scenario (a) once per supported Node, into results-cross.json
  --rerender           rebuild results.md from the saved JSON only (nothing is measured)
  --out DIR            where results go (default bench/; a --quick or --only run: bench/.scratch/results)
  --help               this text`;

/** What the command line asks for: what a saved run records (RunOptions), and how to run it. */
export interface Options extends RunOptions {
  startupRuns: number;
  crossVersion: boolean;
  rerender: boolean;
  /** Where results.json, results-cross.json and results.md are written (and read by --rerender). */
  out: string;
}

const KNOWN = new Set([
  'quick',
  'only',
  'rounds',
  'duration',
  'node',
  'cross-version',
  'rerender',
  'out',
  'processes',
  'semi-space',
  'help',
]);
const TAKES_VALUE = new Set(['only', 'rounds', 'duration', 'node', 'out', 'processes', 'semi-space']);
/** A variant's first measurement is warmed up this many times longer than the next ones. */
export const FIRST_WARMUP_FACTOR = 3;

export const SCENARIO_IDS = ['a', 'b', 'c', 'd', 'e', 'f'];
export const SCRATCH_RESULTS = path.join(BENCH_DIR, '.scratch', 'results');

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

export function parseOptions(argv: string[]): Options {
  const given = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]!.replace(/^--/, '');
    if (!argv[i]!.startsWith('--') || !KNOWN.has(name)) fail(`unknown argument ${argv[i]}`);
    if (!TAKES_VALUE.has(name)) {
      given.set(name, true);
      continue;
    }
    const value = argv[++i];
    if (value === undefined || value.startsWith('--')) fail(`--${name} needs a value`);
    given.set(name, value);
  }
  if (given.has('help')) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const text = (name: string) => {
    const value = given.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  const number = (name: string, fallback: number) => {
    const value = Number(text(name) ?? fallback);
    if (!(value > 0)) fail(`--${name} must be a positive number`);
    return value;
  };
  const quick = given.has('quick');
  const crossVersion = given.has('cross-version');
  const only = crossVersion ? ['a'] : (text('only') ?? SCENARIO_IDS.join(',')).split(',');
  for (const id of only) if (!SCENARIO_IDS.includes(id)) fail(`unknown scenario ${id}`);
  // A partial or quick run must never overwrite the full results the README quotes.
  const partial = quick || (given.has('only') && !crossVersion);
  return {
    quick,
    rounds: number('rounds', quick ? 1 : 3),
    duration: number('duration', quick ? 1 : 3),
    warmup: quick ? 0.5 : 1,
    connections: 10,
    only,
    startupRuns: quick ? 1 : 3,
    node: text('node') ?? '24',
    processes: number('processes', quick ? 1 : 2),
    ...(given.has('semi-space') ? { semiSpace: number('semi-space', 16) } : {}),
    crossVersion,
    rerender: given.has('rerender'),
    out: path.resolve(text('out') ?? (partial ? SCRATCH_RESULTS : BENCH_DIR)),
  };
}

/** Node flags for the measured server processes. */
export function serverFlags(options: RunOptions): string[] {
  if (options.semiSpace === undefined) return [];
  return [`--min-semi-space-size=${options.semiSpace}`, `--max-semi-space-size=${options.semiSpace}`];
}

/** The command that makes a run with these options. */
export function commandOf(options: RunOptions, extra: string[] = []): string {
  const args = [...extra];
  if (options.quick) args.push('--quick');
  if (!extra.includes('--cross-version') && options.only.join(',') !== SCENARIO_IDS.join(','))
    args.push('--only', options.only.join(','));
  if (options.rounds !== (options.quick ? 1 : 3)) args.push('--rounds', String(options.rounds));
  if (options.duration !== (options.quick ? 1 : 3)) args.push('--duration', String(options.duration));
  if (options.node !== '24') args.push('--node', options.node);
  // A run saved before the option existed measured one process per variant.
  const processes = options.processes ?? 1;
  if (processes !== (options.quick ? 1 : 2)) args.push('--processes', String(processes));
  if (options.semiSpace !== undefined) args.push('--semi-space', String(options.semiSpace));
  return `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`;
}
