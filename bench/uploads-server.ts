/**
 * One server of the upload bench (bench/uploads.ts): an Express 5 app whose POST /upload saves every
 * file of a multipart body into UPLOAD_DIR, by multer's diskStorage on a native route or by multipart()
 * and saveFile() in an endpoint, and answers their sizes. Tells the driver its port, then, when asked
 * (IPC), its CPU time, its peak RSS since the last reset, or removes the files saved so far.
 *
 *   VARIANT=ee|multer UPLOAD_DIR=/tmp/x node --import tsx bench/uploads-server.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const dir = process.env.UPLOAD_DIR!;

async function app(variant: string): Promise<express.Express> {
  const app = express();
  if (variant === 'ee') {
    const { mountEndpoints } = await import('../src');
    await mountEndpoints(app, { dir: path.join(HERE, 'trees/uploads') });
    return app;
  }
  const { default: multer } = await import('multer');
  const upload = multer({ storage: multer.diskStorage({ destination: dir }) }).any();
  app.post('/upload', upload, (req, res) => {
    res.json((req.files as Express.Multer.File[]).map((file) => file.size));
  });
  return app;
}

/** The kernel's high-water mark of this process's RSS (Linux), reset by `resetPeak()`. */
const peakRss = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;
const resetPeak = () => writeFileSync('/proc/self/clear_refs', '5');

const server = http.createServer(await app(process.env.VARIANT!));
/** The files saved so far removed, between measurements: 256 MiB uploads must not fill the disk. */
async function clear() {
  await Promise.all(readdirSync(dir).map((name) => rm(path.join(dir, name), { force: true })));
}
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));

process.on('message', (message: { ask: string }) => {
  if (message.ask === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send!({ cpu: user + system });
  } else if (message.ask === 'reset-peak') {
    global.gc?.();
    resetPeak();
    process.send!({ rss: process.memoryUsage.rss() });
  } else if (message.ask === 'peak') {
    process.send!({ peak: peakRss() });
  } else if (message.ask === 'clear') {
    void clear().then(() => process.send!({ cleared: true }));
  }
});
