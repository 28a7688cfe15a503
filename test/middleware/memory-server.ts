/**
 * Child process of memory.test.ts: an Express 5 app whose route pipes 100 MiB (64 KiB chunks,
 * made as they are pulled) through a bridged middleware that only adds a header. Run on its own
 * so that its RSS is the measurement: it samples RSS every 50 ms and, when asked over IPC,
 * reports the peak minus the baseline taken after a warm-up request.
 *
 * Each sample is taken twice: as is (`rawGrowth`), and after a forced GC (`growth`). The
 * first also counts the 64 KiB chunks already sent but not yet collected: V8 collects
 * external (Buffer) memory lazily, and on this machine a plain Express route with no bridge
 * at all shows ~33 MiB of it. The second is what the process holds, which is what a body
 * kept in memory would raise (by ~100 MiB).
 * GET /file sends BIG_FILE with res.sendFile through a middleware that copies the Response
 * and adds a header (`new Response(r.body, r)`, the copy docs/middleware.md recommends).
 * NO_BRIDGE=1 runs the same app without the middlewares, for comparison.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import express from 'express';
import { bridgeMiddleware } from '../../src';

const CHUNK = 64 * 1024;

const app = express();
if (!process.env.NO_BRIDGE) {
  app.use(
    '/big',
    bridgeMiddleware(async (_req, next) => {
      const response = await next();
      response.headers.set('x-added', 'yes');
      return response;
    }),
  );
  app.use(
    '/file',
    bridgeMiddleware(async (_req, next) => {
      const response = await next();
      const copy = new Response(response.body, response);
      copy.headers.set('x-added', 'yes');
      return copy;
    }),
  );
}
app.get('/file', (_req, res) => res.sendFile(process.env.BIG_FILE!));
app.get('/big', (req, res) => {
  const total = Number(req.query.bytes);
  let sent = 0;
  res.setHeader('content-type', 'application/octet-stream');
  new Readable({
    read() {
      if (sent >= total) return this.push(null);
      sent += CHUNK;
      this.push(Buffer.alloc(CHUNK, 120));
    },
  }).pipe(res);
});

const server = http.createServer(app);
let baseline = 0;
let peak = 0;
let rawPeak = 0;
let sampler: NodeJS.Timeout | undefined;

const gc = () => (globalThis as { gc?: () => void }).gc?.();

process.on('message', (message: { type: string }) => {
  if (message.type === 'measure') {
    gc();
    baseline = process.memoryUsage.rss();
    peak = rawPeak = baseline;
    sampler = setInterval(() => {
      rawPeak = Math.max(rawPeak, process.memoryUsage.rss());
      gc();
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 50);
    process.send!({ type: 'measuring', baseline });
  } else if (message.type === 'report') {
    clearInterval(sampler);
    rawPeak = Math.max(rawPeak, process.memoryUsage.rss());
    process.send!({ type: 'report', baseline, peak, growth: peak - baseline, rawGrowth: rawPeak - baseline });
  }
});

server.listen(0, '127.0.0.1', () => {
  process.send!({ type: 'ready', port: (server.address() as AddressInfo).port });
});
