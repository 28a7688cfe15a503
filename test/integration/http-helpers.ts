/**
 * Small HTTP tools for the integration suite where supertest hides what we need to see: the raw
 * bytes of a body (no decoding), each header line as sent, and when chunks arrive.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Header lines as received, `[name, value, name, value, ...]`. */
  rawHeaders: string[];
  /** The body bytes exactly as sent (nothing decoded). */
  body: Buffer;
}

export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/** One request on a fresh connection, any request target (`/files/%zz` goes out unchanged). */
export function rawRequest(url: string, options: RawRequestOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      agent: false,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.end(options.body);
  });
}

/** Every value of one header, one entry per header line. */
export function headerLines(res: RawResponse, name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < res.rawHeaders.length; i += 2) {
    if (res.rawHeaders[i]!.toLowerCase() === name) values.push(res.rawHeaders[i + 1]!);
  }
  return values;
}

/** Resolves once `check()` is true; rejects after `timeout` ms. */
export async function waitFor(check: () => boolean, timeout = 2000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface Upstream {
  url: string;
  close(): Promise<void>;
}

/**
 * The upstream a proxy endpoint forwards to: answers `<METHOD> <url> <body>` gzipped, with
 * `content-encoding: gzip` and the compressed `content-length`, as a real compressing server does.
 */
export async function startGzipUpstream(): Promise<Upstream> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = `${req.method} ${req.url} ${Buffer.concat(chunks).toString()}`.trimEnd();
      const gzipped = zlib.gzipSync(text);
      res.writeHead(200, {
        'content-type': 'text/plain; charset=utf-8',
        'content-encoding': 'gzip',
        'content-length': gzipped.length,
        'x-upstream-server': 'gzip',
      });
      res.end(gzipped);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
