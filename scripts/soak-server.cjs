/**
 * The server side of `npm run soak`: the example app (examples/express-app/server.js, using the
 * built package) in a process of its own, started by scripts/soak.mjs with --expose-gc, with the
 * soak's own endpoints (soak-app/: an echo and a streamed download, whose response streams are
 * counted) mounted under /soak in front of it. It answers the parent over IPC: `measure` (force
 * GC, then report memory, the stream account and what went wrong so far) and `stop`.
 */
'use strict';

const http = require('node:http');
const path = require('node:path');
const express = require('express');
const { mountEndpoints } = require('express-file-endpoints');
const { createApp } = require('../examples/express-app/server.js');
const { snapshot } = require('./soak-app/_lib/stream-account.cjs');

/** Everything that went wrong on the server (logged 5xx errors, unhandled rejections), with when. */
const problems = [];
let unhandledRejections = 0;
const record = (text) => {
  problems.push({ time: Date.now(), text });
  if (process.env.SOAK_DEBUG)
    console.error(new Date().toISOString(), text.split('\n').slice(0, 3).join(' / '));
};
process.on('unhandledRejection', (reason) => {
  unhandledRejections++;
  record(`unhandledRejection: ${reason instanceof Error ? reason.stack : String(reason)}`);
});

async function main() {
  const logger = {
    error: (...args) => record(args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' ')),
  };
  const example = await createApp({ token: 'soak-token', logger });
  const soakEndpoints = mountEndpoints({
    dir: path.join(__dirname, 'soak-app'),
    onError: (error, info) =>
      record(`onError (${info.file}): ${error instanceof Error ? error.stack : error}`),
  });
  await soakEndpoints.ready;
  const app = express();
  app.use('/soak', soakEndpoints);
  app.use(example);
  const server = http.createServer(app);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  // The example's /proxy endpoints forward to this server's own legacy routes.
  process.env.UPSTREAM_URL = `http://127.0.0.1:${port}/legacy`;

  process.on('message', async (message) => {
    if (message.type === 'measure') {
      // Several full collections, with turns of the event loop between them for finalizers.
      for (let i = 0; i < 4; i++) {
        globalThis.gc();
        await new Promise((resolve) => setImmediate(resolve));
      }
      const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
      process.send({
        type: 'memory',
        memory: { rss, heapUsed, heapTotal, external, arrayBuffers },
        unhandledRejections,
        problems,
        streams: snapshot(),
        connections: await new Promise((resolve) => server.getConnections((_e, count) => resolve(count))),
      });
    } else if (message.type === 'stop') {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    }
  });
  process.send({ type: 'listening', port });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
