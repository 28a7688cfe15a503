/**
 * Tools for the hardening suite: a server around the hardening fixture tree, exact bytes over a
 * raw socket, requests on one keep-alive socket, and a tripwire for unhandled rejections.
 */
import http, { type Server, type ServerOptions } from 'node:http';
import net from 'node:net';
import path from 'node:path';
import express from 'express';
import { mountEndpoints, type EndpointsMiddleware, type MountOptions } from '../../src';
import { delay, listen } from '../support/net';

export { delay, httpRequest, waitFor } from '../support/net';

export const FIXTURE_DIR = path.join(__dirname, '../fixtures/hardening-app/app');

export interface TestServer {
  port: number;
  url: string;
  server: Server;
  endpoints: EndpointsMiddleware;
  /** Errors that reached the app's error handler, by message. */
  appErrors: string[];
  /**
   * Errors told to `onError` that did not also reach the app's error handler (a body stream that
   * failed after the head went out), by message. Recorded instead of printed, for tests to assert.
   */
  reported: string[];
  close(): Promise<void>;
}

/**
 * Express 5 with the hardening tree mounted at the root, then the app's own 404 and an error
 * handler that records what reached `next(err)` and answers as apps usually do: the error's own
 * status and, when it says its message is for the client (`expose`), that message; else 500
 * without details.
 */
export async function startServer(
  options: MountOptions = {},
  serverOptions: ServerOptions = {},
): Promise<TestServer> {
  const app = express();
  const reported: string[] = [];
  const endpoints = await mountEndpoints(app, {
    dir: FIXTURE_DIR,
    onError: (error, { passedToNext }) => {
      if (!passedToNext) reported.push(error instanceof Error ? error.message : String(error));
    },
    ...options,
  });
  const appErrors: string[] = [];
  app.use((_req: express.Request, res: express.Response) => {
    res.status(404).type('text').send('app 404');
  });
  app.use((error: HttpError, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    appErrors.push(error.message);
    if (error.expose && error.status) res.status(error.status).type('text').send(error.message);
    else res.status(500).type('text').send('app error');
  });
  const server = http.createServer(serverOptions, app);
  return { ...(await listen(server)), server, endpoints, appErrors, reported };
}

/** An error in the shape body-parser's and http-errors' have. */
type HttpError = Error & { status?: number; expose?: boolean };

export interface RawExchange {
  /** Everything the server sent, as latin1 text. */
  text: string;
  /** Status code of the first response, or 0 when none came. */
  status: number;
  /** How the connection ended. */
  ended: 'close' | 'error' | 'timeout';
}

/**
 * Writes `bytes` on a fresh TCP connection and collects what comes back until the server
 * closes it (requests should say `Connection: close`) or `timeout` ms pass.
 */
export function rawExchange(port: number, bytes: string | Buffer, timeout = 3000): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    let settled = false;
    const done = (ended: RawExchange['ended']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ text, status, ended });
    };
    const timer = setTimeout(() => done('timeout'), timeout);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => done('close'));
    socket.on('error', () => done('error'));
  });
}

/** The body of a raw HTTP/1.1 response with Content-Length (or the rest, without one). */
export function rawBody(exchange: RawExchange): string {
  const at = exchange.text.indexOf('\r\n\r\n');
  return at === -1 ? '' : exchange.text.slice(at + 4);
}

/**
 * Fails the suite if any promise is rejected without a handler while it runs: call in a
 * `describe`, it installs itself before the tests and checks after each one.
 */
export function unhandledRejectionTripwire(): void {
  const seen: unknown[] = [];
  const onRejection = (reason: unknown) => seen.push(reason);
  before(() => process.on('unhandledRejection', onRejection));
  after(() => process.off('unhandledRejection', onRejection));
  afterEach(async () => {
    // Rejections are reported after a microtask turn; give them a moment.
    await delay(5);
    if (seen.length > 0) {
      const reasons = seen.splice(0).map((r) => (r instanceof Error ? r.stack : String(r)));
      throw new Error(`Unhandled rejection(s):\n${reasons.join('\n')}`);
    }
  });
}
