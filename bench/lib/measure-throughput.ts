/**
 * Measuring scenarios (a)–(d): every variant in its own server process, measured round by round
 * in an order that rotates, by autocannon in the load process. Before each measurement the
 * variant's answer is compared byte for byte (status + body) with what the scenario must return;
 * a variant that answers differently is recorded, not measured.
 *
 * Returns raw samples only: medians and ratios are the report's job.
 */
import { createHash } from 'node:crypto';
import type { ThroughputScenario } from '../scenarios';
import { FIRST_WARMUP_FACTOR, serverFlags, type Options } from './options';
import { LoadProcess, ask, startServer, type RunningServer } from './processes';
import type { Sample, ScenarioResult } from './results';
import { fmtInt, median } from './stats';
import { REPLACES_GLOBALS, describeVariant } from './variants';

export const log = (line: string): void => void process.stderr.write(`${line}\n`);

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
        ? `${body.length} bytes, sha256 ${createHash('sha256').update(body).digest('hex').slice(0, 12)}`
        : JSON.stringify(body.toString());
    return { ok, detail: `${response.status} ${shown}` };
  } catch (error) {
    return { ok: false, detail: `no answer (${(error as Error).message})` };
  }
}

export function describeExpected(scenario: ThroughputScenario): string {
  const body = scenario.expected.body;
  return `${scenario.expected.status}, ${body.length} bytes${body.length <= 80 ? ` ${body.toString()}` : ''}`;
}

/** Asked after a request has gone through, since a library may swap them on first use. */
async function replacesGlobals(server: RunningServer): Promise<boolean> {
  return (await ask<{ replaced: boolean }>(server.child, { type: 'globals' }, 'globals')).replaced;
}

/** The variants in a different order each round, so no variant always runs first or after another. */
export const rotate = <T>(list: readonly T[], round: number): T[] =>
  list.map((_, i) => list[(i + round) % list.length]!);

/** One process's measurement: the load generator's figures and the server's CPU, heap and GC. */
interface Measured {
  requestsPerSecond: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  cpu: { micros: number; allocated: number; gcMicros: number };
}

/** A round of one variant: each of its processes measured in turn, the figures their medians. */
async function measureRound(
  scenario: ThroughputScenario,
  servers: RunningServer[],
  load: LoadProcess,
  options: Options,
  round: number,
): Promise<Sample> {
  const runs: Measured[] = [];
  for (const server of servers) runs.push(await measureOnce(scenario, server, load, options, round));
  const perRequest = (value: (run: Measured) => number) =>
    median(runs.map((run) => value(run) / Math.max(1, run.total)));
  const processes = runs.map((run) => run.cpu.micros / Math.max(1, run.total));
  return {
    round,
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p99: median(runs.map((run) => run.p99)),
    cpuPerRequest: median(processes),
    processes,
    allocatedPerRequest: perRequest((run) => run.cpu.allocated),
    gcPerRequest: perRequest((run) => run.cpu.gcMicros),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}

async function measureOnce(
  scenario: ThroughputScenario,
  server: RunningServer,
  load: LoadProcess,
  options: Options,
  round: number,
): Promise<Measured> {
  const job = {
    type: 'cannon' as const,
    url: server.url + scenario.path,
    method: scenario.method,
    headers: scenario.headers,
    body: scenario.body,
    connections: options.connections,
  };
  // A server's first warm-up also warms its JIT and heap, which 1 s did not finish: every variant's
  // first round read 20-40% higher than its next ones.
  const warmup = round === 0 ? options.warmup * FIRST_WARMUP_FACTOR : options.warmup;
  await load.run({ ...job, duration: warmup });
  await ask(server.child, { type: 'cpu-start' }, 'cpu-started');
  const result = await load.run({ ...job, duration: options.duration });
  const cpu = await ask<Measured['cpu']>(server.child, { type: 'cpu-stop' }, 'cpu');
  return {
    requestsPerSecond: result.requestsPerSecond,
    p99: result.p99,
    total: result.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpu,
  };
}

export async function measureThroughput(
  scenario: ThroughputScenario,
  load: LoadProcess,
  options: Options,
): Promise<ScenarioResult> {
  log(`\n${scenario.title}`);
  const servers = new Map<string, RunningServer[]>();
  const samples = new Map<string, Sample[]>(scenario.variants.map((v) => [v, []]));
  const wrong = new Map<string, string>();
  const refused = new Set<string>();
  try {
    for (const variant of scenario.variants) {
      const copies: RunningServer[] = [];
      for (let i = 0; i < (options.processes ?? 1); i++) {
        copies.push(await startServer({ scenario: scenario.id, variant }, serverFlags(options)));
      }
      servers.set(variant, copies);
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const variant of rotate(scenario.variants, round)) {
        const copies = servers.get(variant)!;
        const server = copies[0]!;
        const check = await checkBytes(server.url, scenario);
        if (!check.ok) {
          wrong.set(variant, check.detail);
          log(`  round ${round + 1} ${variant.padEnd(24)} WRONG BYTES: ${check.detail}`);
          continue;
        }
        if (round === 0) {
          const replaced = await replacesGlobals(server);
          if (replaced !== REPLACES_GLOBALS.has(variant)) {
            refused.add(variant);
            wrong.set(
              variant,
              replaced
                ? 'replaced the global Request/Response without being labelled as doing so'
                : 'labelled as replacing the global Request/Response, but did not',
            );
            log(`  ${variant} REFUSED: ${wrong.get(variant)}`);
          }
        }
        if (refused.has(variant)) continue;
        const sample = await measureRound(scenario, copies, load, options, round);
        samples.get(variant)!.push(sample);
        const flagged =
          sample.non2xx + sample.errors > 0 ? ` (non-2xx ${sample.non2xx}, errors ${sample.errors})` : '';
        log(
          `  round ${round + 1} ${variant.padEnd(24)} ${sample.cpuPerRequest.toFixed(1).padStart(6)} µs CPU/req  ` +
            `${fmtInt(sample.requestsPerSecond).padStart(7)} req/s  p99 ${sample.p99} ms  ` +
            `${((sample.allocatedPerRequest ?? 0) / 1024).toFixed(1)} KB/req  GC ${(sample.gcPerRequest ?? 0).toFixed(1)} µs/req${flagged}`,
        );
      }
    }
  } finally {
    await Promise.all([...servers.values()].flat().map((s) => s.stop()));
  }
  return {
    id: scenario.id,
    title: scenario.title,
    baseline: scenario.baseline,
    ...(scenario.notes ? { notes: scenario.notes } : {}),
    expected: describeExpected(scenario),
    variants: scenario.variants.map((variant) => {
      const bad = wrong.get(variant);
      return {
        variant,
        label: describeVariant(variant),
        samples: samples.get(variant)!,
        ...(bad === undefined ? {} : { wrongBytes: bad }),
      };
    }),
  };
}
