/**
 * One HTTP request on a fresh connection, with what supertest hides: when the first body chunk
 * arrived relative to the end, and HEAD responses read exactly as sent.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import { httpRequest } from '../support/net';

export { delay } from '../support/net';

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

export async function request(url: string, options: RequestOptions = {}): Promise<Reply> {
  const reply = await httpRequest(url, options);
  return { ...reply, body: reply.body.toString() };
}

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
