/**
 * ResponseWriter: what the bridge writes a response through, the part of Node's ServerResponse that
 * sendWebResponse and pipeBody use. The endpoints write to `res` itself. bridgeMiddleware writes
 * through its capture's writer (src/bridge-middleware/response-capture.ts), which takes the same
 * calls past the capture to the response underneath while the app behind it is still captured.
 */
import type { IncomingMessage } from 'node:http';

export interface ResponseWriter {
  /** The request answered: its method, and on Express its app's settings and freshness. */
  readonly req: IncomingMessage;
  statusCode: number;
  statusMessage: string;
  sendDate: boolean;
  readonly headersSent: boolean;
  readonly writableFinished: boolean;
  readonly destroyed: boolean;
  readonly socket: { readonly destroyed: boolean } | null;
  getHeader(name: string): number | string | string[] | undefined;
  hasHeader(name: string): boolean;
  setHeader(name: string, value: number | string | readonly string[]): unknown;
  removeHeader(name: string): void;
  write(chunk: Uint8Array): boolean;
  end(chunk?: Uint8Array | string, encoding?: BufferEncoding): unknown;
  flushHeaders(): void;
  /** compression()'s (and its kin's): lets go of what it holds. A plain response has none. */
  flush?(): void;
  destroy(error?: Error): unknown;
  on(event: 'drain', listener: () => void): unknown;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}
