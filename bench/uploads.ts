/**
 * `npx tsx bench/uploads.ts [--rounds 3] [--requests 300]`: uploads saved to disk, by multipart() and
 * saveFile() in an endpoint against multer's diskStorage on a native route, each in an Express 5 app
 * (bench/uploads-server.ts), on 127.0.0.1.
 *
 * - **One 256 MiB file**, in a fresh server process: throughput (MiB/s, from the first byte sent to
 *   the answer) and the server's peak RSS growth (the kernel's high-water mark, `VmHWM`, reset just
 *   before the upload).
 * - **100 files of 1 KiB per request**, `--requests` of them, 4 at a time, after a warm-up: the
 *   server's CPU time (user + system) per request. Both servers run side by side, and batches of 25
 *   requests alternate between them, so what else the machine does weighs on both alike.
 *
 * Each round measures both variants, in an order that alternates from round to round; a figure is
 * the median over rounds, and a ratio the median of the same-round ratios to multer. Writes
 * bench/uploads-results.md. Not part of `npm test`. Run it on Node 24:
 * `node scripts/node-versions.mjs run 24 -- npx tsx bench/uploads.ts`.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ask, forkServer } from './lib/measured-server';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MiB = 1024 * 1024;
const BIG = 256 * MiB;
const CHUNK = 64 * 1024;

const VARIANTS = [
  { id: 'ee', name: 'multipart() + saveFile()' },
  { id: 'multer', name: 'multer diskStorage' },
] as const;
type VariantId = (typeof VARIANTS)[number]['id'];

interface Sample {
  mibPerSecond: number;
  rssGrowth: number;
  cpuPerRequest: number;
}

const BOUNDARY = '----bench-uploads';

function start(variant: VariantId, dir: string): ChildProcess {
  return forkServer(path.join(HERE, 'uploads-server.ts'), { VARIANT: variant, UPLOAD_DIR: dir });
}

/** POSTs `size` bytes of one file, generated as they are sent; resolves with the milliseconds it took. */
function uploadBig(port: number, size: number): Promise<number> {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const chunk = Buffer.alloc(CHUNK, 0x61);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/upload',
        headers: {
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': head.length + size + tail.length,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (data: Buffer) => (text += data.toString()));
        res.on('end', () => {
          if (res.statusCode !== 200 || text !== `[${size}]`)
            reject(new Error(`upload: ${res.statusCode} ${text}`));
          else resolve(performance.now() - started);
        });
      },
    );
    req.on('error', reject);
    req.write(head);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const piece = size - sent >= CHUNK ? chunk : chunk.subarray(0, size - sent);
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

/** One body of `count` files of `size` bytes each. */
function smallFilesBody(count: number, size: number): Buffer {
  const pieces: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    pieces.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f${i}"; filename="f${i}.bin"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      Buffer.alloc(size, 0x62 + (i % 20)),
      Buffer.from('\r\n'),
    );
  }
  pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function post(port: number, body: Buffer, expected: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/upload',
        agent,
        headers: {
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': body.length,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (data: Buffer) => (text += data.toString()));
        res.on('end', () =>
          text === expected ? resolve() : reject(new Error(`small: ${res.statusCode} ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function postMany(port: number, body: Buffer, expected: string, requests: number): Promise<void> {
  let left = requests;
  const worker = async () => {
    while (left-- > 0) await post(port, body, expected);
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

interface Running {
  server: ChildProcess;
  port: number;
  dir: string;
}

async function startVariant(variant: VariantId): Promise<Running> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `bench-uploads-${variant}-`));
  const server = start(variant, dir);
  const { port } = await ask<{ port: number }>(server);
  return { server, port, dir };
}

function stopVariant({ server, dir }: Running): void {
  server.kill();
  rmSync(dir, { recursive: true, force: true });
}

/** The 256 MiB upload into `running`, a fresh server: MiB/s and the peak RSS growth. */
async function measureBig({ server, port }: Running): Promise<Pick<Sample, 'mibPerSecond' | 'rssGrowth'>> {
  // One small upload first, so the big one measures the transfer rather than the first request's JIT.
  await uploadBig(port, MiB);
  await ask(server, 'clear');
  const { rss } = await ask<{ rss: number }>(server, 'reset-peak');
  const ms = await uploadBig(port, BIG);
  const { peak } = await ask<{ peak: number }>(server, 'peak');
  await ask(server, 'clear');
  return { mibPerSecond: BIG / MiB / (ms / 1000), rssGrowth: peak - rss };
}

const BATCH = 25;

/**
 * 100 × 1 KiB uploads to both servers, running side by side, in batches that alternate between
 * them: whatever else the machine does weighs on both alike. Each one's CPU per request.
 */
async function measureSmall(running: Record<VariantId, Running>, requests: number, order: VariantId[]) {
  const body = smallFilesBody(100, 1024);
  const expected = JSON.stringify(Array.from({ length: 100 }, () => 1024));
  const cpu: Record<VariantId, number> = { ee: 0, multer: 0 };
  for (const id of order) await postMany(running[id].port, body, expected, Math.ceil(requests / 3));
  for (let done = 0; done < requests; done += BATCH) {
    for (const id of order) {
      const { server, port } = running[id];
      const before = await ask<{ cpu: number }>(server, 'cpu');
      await postMany(port, body, expected, BATCH);
      const after = await ask<{ cpu: number }>(server, 'cpu');
      cpu[id] += after.cpu - before.cpu;
    }
  }
  const batches = Math.ceil(requests / BATCH) * BATCH;
  for (const id of order) await ask(running[id].server, 'clear');
  return { ee: cpu.ee / batches, multer: cpu.multer / batches };
}

/** One round: each variant's big upload in a fresh server, then the small ones side by side. */
async function measureRound(requests: number, order: VariantId[]): Promise<Record<VariantId, Sample>> {
  const big = {} as Record<VariantId, Pick<Sample, 'mibPerSecond' | 'rssGrowth'>>;
  for (const id of order) {
    const running = await startVariant(id);
    try {
      big[id] = await measureBig(running);
    } finally {
      stopVariant(running);
    }
  }
  const running = {} as Record<VariantId, Running>;
  try {
    for (const id of order) running[id] = await startVariant(id);
    const cpu = await measureSmall(running, requests, order);
    return {
      ee: { ...big.ee, cpuPerRequest: cpu.ee },
      multer: { ...big.multer, cpuPerRequest: cpu.multer },
    };
  } finally {
    for (const id of order) if (running[id]) stopVariant(running[id]);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main() {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '3' }, requests: { type: 'string', default: '300' } },
  });
  const rounds = Number(values.rounds);
  const requests = Number(values.requests);
  const samples: Record<VariantId, Sample[]> = { ee: [], multer: [] };
  for (let round = 0; round < rounds; round++) {
    const ids = VARIANTS.map((variant) => variant.id);
    const order = round % 2 === 0 ? ids : [...ids].reverse();
    const measured = await measureRound(requests, order);
    for (const id of order) {
      const sample = measured[id];
      samples[id].push(sample);
      console.log(
        `round ${round + 1} ${id}: ${sample.mibPerSecond.toFixed(0)} MiB/s, RSS +${(sample.rssGrowth / MiB).toFixed(1)} MiB, ` +
          `${(sample.cpuPerRequest / 1000).toFixed(2)} ms CPU per 100-file request`,
      );
    }
  }
  const ratio = (key: keyof Sample) =>
    median(samples.ee.map((sample, round) => sample[key] / samples.multer[round]![key]));
  const row = (id: VariantId) => {
    const of = (key: keyof Sample) => median(samples[id].map((sample) => sample[key]));
    const name = VARIANTS.find((variant) => variant.id === id)!.name;
    return `| ${name} | ${of('mibPerSecond').toFixed(0)} MiB/s | +${(of('rssGrowth') / MiB).toFixed(1)} MiB | ${(of('cpuPerRequest') / 1000).toFixed(2)} ms |`;
  };
  const rssDifference =
    median(samples.ee.map((sample, round) => sample.rssGrowth - samples.multer[round]!.rssGrowth)) / MiB;
  const targets = [
    [
      '256 MiB: throughput ≥ 0.9× multer',
      ratio('mibPerSecond') >= 0.9,
      `${ratio('mibPerSecond').toFixed(2)}×`,
    ],
    [
      '256 MiB: peak RSS growth within 16 MiB of multer',
      rssDifference <= 16,
      `${rssDifference >= 0 ? '+' : ''}${rssDifference.toFixed(1)} MiB`,
    ],
    [
      '100 × 1 KiB: CPU per request ≤ multer',
      ratio('cpuPerRequest') <= 1,
      `${ratio('cpuPerRequest').toFixed(2)}×`,
    ],
  ] as const;
  const markdown = `# Uploads: multipart() against multer

Written by \`bench/uploads.ts\` (see [README.md](./README.md#uploads)): ${rounds} rounds, ${requests} requests of 100 files per
variant and round, Node ${process.versions.node}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ${new Date().toISOString().slice(0, 10)}.
Medians over rounds; ratios are medians of same-round ratios to multer.

| Variant | 256 MiB: throughput | 256 MiB: peak RSS growth | 100 × 1 KiB: server CPU per request |
| --- | ---: | ---: | ---: |
${row('ee')}
${row('multer')}

| Target | Met | Figure |
| --- | --- | ---: |
${targets.map(([what, met, figure]) => `| ${what} | ${met ? 'yes' : '**no**'} | ${figure} |`).join('\n')}
`;
  writeFileSync(path.join(HERE, 'uploads-results.md'), markdown);
  console.log(markdown);
}

await main();
