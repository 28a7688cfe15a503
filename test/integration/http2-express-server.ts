/**
 * The server of http2-express.test.ts, in a child process: http2-express changes Express's own
 * request and response prototypes when it wraps it, which would leak into every later test of a
 * shared mocha process. An Express 5 app wrapped by it, with `req.user` set as passport would, the
 * fixture tree mounted, an app 404 after it; it sends its port over IPC.
 */
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import { mountEndpoints } from '../../src';

const TLS = path.join(__dirname, '../fixtures/tls');

async function main(): Promise<void> {
  const http2Express = require('http2-express') as (wrapped: typeof express) => express.Express;
  const app = http2Express(express);
  app.use((req, _res, next) => {
    (req as typeof req & { user: unknown }).user = { id: 'u1' };
    next();
  });
  await mountEndpoints(app, { dir: path.join(__dirname, '../fixtures/app') });
  app.use((_req, res) => void res.status(404).send('app 404'));
  const server = http2.createSecureServer(
    {
      key: readFileSync(path.join(TLS, 'key.pem')),
      cert: readFileSync(path.join(TLS, 'cert.pem')),
      allowHTTP1: true,
    },
    app as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void,
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('disconnect', () => process.exit(0));
  process.send!({ port: (server.address() as AddressInfo).port });
}

void main();
