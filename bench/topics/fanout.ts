/**
 * Fan-out benchmark: one publisher, many subscribed sockets spread over three server processes, a
 * Redis between them; express-file-endpoints (topics, redisBackplane) against Socket.IO 4
 * (rooms, @socket.io/redis-adapter), in the same run, in interleaved rounds. The publisher (the
 * first server) publishes at a fixed rate; a separate client process holds every socket and
 * measures each message's latency from publication to receipt on the machine's monotonic clock.
 * Writes bench/topics-results.json and bench/topics-results.md. Not a test.
 *
 *   node scripts/node-versions.mjs run 24 -- npx tsx bench/topics/fanout.ts [--sockets 100] [--rate 200] [--seconds 5] [--rounds 2]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startRedis } from '../../test/support/redis-server';

const { values } = parseArgs({
  options: {
    sockets: { type: 'string', default: '100' },
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
  },
});
const SOCKETS = Number(values.sockets);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const VARIANTS = ['efe', 'socket.io'] as const;
const NAMES = {
  efe: 'express-file-endpoints (topics, redisBackplane)',
  'socket.io': 'Socket.IO 4 (rooms, @socket.io/redis-adapter)',
};
const here = import.meta.dirname;

interface Sample {
  variant: (typeof VARIANTS)[number];
  round: number;
  expected: number;
  delivered: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
}

function next<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const listener = (message: { type: string }) => {
      if (message.type !== type) return;
      child.off('message', listener);
      resolve(message as T);
    };
    child.on('message', listener);
  });
}

function start(file: string, args: string[]): ChildProcess {
  return fork(path.join(here, file), args, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

async function measure(variant: (typeof VARIANTS)[number], round: number, redisUrl: string): Promise<Sample> {
  const servers = [0, 1, 2].map(() => start('fanout-server.ts', [variant, redisUrl]));
  const children: ChildProcess[] = [...servers];
  try {
    const ports = (await Promise.all(servers.map((server) => next<{ port: number }>(server, 'ready')))).map(
      (r) => r.port,
    );
    const clients = start('fanout-clients.ts', [variant, ports.join(','), String(SOCKETS)]);
    children.push(clients);
    await next(clients, 'connected');
    // Every socket has heard a publication: the subscriptions are in place everywhere.
    for (;;) {
      servers[0]!.send({ type: 'warm' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      clients.send({ type: 'warmed' });
      if ((await next<{ count: number }>(clients, 'warmed')).count === SOCKETS * 3) break;
    }
    // A second at the full rate first, unmeasured: the JIT and the connections' buffers warm up.
    servers[0]!.send({ type: 'run', rate: RATE, seconds: 1 });
    await next(servers[0]!, 'done');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    clients.send({ type: 'reset' });
    servers[0]!.send({ type: 'run', rate: RATE, seconds: SECONDS });
    await next(servers[0]!, 'done');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    clients.send({ type: 'report' });
    const report = await next<{ count: number; p50: number; p99: number; max: number }>(clients, 'report');
    return {
      variant,
      round,
      expected: RATE * SECONDS * SOCKETS * 3,
      delivered: report.count,
      perSecond: report.count / SECONDS,
      p50: report.p50,
      p99: report.p99,
      max: report.max,
    };
  } finally {
    for (const child of children) {
      if (child.exitCode !== null) continue;
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
}

const load = os.loadavg()[0]!.toFixed(1);
const redis = await startRedis();
const samples: Sample[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
    for (const variant of order) {
      const sample = await measure(variant, round, redis.url);
      samples.push(sample);
      console.log(
        `round ${round + 1} ${variant}: ${sample.delivered}/${sample.expected} delivered, ${Math.round(sample.perSecond)}/s, p50 ${sample.p50.toFixed(2)} ms, p99 ${sample.p99.toFixed(2)} ms`,
      );
    }
  }
} finally {
  await redis.stop();
}

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};
const run = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}`,
  load,
  options: { socketsPerServer: SOCKETS, servers: 3, rate: RATE, seconds: SECONDS, rounds: ROUNDS },
  samples,
};
writeFileSync(path.join(here, '../topics-results.json'), `${JSON.stringify(run, null, 2)}\n`);
const rows = VARIANTS.map((variant) => {
  const mine = samples.filter((sample) => sample.variant === variant);
  const delivered = mine.reduce((sum, sample) => sum + sample.delivered, 0);
  const expected = mine.reduce((sum, sample) => sum + sample.expected, 0);
  return `| ${NAMES[variant]} | ${Math.round(median(mine.map((s) => s.perSecond))).toLocaleString('en')} | ${((100 * delivered) / expected).toFixed(1)}% | ${median(mine.map((s) => s.p50)).toFixed(1)} ms | ${median(mine.map((s) => s.p99)).toFixed(1)} ms |`;
});
writeFileSync(
  path.join(here, '../topics-results.md'),
  `# Fan-out through Redis: results

Written by \`bench/topics/fanout.ts\` from \`topics-results.json\` (${run.date}, Node ${run.node}, ${run.cpus}).
One publisher (the first of ${run.options.servers} server processes) publishes ${RATE} messages a second for ${SECONDS} s to
one topic (room) that ${SOCKETS} sockets on each server subscribe to (${SOCKETS * 3} in all), through one Redis; a
separate process holds every client. Medians of ${ROUNDS} rounds, the two variants interleaved. Latency runs from
the publisher's call to the client's receipt, on the machine's monotonic clock, after one unmeasured second at
the same rate. Load average when the run started: ${run.load}.

| Variant | Messages received per second | Delivered | p50 latency | p99 latency |
| --- | ---: | ---: | ---: | ---: |
${rows.join('\n')}
`,
);
console.log(rows.join('\n'));
