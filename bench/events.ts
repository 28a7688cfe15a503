/**
 * `npx tsx bench/events.ts [--rounds 3] [--duration 5] [--streams 1000] [--ticks 20,5]`: server-sent events
 * to 1,000 open streams from one process, with express-file-endpoints' `eventStream` (on node:http), h3's
 * `createEventStream` (h3 2, through its node handler) and Hono's `streamSSE` (through @hono/node-server,
 * `overrideGlobalObjects: false`). Every `tick` ms each server sends one event to every open stream
 * (the same bytes for all three), so 1,000 streams at a 20 ms tick are offered 50,000 events per second.
 *
 * The figures: events per second that reached the clients (a server that cannot keep up delivers fewer
 * than offered), and the server's CPU time per event delivered. Server and clients are separate
 * processes; each round measures every variant once, in a rotating order, and a ratio is the median of
 * the same-round ratios to express-file-endpoints. Writes bench/events-results.md. Not part of `npm test`.
 * Run it on Node 24: `node scripts/node-versions.mjs run 24 -- npx tsx bench/events.ts`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const VARIANTS = [
  { id: 'ee', name: 'express-file-endpoints `eventStream`' },
  { id: 'h3', name: 'h3 `createEventStream`' },
  { id: 'hono', name: 'Hono `streamSSE`' },
] as const;
type VariantId = (typeof VARIANTS)[number]['id'];

const WARMUP_MS = 2000;

interface Sample {
  eventsPerSecond: number;
  cpuPerEvent: number;
  streams: number;
}

function start(script: string, env: Record<string, string>): ChildProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.NODE_OPTIONS;
  return fork(path.join(HERE, script), [], {
    execArgv: ['--import', 'tsx'],
    env: childEnv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function next<T>(child: ChildProcess, ask?: string): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as T));
    child.once('exit', (code) => reject(new Error(`a bench process exited (${code})`)));
    if (ask) child.send({ ask });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(variant: VariantId, tick: number, streams: number, duration: number): Promise<Sample> {
  const server = start('events-server.ts', { VARIANT: variant, TICK_MS: String(tick) });
  let load: ChildProcess | undefined;
  try {
    const { port } = await next<{ port: number }>(server);
    load = start('events-load.ts', { PORT: String(port), STREAMS: String(streams) });
    await next(load);
    await sleep(WARMUP_MS);
    const cpu0 = await next<{ cpu: number; streams: number }>(server, 'cpu');
    const events0 = await next<{ events: number }>(load, 'events');
    const started = performance.now();
    await sleep(duration * 1000);
    const cpu1 = await next<{ cpu: number; streams: number }>(server, 'cpu');
    const events1 = await next<{ events: number }>(load, 'events');
    const elapsed = performance.now() - started;
    const events = events1.events - events0.events;
    return {
      eventsPerSecond: (events / elapsed) * 1000,
      cpuPerEvent: (cpu1.cpu - cpu0.cpu) / events,
      streams: cpu1.streams,
    };
  } finally {
    load?.kill();
    server.kill();
    await sleep(300);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '5' },
      streams: { type: 'string', default: '1000' },
      ticks: { type: 'string', default: '20,5' },
    },
  });
  const rounds = Number(values.rounds);
  const duration = Number(values.duration);
  const streams = Number(values.streams);
  const ticks = values.ticks.split(',').map(Number);
  const lines: string[] = [];
  for (const tick of ticks) {
    const samples = new Map<VariantId, Sample[]>(VARIANTS.map((v) => [v.id, []]));
    for (let round = 0; round < rounds; round++) {
      const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]!.id);
      for (const variant of order) {
        const sample = await measure(variant, tick, streams, duration);
        samples.get(variant)!.push(sample);
        console.log(
          `tick ${tick} ms, round ${round + 1}/${rounds}: ${variant.padEnd(5)} ${Math.round(sample.eventsPerSecond)} events/s, ${sample.cpuPerEvent.toFixed(2)} µs CPU/event, ${sample.streams} streams`,
        );
      }
    }
    const offered = (streams * 1000) / tick;
    lines.push(
      '',
      `### ${streams} streams, an event to each every ${tick} ms (${offered.toLocaleString('en')} events/s offered)`,
      '',
      '| variant | events/s delivered | µs CPU per event | CPU per event, ratio to express-file-endpoints |',
      '| --- | ---: | ---: | ---: |',
    );
    const ours = samples.get('ee')!;
    for (const { id, name } of VARIANTS) {
      const own = samples.get(id)!;
      const ratios = own.map((sample, i) => sample.cpuPerEvent / ours[i]!.cpuPerEvent);
      lines.push(
        `| ${name} | ${Math.round(median(own.map((s) => s.eventsPerSecond))).toLocaleString('en')} | ${median(own.map((s) => s.cpuPerEvent)).toFixed(2)} | ${median(ratios).toFixed(2)}× |`,
      );
    }
  }
  const header = [
    '# Event streams: 1,000 open streams from one process',
    '',
    'Written by `npx tsx bench/events.ts` (see the comment at its top). Medians of the rounds; the ratio is the',
    'median of the same-round ratios of server CPU per event delivered (below 1.00× is cheaper than',
    'express-file-endpoints).',
    '',
    `Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ${rounds} rounds of ${duration} s after ${WARMUP_MS / 1000} s of warm-up, ${new Date().toISOString().slice(0, 10)}.`,
  ];
  const report = [...header, ...lines, ''].join('\n');
  writeFileSync(path.join(HERE, 'events-results.md'), report);
  console.log(`\n${report}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
