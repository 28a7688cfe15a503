/**
 * One server of the upload bench (bench/uploads.ts): an Express 5 app whose POST /upload saves every
 * file of a multipart body into UPLOAD_DIR, by multer's diskStorage on a native route or by multipart()
 * and saveFile() in an endpoint, and answers their sizes. Tells the driver its port, then, when asked
 * (IPC), its CPU time, its peak RSS since the last reset, or removes the files saved so far.
 *
 *   VARIANT=ee|multer UPLOAD_DIR=/tmp/x node --import tsx bench/uploads-server.ts
 */
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { serveMeasured } from './lib/measured-server';

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

/** The files saved so far removed, between measurements: 256 MiB uploads must not fill the disk. */
async function clear() {
  await Promise.all(readdirSync(dir).map((name) => rm(path.join(dir, name), { force: true })));
  return { cleared: true };
}

serveMeasured(http.createServer(await app(process.env.VARIANT!)), { clear });
