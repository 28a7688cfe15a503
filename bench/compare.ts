/**
 * `npx tsx bench/compare.ts [options] <variant>[:kept] …`: a few variants of one scenario, side by
 * side, for working on the library. The first variant is the reference for the ratios.
 *
 *   npx tsx bench/compare.ts --keep before            # bundle the current source, keep it as "before"
 *   npx tsx bench/compare.ts ee-node:before ee-node node-response --rounds 8
 *   npx tsx bench/compare.ts ee-express5 express5-readfloor --semi-space 16   # young generation pinned
 *
 * `variant:name` runs the variant from a kept bundle, so a change is measured against the code
 * before it in the same run. Each round measures every variant once, in a rotating order; the
 * figure is server CPU per request, and a ratio is the median of the same-round ratios.
 * Runs on the node that runs it: start it with `node scripts/node-versions.mjs run 24 -- npx tsx …`.
 */
import { cpSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BUILD, buildBench } from './lib/build';
import { FIRST_WARMUP_FACTOR } from './lib/options';
import { LoadProcess, ask, startServer, type RunningServer } from './lib/processes';
import { median } from './lib/stats';
import { BENCH_DIR, generateTrees } from './lib/trees';
import { THROUGHPUT } from './scenarios';
import type { ServerConfig } from './server';

const KEPT = path.join(BENCH_DIR, '.scratch', 'builds');

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      scenario: { type: 'string', default: 'a' },
      rounds: { type: 'string', default: '6' },
      duration: { type: 'string', default: '2' },
      keep: { type: 'string' },
      'semi-space': { type: 'string' },
    },
  });
  const pinned = values['semi-space'];
  const semiSpace = pinned ? [`--min-semi-space-size=${pinned}`, `--max-semi-space-size=${pinned}`] : [];
  await buildBench();
  if (values.keep) {
    const to = path.join(KEPT, values.keep);
    rmSync(to, { recursive: true, force: true });
    cpSync(BUILD, to, { recursive: true });
    console.log(`kept the current bundle as "${values.keep}"`);
    if (positionals.length === 0) return;
  }
  const scenario = THROUGHPUT.find((s) => s.id === values.scenario);
  if (!scenario) throw new Error(`scenario ${values.scenario}: compare.ts drives the request scenarios, a–d`);
  if (scenario.id === 'd') generateTrees();
  const rounds = Number(values.rounds);
  const duration = Number(values.duration);

  const servers = new Map<string, RunningServer>();
  const samples = new Map<string, number[]>(positionals.map((v) => [v, []]));
  // Heap bytes and GC pause µs per request, beside the CPU.
  const heap = new Map<string, { allocated: number[]; gc: number[] }>(
    positionals.map((v) => [v, { allocated: [], gc: [] }]),
  );
  const load = new LoadProcess();
  await load.ready;
  try {
    for (const label of positionals) {
      const [variant, kept] = label.split(':') as [string, string | undefined];
      const build = kept ? path.join(KEPT, kept) : BUILD;
      if (!existsSync(build)) throw new Error(`no kept bundle "${kept}": run with --keep ${kept} first`);
      const config = { scenario: scenario.id, variant } as ServerConfig;
      servers.set(label, await startServer(config, semiSpace, build));
    }
    const job = {
      type: 'cannon' as const,
      method: scenario.method,
      headers: scenario.headers,
      body: scenario.body,
      connections: 10,
    };
    for (let round = 0; round < rounds; round++) {
      const order = positionals.map((_, i) => positionals[(i + round) % positionals.length]!);
      for (const label of order) {
        const server = servers.get(label)!;
        const url = server.url + scenario.path;
        await load.run({ ...job, url, duration: round === 0 ? 0.5 * FIRST_WARMUP_FACTOR : 0.5 });
        await ask(server.child, { type: 'cpu-start' }, 'cpu-started');
        const result = await load.run({ ...job, url, duration });
        const cpu = await ask<{ micros: number; allocated: number; gcMicros: number }>(
          server.child,
          { type: 'cpu-stop' },
          'cpu',
        );
        const requests = Math.max(1, result.total);
        samples.get(label)!.push(cpu.micros / requests);
        heap.get(label)!.allocated.push(cpu.allocated / requests);
        heap.get(label)!.gc.push(cpu.gcMicros / requests);
      }
      process.stderr.write(`round ${round + 1}/${rounds}\n`);
    }
  } finally {
    load.close();
    await Promise.all([...servers.values()].map((s) => s.stop()));
  }
  const reference = samples.get(positionals[0]!)!;
  console.log(
    `\n(${scenario.id}) ${rounds} rounds of ${duration} s, µs CPU per request, Node ${process.versions.node}` +
      (pinned ? `, young generation pinned at ${pinned} MiB` : ''),
  );
  for (const [label, values] of samples) {
    const ratio = median(values.map((v, i) => v / reference[i]!));
    const { allocated, gc } = heap.get(label)!;
    console.log(
      `  ${label.padEnd(28)} ${median(values).toFixed(1).padStart(7)}   ×${ratio.toFixed(2)}   ` +
        `${(median(allocated) / 1024).toFixed(1).padStart(5)} KB/req  GC ${median(gc).toFixed(2)} µs/req   ` +
        `[${values.map((v) => v.toFixed(0)).join(' ')}]`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
