/**
 * One server of the file bench (bench/files.ts): an Express 5 app whose GET /small and GET /big send
 * SMALL_FILE and BIG_FILE, by `res.sendFile` on native routes or by `sendFile` in endpoints
 * (bench/trees/files). Tells the driver its port, then, when asked (IPC), its CPU time or its peak RSS
 * since the last reset.
 *
 *   VARIANT=ee|express SMALL_FILE=/tmp/a BIG_FILE=/tmp/b node --import tsx bench/files-server.ts
 */
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { serveMeasured } from './lib/measured-server';

const HERE = path.dirname(fileURLToPath(import.meta.url));

async function app(variant: string): Promise<express.Express> {
  const app = express();
  if (variant === 'ee') {
    const { mountEndpoints } = await import('../src');
    await mountEndpoints(app, { dir: path.join(HERE, 'trees/files') });
    return app;
  }
  const small = process.env.SMALL_FILE!;
  const big = process.env.BIG_FILE!;
  app.get('/small', (req, res) => res.sendFile(small));
  app.get('/big', (req, res) => res.sendFile(big));
  return app;
}

serveMeasured(http.createServer(await app(process.env.VARIANT!)));
