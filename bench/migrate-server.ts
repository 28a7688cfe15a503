/**
 * One server of bench/migrate.ts, in the generated app's folder: express and express-file-endpoints
 * come from that folder's node_modules (the built package), as the app's own would. With ENTRY, the
 * app's entry file, which exports its Express app; with TREE, an Express 5 app that parses JSON
 * bodies first, as the generated app does, and mounts that tree. Tells the driver its port, then
 * answers its questions over IPC (bench/lib/measured-server.ts).
 *
 *   APP_DIR=/tmp/app TREE=/tmp/app/hand node --import tsx bench/migrate-server.ts
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Express } from 'express';
import { serveMeasured } from './lib/measured-server';

const dir = process.env.APP_DIR!;
const fromApp = createRequire(path.join(dir, 'package.json'));

async function app(): Promise<Express> {
  if (process.env.ENTRY) return fromApp(path.resolve(dir, process.env.ENTRY)) as Express;
  const express = fromApp('express') as typeof import('express');
  const { mountEndpoints } = fromApp('express-file-endpoints') as typeof import('../src');
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json());
  await mountEndpoints(app, { dir: process.env.TREE! });
  return app;
}

serveMeasured(http.createServer(await app()));
