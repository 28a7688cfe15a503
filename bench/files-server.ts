/**
 * One server of the file bench (bench/files.ts): an Express 5 app with native routes GET /native/small
 * and GET /native/big, which send SMALL_FILE and BIG_FILE by `res.sendFile`, and the endpoints of
 * bench/trees/files, whose GET /small and GET /big send them by `sendFile`. Every server is this same
 * app, as an app that has moved some routes into the tree and kept others; the variant is the path
 * asked for. Tells the driver its port, then, when asked (IPC), its CPU time or its peak RSS since the
 * last reset.
 *
 *   SMALL_FILE=/tmp/a BIG_FILE=/tmp/b node --import tsx bench/files-server.ts
 */
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { serveMeasured } from './lib/measured-server';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const app = express();
const small = process.env.SMALL_FILE!;
const big = process.env.BIG_FILE!;
app.get('/native/small', (req, res) => res.sendFile(small));
app.get('/native/big', (req, res) => res.sendFile(big));
const { mountEndpoints } = await import('../src');
await mountEndpoints(app, { dir: path.join(HERE, 'trees/files') });

serveMeasured(http.createServer(app));
