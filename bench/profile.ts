/**
 * `npx tsx bench/profile.ts <variant> [scenario] [seconds]`: CPU profile of one bench server under
 * load, e.g. `npx tsx bench/profile.ts ee-node a 8`.
 *
 * Starts the variant with `node --cpu-prof`, drives it with autocannon from the load process,
 * stops it (the profile is written on exit, into bench/.scratch/profiles, which git ignores) and
 * prints the functions with the most self time, and the share of time spent under a few
 * functions of interest.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { BUILD, buildBench } from './lib/build';
import { LoadProcess, startServer } from './lib/processes';
import { BENCH_DIR, generateTrees } from './lib/trees';
import { THROUGHPUT } from './scenarios';
import type { ServerConfig } from './server';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

async function main(): Promise<void> {
  const [variant = 'ee-node', scenario = 'a', seconds = '8'] = process.argv.slice(2);
  // The very request the driver measures, from the scenarios file.
  const target = THROUGHPUT.find((s) => s.id === scenario);
  if (!target) throw new Error(`scenario ${scenario}: profile.ts drives the request scenarios, a–d`);
  const dir = path.join(BENCH_DIR, '.scratch', 'profiles');
  rmSync(dir, { recursive: true, force: true });
  await buildBench();
  if (scenario === 'd') generateTrees();
  const server = await startServer({ scenario: scenario as ServerConfig['scenario'], variant }, [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
  ]);
  const load = new LoadProcess();
  await load.ready;
  const result = await load.run({
    type: 'cannon',
    url: server.url + target.path,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections: 10,
    duration: Number(seconds),
  });
  load.close();
  await server.stop();
  console.log(`${variant} (${scenario}): ${Math.round(result.requestsPerSecond)} req/s under the profiler\n`);
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
  summarise(
    JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile,
    path.relative(process.cwd(), BUILD),
  );
  console.log(`\nprofile: ${path.relative(process.cwd(), path.join(dir, file))}`);
}

function summarise(profile: CpuProfile, build: string): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfTime = new Map<number, number>();
  profile.samples.forEach((id, i) =>
    selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  // Percentages of the time the process was busy: `(idle)` is waiting for the load process, and
  // `writev` mostly the time the kernel spends handing bytes to it (and scheduling it) on loopback.
  const busy = (n: ProfileNode) => n.callFrame.functionName !== '(idle)';
  const total = [...selfTime].filter(([id]) => busy(byId.get(id)!)).reduce((a, [, t]) => a + t, 0);
  const name = (n: ProfileNode) => {
    const url = n.callFrame.url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '');
    const where = url ? ` ${url.replace(build + '/', '')}:${n.callFrame.lineNumber + 1}` : '';
    return `${n.callFrame.functionName || '(anonymous)'}${where}`;
  };
  const self = new Map<string, number>();
  for (const [id, time] of selfTime) {
    if (!busy(byId.get(id)!)) continue;
    const key = name(byId.get(id)!);
    self.set(key, (self.get(key) ?? 0) + time);
  }
  console.log('self time (share of busy time), top 40:');
  for (const [key, time] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`  ${((time / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
  }

  // Inclusive time of a few functions of interest (each sample counted once per function name).
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  for (const [id, time] of selfTime) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const fn = byId.get(at)!.callFrame.functionName;
      if (fn && !seen.has(fn)) {
        seen.add(fn);
        inclusive.set(fn, (inclusive.get(fn) ?? 0) + time);
      }
    }
  }
  const interesting = [
    'handleNodeRequest',
    'sendWebResponse',
    'copyHeaders',
    'runRoute',
    'requestUrl',
    'json',
    'GET',
    'POST',
    'handle',
    'next',
    'writeHead',
    'end',
    'garbage collector',
  ];
  console.log('\ninclusive time:');
  for (const fn of interesting) {
    const time =
      inclusive.get(fn) ?? (fn === 'garbage collector' ? self.get('(garbage collector)') : undefined);
    if (time) console.log(`  ${((time / total) * 100).toFixed(1).padStart(5)}%  ${fn}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
