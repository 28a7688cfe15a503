/**
 * The load process: forked once by the driver, so load generation never shares an event loop
 * with a server (or with the driver). Jobs arrive over IPC and results go back the same way.
 *
 *   { type: 'cannon', ... }   autocannon run (programmatic), requests per second and latency
 *   { type: 'upload' | 'download', url }   one 256 MiB transfer (scenario f), timed, bytes checked
 */
import { once } from 'node:events';
import http from 'node:http';
import { createRequire } from 'node:module';
import { BIG_BYTES, BIG_CHUNKS, CHUNK_SIZE, FILL_BYTE } from './lib/payloads';

export interface CannonJob {
  type: 'cannon';
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
}

export interface CannonResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface TransferJob {
  type: 'upload' | 'download';
  url: string;
}

export interface TransferResult {
  seconds: number;
  status: number;
  /** Upload: the response body. Download: `<bytes> bytes, all 'a'` or what was wrong. */
  body: string;
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const CHUNK = Buffer.alloc(CHUNK_SIZE, FILL_BYTE);

async function cannon(job: CannonJob): Promise<CannonResult> {
  const result = await autocannon({
    url: job.url,
    method: job.method,
    headers: job.headers,
    body: job.body,
    connections: job.connections,
    pipelining: 1,
    duration: job.duration,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

async function transfer(job: TransferJob): Promise<TransferResult> {
  const agent = new http.Agent({ keepAlive: false });
  const start = performance.now();
  const req = http.request(job.url, {
    method: job.type === 'upload' ? 'POST' : 'GET',
    agent,
    headers:
      job.type === 'upload'
        ? { 'content-type': 'application/octet-stream', 'content-length': BIG_BYTES }
        : {},
  });
  const response = once(req, 'response') as Promise<[http.IncomingMessage]>;
  if (job.type === 'upload') {
    for (let i = 0; i < BIG_CHUNKS; i++) {
      if (!req.write(CHUNK)) await once(req, 'drain');
    }
  }
  req.end();
  const [res] = await response;
  let body: string;
  if (job.type === 'upload') {
    const parts: Buffer[] = [];
    for await (const chunk of res) parts.push(chunk as Buffer);
    body = Buffer.concat(parts).toString('utf8');
  } else {
    // Every byte checked (memcmp against a chunk of `a`), at a cost far below the transfer's.
    let bytes = 0;
    let wrong = false;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      if (!wrong && !chunk.equals(CHUNK.subarray(0, chunk.length))) wrong = true;
      bytes += chunk.length;
    }
    body = wrong ? `${bytes} bytes, NOT all 'a'` : `${bytes} bytes, all 'a'`;
  }
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  return { seconds, status: res.statusCode ?? 0, body };
}

process.on('message', (job: (CannonJob | TransferJob) & { id: number }) => {
  const run = job.type === 'cannon' ? cannon(job) : transfer(job);
  run.then(
    (result) => process.send!({ id: job.id, result }),
    (error: unknown) => process.send!({ id: job.id, error: String((error as Error)?.stack ?? error) }),
  );
});
process.send!({ type: 'ready' });
