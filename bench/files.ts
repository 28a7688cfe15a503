/**
 * `npx tsx bench/files.ts [--rounds 5] [--requests 300]`: files sent from disk, by `sendFile` in an
 * endpoint against Express 5's `res.sendFile` on a native route of the same app (bench/files-server.ts),
 * each variant in a process of its own, on 127.0.0.1, read whole by a node:http client in this process.
 * Both run in the app that mounts the tree: a route is measured where it lives before and after it
 * moves, and the library's own weight in the heap, which makes each of V8's full collections dearer
 * and which the 16 MiB of buffers a 1 MiB request reads through set off often, is on both sides.
 *
 * - **One 256 MiB file**, in a fresh server process: throughput (MiB/s, from the request sent to the
 *   last byte read) and the server's peak RSS growth (the kernel's high-water mark, `VmHWM`, reset
 *   just before the download).
 * - **1 MiB files**, `--requests` of them, 4 at a time on kept-alive connections, after a warm-up:
 *   throughput, the server's CPU time (user + system) per request, and its peak RSS growth over the
 *   measured requests. Both servers run side by side, and batches of 25 requests alternate between
 *   them, so what else the machine does weighs on both alike.
 *
 * Before measuring, each variant's answers are checked against the file: status, the bytes (the
 * 256 MiB file by its SHA-256), and the headers both sides make from the file. Each round measures
 * both variants, in an order that alternates from round to round; a figure is the median over rounds,
 * and a ratio the median of the same-round ratios to `res.sendFile`. Writes bench/files-results.md.
 * Not part of `npm test`. Run it on Node 24:
 * `node scripts/node-versions.mjs run 24 -- npx tsx bench/files.ts`.
 */
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ask, forkServer } from './lib/measured-server';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MiB = 1024 * 1024;
const SMALL = MiB;
const BIG = 256 * MiB;

/** Each variant is a path of the same app (files-server.ts): the route moved into the tree, or the native one. */
const VARIANTS = [
  { id: 'ee', name: '`sendFile` in an endpoint', prefix: '' },
  { id: 'express', name: '`res.sendFile`', prefix: '/native' },
] as const;
type VariantId = (typeof VARIANTS)[number]['id'];

interface Sample {
  bigMibPerSecond: number;
  bigRssGrowth: number;
  smallMibPerSecond: number;
  smallRssGrowth: number;
  cpuPerRequest: number;
}

/** The headers both sides make from the file, which must agree. */
const FILE_HEADERS = [
  'content-type',
  'content-length',
  'etag',
  'last-modified',
  'accept-ranges',
  'cache-control',
];

interface Files {
  dir: string;
  small: string;
  big: string;
  smallBytes: Buffer;
  bigHash: string;
}

/** A 1 MiB file of random bytes, and a 256 MiB one of a random MiB, each copy numbered, so a misplaced MiB shows. */
function makeFiles(): Files {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-files-'));
  const small = path.join(dir, 'small.bin');
  const big = path.join(dir, 'big.bin');
  const smallBytes = randomBytes(SMALL);
  writeFileSync(small, smallBytes);
  const block = randomBytes(MiB);
  const hash = createHash('sha256');
  const fd = openSync(big, 'w');
  for (let i = 0; i < BIG / MiB; i++) {
    block.writeUInt32BE(i, 0);
    writeSync(fd, block);
    hash.update(block);
  }
  closeSync(fd);
  return { dir, small, big, smallBytes, bigHash: hash.digest('hex') };
}

function start(files: Files): ChildProcess {
  return forkServer(path.join(HERE, 'files-server.ts'), {
    SMALL_FILE: files.small,
    BIG_FILE: files.big,
  });
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  length: number;
  /** The body, when asked to keep it. */
  body?: Buffer;
  /** The body's SHA-256, when asked for it. */
  hash?: string;
}

/**
 * GETs `route` and reads the whole body. By default it only counts the bytes, as a client that
 * streams them on would: the measured transfers keep the client's work to what reading costs.
 */
function get(port: number, route: string, agent?: http.Agent, keep?: 'body' | 'hash'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get({ port, host: '127.0.0.1', path: route, agent }, (res) => {
      let length = 0;
      const chunks: Buffer[] = [];
      const hash = keep === 'hash' ? createHash('sha256') : undefined;
      res.on('data', (data: Buffer) => {
        length += data.length;
        if (keep === 'body') chunks.push(data);
        hash?.update(data);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          length,
          body: keep === 'body' ? Buffer.concat(chunks) : undefined,
          hash: hash?.digest('hex'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

interface Running {
  server: ChildProcess;
  port: number;
  /** The variant's paths in the app. */
  small: string;
  big: string;
}

async function startVariant(variant: VariantId, files: Files): Promise<Running> {
  const server = start(files);
  const { port } = await ask<{ port: number }>(server);
  const { prefix } = VARIANTS.find((each) => each.id === variant)!;
  return { server, port, small: `${prefix}/small`, big: `${prefix}/big` };
}

/**
 * Both variants' answers for both files, checked against the files and against each other's headers:
 * a variant that sends other bytes or other headers made from the file is not measured.
 */
async function check(files: Files): Promise<void> {
  const heads: Partial<Record<VariantId, http.IncomingHttpHeaders[]>> = {};
  for (const { id } of VARIANTS) {
    const running = await startVariant(id, files);
    const { server, port } = running;
    try {
      const small = await get(port, running.small, undefined, 'body');
      const big = await get(port, running.big, undefined, 'hash');
      if (small.status !== 200 || !small.body!.equals(files.smallBytes))
        throw new Error(`${id}: /small answered ${small.status}, ${small.length} bytes, not the file`);
      if (big.status !== 200 || big.length !== BIG || big.hash !== files.bigHash)
        throw new Error(`${id}: /big answered ${big.status}, ${big.length} bytes, not the file`);
      heads[id] = [small.headers, big.headers];
    } finally {
      server.kill();
    }
  }
  for (const name of FILE_HEADERS) {
    for (const which of [0, 1]) {
      const ours = heads.ee![which]![name];
      const theirs = heads.express![which]![name];
      if (ours !== theirs)
        throw new Error(`${name} differs: ${String(ours)} against res.sendFile's ${String(theirs)}`);
    }
  }
}

/** The 256 MiB download from `running`, a fresh server: MiB/s and the peak RSS growth. */
async function measureBig({ server, port, small, big }: Running) {
  // One small download first, so the big one measures the transfer rather than the first request's JIT.
  await get(port, small);
  const { rss } = await ask<{ rss: number }>(server, 'reset-peak');
  const started = performance.now();
  const answer = await get(port, big);
  const ms = performance.now() - started;
  const { peak } = await ask<{ peak: number }>(server, 'peak');
  if (answer.status !== 200 || answer.length !== BIG)
    throw new Error(`/big: ${answer.status}, ${answer.length} bytes`);
  return { bigMibPerSecond: BIG / MiB / (ms / 1000), bigRssGrowth: peak - rss };
}

async function getMany({ port, small }: Running, agent: http.Agent, requests: number): Promise<void> {
  let left = requests;
  const worker = async () => {
    while (left-- > 0) {
      const answer = await get(port, small, agent);
      if (answer.status !== 200 || answer.length !== SMALL)
        throw new Error(`/small: ${answer.status}, ${answer.length} bytes`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

const BATCH = 25;

/**
 * 1 MiB downloads from both servers, running side by side, in batches that alternate between them:
 * whatever else the machine does weighs on both alike. Each one's throughput, CPU per request and
 * peak RSS growth over the measured batches.
 */
async function measureSmall(running: Record<VariantId, Running>, requests: number, order: VariantId[]) {
  const agents = {} as Record<VariantId, http.Agent>;
  for (const id of order) agents[id] = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const cpu: Record<VariantId, number> = { ee: 0, express: 0 };
  const ms: Record<VariantId, number> = { ee: 0, express: 0 };
  const rss = {} as Record<VariantId, number>;
  for (const id of order) await getMany(running[id], agents[id], Math.ceil(requests / 3));
  for (const id of order) rss[id] = (await ask<{ rss: number }>(running[id].server, 'reset-peak')).rss;
  for (let done = 0; done < requests; done += BATCH) {
    for (const id of order) {
      const { server } = running[id];
      const before = await ask<{ cpu: number }>(server, 'cpu');
      const started = performance.now();
      await getMany(running[id], agents[id], BATCH);
      ms[id] += performance.now() - started;
      const after = await ask<{ cpu: number }>(server, 'cpu');
      cpu[id] += after.cpu - before.cpu;
    }
  }
  const served = Math.ceil(requests / BATCH) * BATCH;
  const result = {} as Record<
    VariantId,
    Pick<Sample, 'smallMibPerSecond' | 'smallRssGrowth' | 'cpuPerRequest'>
  >;
  for (const id of order) {
    const { peak } = await ask<{ peak: number }>(running[id].server, 'peak');
    agents[id].destroy();
    result[id] = {
      smallMibPerSecond: (served * SMALL) / MiB / (ms[id] / 1000),
      smallRssGrowth: peak - rss[id],
      cpuPerRequest: cpu[id] / served,
    };
  }
  return result;
}

/** One round: each variant's big download in a fresh server, then the small ones side by side. */
async function measureRound(
  files: Files,
  requests: number,
  order: VariantId[],
): Promise<Record<VariantId, Sample>> {
  const big = {} as Record<VariantId, Pick<Sample, 'bigMibPerSecond' | 'bigRssGrowth'>>;
  for (const id of order) {
    const running = await startVariant(id, files);
    try {
      big[id] = await measureBig(running);
    } finally {
      running.server.kill();
    }
  }
  const running = {} as Record<VariantId, Running>;
  try {
    for (const id of order) running[id] = await startVariant(id, files);
    const small = await measureSmall(running, requests, order);
    return { ee: { ...big.ee, ...small.ee }, express: { ...big.express, ...small.express } };
  } finally {
    for (const id of order) running[id]?.server.kill();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const signed = (mib: number) => `${mib >= 0 ? '+' : ''}${mib.toFixed(1)} MiB`;

async function main() {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '5' }, requests: { type: 'string', default: '300' } },
  });
  const rounds = Number(values.rounds);
  const requests = Number(values.requests);
  const files = makeFiles();
  try {
    await check(files);
    const samples: Record<VariantId, Sample[]> = { ee: [], express: [] };
    for (let round = 0; round < rounds; round++) {
      const ids = VARIANTS.map((variant) => variant.id);
      const order = round % 2 === 0 ? ids : [...ids].reverse();
      const measured = await measureRound(files, requests, order);
      for (const id of order) {
        const sample = measured[id];
        samples[id].push(sample);
        console.log(
          `round ${round + 1} ${id}: 256 MiB ${sample.bigMibPerSecond.toFixed(0)} MiB/s, RSS ${signed(sample.bigRssGrowth / MiB)}; ` +
            `1 MiB ${sample.smallMibPerSecond.toFixed(0)} MiB/s, RSS ${signed(sample.smallRssGrowth / MiB)}, ` +
            `${sample.cpuPerRequest.toFixed(0)} µs CPU per request`,
        );
      }
    }
    writeResults(samples, rounds, requests);
  } finally {
    rmSync(files.dir, { recursive: true, force: true });
  }
}

function writeResults(samples: Record<VariantId, Sample[]>, rounds: number, requests: number) {
  const ratio = (key: keyof Sample) =>
    median(samples.ee.map((sample, round) => sample[key] / samples.express[round]![key]));
  const range = (key: keyof Sample) => {
    const ratios = samples.ee.map((sample, round) => sample[key] / samples.express[round]![key]);
    return `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×`;
  };
  const difference = (key: 'bigRssGrowth' | 'smallRssGrowth') =>
    median(samples.ee.map((sample, round) => sample[key] - samples.express[round]![key])) / MiB;
  const row = (id: VariantId) => {
    const of = (key: keyof Sample) => median(samples[id].map((sample) => sample[key]));
    const name = VARIANTS.find((variant) => variant.id === id)!.name;
    return (
      `| ${name} | ${of('bigMibPerSecond').toFixed(0)} MiB/s | ${signed(of('bigRssGrowth') / MiB)} | ` +
      `${of('smallMibPerSecond').toFixed(0)} MiB/s | ${signed(of('smallRssGrowth') / MiB)} | ${of('cpuPerRequest').toFixed(0)} µs |`
    );
  };
  const targets = [
    [
      '256 MiB: throughput ≥ 0.95× `res.sendFile`',
      ratio('bigMibPerSecond') >= 0.95,
      `${ratio('bigMibPerSecond').toFixed(2)}× (${range('bigMibPerSecond')})`,
    ],
    [
      '256 MiB: peak RSS growth ≤ `res.sendFile`’s + 8 MiB',
      difference('bigRssGrowth') <= 8,
      signed(difference('bigRssGrowth')),
    ],
    [
      '1 MiB: throughput ≥ 0.95× `res.sendFile`',
      ratio('smallMibPerSecond') >= 0.95,
      `${ratio('smallMibPerSecond').toFixed(2)}× (${range('smallMibPerSecond')})`,
    ],
    [
      '1 MiB: peak RSS growth ≤ `res.sendFile`’s + 8 MiB',
      difference('smallRssGrowth') <= 8,
      signed(difference('smallRssGrowth')),
    ],
  ] as const;
  const markdown = `# Files: sendFile against res.sendFile

Written by \`bench/files.ts\` (see [README.md](./README.md#sending-files)): ${rounds} rounds, ${requests} requests of 1 MiB per
variant and round, Node ${process.versions.node}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ${new Date().toISOString().slice(0, 10)}.
Medians over rounds; ratios are medians of same-round ratios to \`res.sendFile\` (range over rounds in brackets).

| Variant | 256 MiB: throughput | 256 MiB: peak RSS growth | 1 MiB: throughput | 1 MiB: peak RSS growth | 1 MiB: server CPU per request |
| --- | ---: | ---: | ---: | ---: | ---: |
${row('ee')}
${row('express')}

| Target | Met | Figure |
| --- | --- | ---: |
${targets.map(([what, met, figure]) => `| ${what} | ${met ? 'yes' : '**no**'} | ${figure} |`).join('\n')}

1 MiB: server CPU per request, to \`res.sendFile\`: ${ratio('cpuPerRequest').toFixed(2)}× (${range('cpuPerRequest')}).
`;
  writeFileSync(path.join(HERE, 'files-results.md'), markdown);
  console.log(markdown);
}

await main();
