/**
 * One HTTP request on a fresh connection, with what supertest hides: when the first body chunk
 * arrived relative to the end, and HEAD responses read exactly as sent.
 */
import http, { type IncomingHttpHeaders } from 'node:http';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** ms from the request to the first body chunk (`undefined` when the body is empty). */
  firstChunkAt?: number;
  /** ms from the request to the end of the body. */
  endAt: number;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export function request(url: string, options: RequestOptions = {}): Promise<Reply> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      agent: false,
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
          body: Buffer.concat(chunks).toString(),
          firstChunkAt,
          endAt: performance.now() - started,
        }),
      );
    });
    req.end(options.body);
  });
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** GET with the body as raw bytes (nothing decoded), for compressed responses. */
export function requestBytes(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }),
        );
      })
      .on('error', reject);
  });
}

/** `count` chunks of `size` bytes, made one at a time as they are pulled. */
export function* chunks(count: number, size: number): Generator<Buffer> {
  for (let i = 0; i < count; i++) yield Buffer.alloc(size, 97 + (i % 26));
}
