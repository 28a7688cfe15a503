/**
 * What every HTTP test needs: a server on an ephemeral loopback port, one request on a fresh
 * connection with nothing decoded or merged (as bytes or as text), the header lines as sent, bodies
 * made chunk by chunk, and polling for a condition.
 */
import http, { type Agent, type IncomingHttpHeaders, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  port: number;
  /** Closes the server and every connection still open. */
  close(): Promise<void>;
}

export async function listen(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface HttpRequestOptions {
  method?: string;
  headers?: OutgoingHttpHeaders;
  body?: Buffer | string;
  /** Default: a fresh connection (`false`); pass a keep-alive agent to reuse one. */
  agent?: Agent | false;
  /** The request target exactly as written (`/a/../b` stays so); default: the URL's, which resolves dot segments. */
  target?: string;
}

export interface HttpReply {
  status: number;
  headers: IncomingHttpHeaders;
  /** Header lines as received: repeats (Set-Cookie) kept apart. */
  rawHeaders: string[];
  /** The body as received (no decoding). */
  body: Buffer;
  /** Milliseconds from the request to the first body chunk and to the end. */
  firstChunkAt: number | undefined;
  endAt: number;
  /** The client's port: tells whether two requests shared a connection. */
  localPort: number | undefined;
}

/** One request; the target goes out unchanged (`/files/%zz` stays malformed). */
export function httpRequest(url: string, options: HttpRequestOptions = {}): Promise<HttpReply> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      agent: options.agent ?? false,
      ...(options.target === undefined ? {} : { path: options.target }),
    });
    let localPort: number | undefined;
    req.on('socket', (socket) => {
      const take = () => (localPort = socket.localPort);
      if (socket.localPort) take();
      else socket.once('connect', take);
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let firstChunkAt: number | undefined;
      res.on('data', (chunk: Buffer) => {
        firstChunkAt ??= performance.now() - started;
        chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks),
          firstChunkAt,
          endAt: performance.now() - started,
          localPort,
        }),
      );
    });
    req.end(options.body);
  });
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves once `check()` holds; rejects after `timeout` ms, naming what it waited for. */
export async function waitFor(check: () => boolean, timeout = 3000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeout} ms waiting for ${what}`);
    await delay(10);
  }
}

/**
 * `path` requested from `origin` on a fresh connection, its target exactly as written (a `/a/../b`
 * reaches the server so), read to its end. A body in pieces (an array) goes without a Content-Length,
 * chunked.
 */
export async function requestOver(
  origin: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer | Buffer[] } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const { body, headers } = init;
  const pieces = Array.isArray(body);
  const reply = await httpRequest(origin + path, {
    method: init.method,
    headers: pieces ? { ...headers, 'transfer-encoding': 'chunked' } : headers,
    body: pieces ? Buffer.concat(body) : body,
    target: path,
  });
  return { status: reply.status, headers: reply.headers, text: reply.body.toString() };
}

/** `httpRequest` with the body as text. */
export async function requestText(url: string, options: HttpRequestOptions = {}) {
  const reply = await httpRequest(url, options);
  return { ...reply, body: reply.body.toString() };
}

/** Every value of one header, one entry per header line (Set-Cookie lines kept apart). */
export function headerLines(res: HttpReply, name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < res.rawHeaders.length; i += 2) {
    if (res.rawHeaders[i]!.toLowerCase() === name) values.push(res.rawHeaders[i + 1]!);
  }
  return values;
}

/** `count` chunks of `size` bytes, made one at a time as they are pulled. */
export function* bodyChunks(count: number, size: number): Generator<Buffer> {
  for (let i = 0; i < count; i++) yield Buffer.alloc(size, 97 + (i % 26));
}
