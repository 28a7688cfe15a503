/**
 * The hosts the peers' suites (test/peers/*.test.ts) run on, serving test/fixtures/peers-app:
 *
 * - Express 5: `await mountEndpoints(app, { dir })`, then the app's own error handler, as apps have one;
 * - node:http: `http.createServer(mountEndpoints({ dir }))` once `endpoints.ready` resolved: nothing around
 *   the tree, so the library answers its own errors.
 *
 * Unlike test/integration/hosts.ts there is no legacy app around the tree (no upstream cookie, no helmet):
 * the peers' cases assert exact headers. Node middleware can still go in front (`before`, `compression`).
 * Also here: the raw-socket client the cases that fetch() cannot send need.
 */
import http2 from 'node:http2';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import net from 'node:net';
import path from 'node:path';
import compression from 'compression';
import express from 'express';
import {
  mountEndpoints,
  type EndpointErrorInfo,
  type EndpointsMiddleware,
  type MountOptions,
} from '../../src';
import { listen } from '../support/net';

export const PEERS_APP = path.join(__dirname, '../fixtures/peers-app');

type Next = (error?: unknown) => void;
export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

export interface PeerHostOptions {
  /** Node middleware in front of the tree, in order. */
  before?: NodeMiddleware[];
  /** `compression({ threshold: 0 })` in front of the tree (after `before`): small bodies too, as hono's `compress()`. */
  compression?: boolean;
  /** More `mountEndpoints` options. */
  mount?: Partial<MountOptions>;
  /** Express's `app.set(name, value)` (Express only). */
  settings?: Record<string, unknown>;
}

export interface ReportedError {
  error: unknown;
  info: EndpointErrorInfo;
}

export interface PeerServer {
  host: PeerHost;
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  server: Server;
  endpoints: EndpointsMiddleware;
  /** What the mount's `onError` was told, in order. */
  errors: ReportedError[];
  close(): Promise<void>;
}

export interface PeerHost {
  name: string;
  /**
   * The app has an error handler of its own, which answers the library's errors (`next(err)`):
   * `500 error: <message>` with `x-app-error-handler: 1`. Without one (node:http), the library answers
   * with short plain text.
   */
  appErrorHandler: boolean;
  start(options?: PeerHostOptions): Promise<PeerServer>;
}

/** `status`/`statusCode` of an error when it is an error status, else 500: what Express's own handler reads. */
function statusOf(error: unknown): number {
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const code = typeof status === 'number' ? status : statusCode;
  return typeof code === 'number' && code >= 400 && code < 600 ? code : 500;
}

function mountOptions(options: PeerHostOptions, errors: ReportedError[]): MountOptions {
  return { dir: PEERS_APP, onError: (error, info) => errors.push({ error, info }), ...options.mount };
}

const expressHost: PeerHost = {
  name: 'Express 5',
  appErrorHandler: true,
  async start(options = {}) {
    const errors: ReportedError[] = [];
    const app = express();
    // Express's final handler logs errors outside 'test': the cases provoke some on purpose.
    app.set('env', 'test');
    for (const [name, value] of Object.entries(options.settings ?? {})) app.set(name, value);
    for (const middleware of options.before ?? []) app.use(middleware);
    if (options.compression) app.use(compression({ threshold: 0 }));
    const endpoints = await mountEndpoints(app, mountOptions(options, errors));
    // The app's error handler. `x-hang-error-handler` makes it never answer: a client leaves meanwhile.
    app.use((error: Error, req: express.Request, res: express.Response, _next: express.NextFunction) => {
      if (req.headers['x-hang-error-handler']) return;
      res
        .status(statusOf(error))
        .set('x-app-error-handler', '1')
        .type('text/plain')
        .send(`error: ${error?.message}`);
    });
    return serve(expressHost, http.createServer(app), endpoints, errors);
  },
};

const nodeHost: PeerHost = {
  name: 'node:http',
  appErrorHandler: false,
  async start(options = {}) {
    const errors: ReportedError[] = [];
    const endpoints = mountEndpoints(mountOptions(options, errors));
    await endpoints.ready;
    const layers = [
      ...(options.before ?? []),
      ...(options.compression ? [compression({ threshold: 0 }) as NodeMiddleware] : []),
    ];
    if (layers.length === 0) return serve(nodeHost, http.createServer(endpoints), endpoints, errors);
    // The smallest chain a node:http app writes for middleware in front; the tree last, with no next.
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      let index = 0;
      const next: Next = (error) => {
        if (error !== undefined) {
          res.statusCode = 500;
          res.end();
          return;
        }
        const layer = layers[index++];
        if (layer) layer(req, res, next);
        else endpoints(req, res);
      };
      next();
    };
    return serve(nodeHost, http.createServer(handle), endpoints, errors);
  },
};

async function serve(
  host: PeerHost,
  server: Server,
  endpoints: EndpointsMiddleware,
  errors: ReportedError[],
): Promise<PeerServer> {
  const listening = await listen(server);
  return { host, server, endpoints, errors, ...listening };
}

export const peerHosts: PeerHost[] = [expressHost, nodeHost];

/** One host per suite, started before its cases and closed after them. */
export function eachHost(
  title: string,
  body: (get: () => PeerServer, host: PeerHost) => void,
  options?: PeerHostOptions,
): void {
  for (const host of peerHosts) {
    describe(`${title} on ${host.name}`, () => {
      let running: PeerServer | undefined;
      before(async () => {
        running = await host.start(options);
      });
      after(() => running?.close());
      body(() => running!, host);
    });
  }
}

let ids = 0;
/** An id no other case uses: the key of the fixture's gates and reports. */
export const newId = (label = 'case') => `${label}-${++ids}-${Date.now()}`;

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `promise`, or a rejection naming `what` after `ms`: a regression fails fast instead of at mocha's timeout. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What a raw exchange read: every byte, until the server closed the connection (or `ms` passed). */
export function rawExchange(port: number, payload: string | Buffer, ms = 3000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('raw exchange timed out'));
    }, ms);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    socket.on('connect', () => socket.write(payload));
  });
}

export interface RawResponse {
  status: number;
  statusText: string;
  /** Lower-case names; repeats kept. */
  headers: [string, string][];
  header(name: string): string | undefined;
  body: Buffer;
}

/** The responses in `raw`, in order: framed by Content-Length, by chunked encoding, or by the close. */
export function parseResponses(raw: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let offset = 0;
  while (offset < raw.length) {
    const headEnd = raw.indexOf('\r\n\r\n', offset);
    if (headEnd === -1) break;
    const [statusLine, ...lines] = raw.toString('latin1', offset, headEnd).split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine!);
    const headers = lines.map((line): [string, string] => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    });
    const header = (name: string) => headers.find(([key]) => key === name)?.[1];
    let cursor = headEnd + 4;
    let body: Buffer;
    const length = header('content-length');
    if (header('transfer-encoding') === 'chunked') {
      const pieces: Buffer[] = [];
      for (;;) {
        const lineEnd = raw.indexOf('\r\n', cursor);
        if (lineEnd === -1) break;
        const size = parseInt(raw.toString('latin1', cursor, lineEnd), 16);
        cursor = lineEnd + 2;
        if (!(size > 0)) {
          cursor += 2;
          break;
        }
        pieces.push(raw.subarray(cursor, cursor + size));
        cursor += size + 2;
      }
      body = Buffer.concat(pieces);
    } else if (length !== undefined) {
      body = raw.subarray(cursor, cursor + Number(length));
      cursor += Number(length);
    } else {
      body = raw.subarray(cursor);
      cursor = raw.length;
    }
    responses.push({ status: Number(match?.[1]), statusText: match?.[2] ?? '', headers, header, body });
    offset = cursor;
  }
  return responses;
}

/** One request written as is on a fresh connection that closes after it; its response. */
export async function rawRequest(port: number, head: string, body = ''): Promise<RawResponse> {
  const raw = await rawExchange(port, `${head}\r\nConnection: close\r\n\r\n${body}`);
  const [response] = parseResponses(raw);
  if (!response) throw new Error(`no response in ${JSON.stringify(raw.toString('latin1'))}`);
  return response;
}

/** Captures (and swallows) a process-level error event for the duration of `fn`. */
export async function capturingProcessErrors<T>(
  fn: (captured: unknown[]) => Promise<T>,
  events: ('uncaughtException' | 'unhandledRejection')[] = ['uncaughtException', 'unhandledRejection'],
): Promise<T> {
  const captured: unknown[] = [];
  const onError = (error: unknown) => captured.push(error);
  for (const event of events) process.prependListener(event as 'uncaughtException', onError);
  try {
    return await fn(captured);
  } finally {
    for (const event of events) process.removeListener(event, onError);
  }
}

export interface StreamedReply {
  status: number;
  statusMessage: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  /** The body as the client's parser handed it over: one entry per `data` event, so per chunk on the wire. */
  chunks: Buffer[];
  body: Buffer;
}

/**
 * One request on a fresh connection, its body read event by event: `onHeaders` runs when the head has
 * arrived (before any body), `onChunk` on each piece. Rejects when the response breaks off.
 */
export function streamRequest(
  url: string,
  options: {
    method?: string;
    headers?: http.OutgoingHttpHeaders;
    body?: string | Buffer;
    signal?: AbortSignal;
    onHeaders?: (res: IncomingMessage) => void;
    onChunk?: (chunk: Buffer, index: number) => void;
  } = {},
): Promise<StreamedReply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      agent: false,
      signal: options.signal,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      options.onHeaders?.(res);
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        options.onChunk?.(chunk, chunks.length - 1);
      });
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('aborted')));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          statusMessage: res.statusMessage ?? '',
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          chunks,
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.end(options.body);
  });
}

/** Every value of one response header, a line each (Set-Cookie lines kept apart). */
export function headerValues(rawHeaders: string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === name) values.push(rawHeaders[i + 1]!);
  }
  return values;
}

/**
 * The peers' app on a cleartext HTTP/2 server (h2c), for the `describe` it is called in: its origin, and
 * a client session on it, opened before the suite's cases and closed after.
 */
export function h2cServer(): { origin: () => string; session: () => http2.ClientHttp2Session } {
  let server: http2.Http2Server;
  let session: http2.ClientHttp2Session;
  let origin = '';
  before(async () => {
    const endpoints = mountEndpoints({ dir: PEERS_APP, onError: () => {} });
    await endpoints.ready;
    server = http2.createServer(endpoints as unknown as Parameters<typeof http2.createServer>[0]);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    session = http2.connect(origin);
    session.on('error', () => {});
  });
  after(() => {
    session.close();
    server.close();
  });
  return { origin: () => origin, session: () => session };
}
