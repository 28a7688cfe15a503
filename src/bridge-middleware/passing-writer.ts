/**
 * The writer bridgeMiddleware sends its own answer through while the app behind it is still
 * captured (response-capture.ts): each call that writes is made on the real response with the
 * methods it had before the capture (`passThrough`), so neither the capture nor what the app behind
 * the bridge wrapped around it (compression, on-headers) sees the bridge's own writes. What only
 * reads goes to `res` as it is.
 */
import type { ServerResponse } from 'node:http';
import type { ResponseWriter } from '../bridge';

type PassThrough = <T>(write: () => T) => T;

export class PassingWriter implements ResponseWriter {
  readonly #res: ServerResponse & { flush?: () => void };
  readonly #pass: PassThrough;

  constructor(res: ServerResponse, passThrough: PassThrough) {
    this.#res = res;
    this.#pass = passThrough;
  }

  get req() {
    return this.#res.req;
  }
  get statusCode(): number {
    return this.#res.statusCode;
  }
  set statusCode(value: number) {
    this.#res.statusCode = value;
  }
  get statusMessage(): string {
    return this.#res.statusMessage;
  }
  set statusMessage(value: string) {
    this.#res.statusMessage = value;
  }
  get sendDate(): boolean {
    return this.#res.sendDate;
  }
  set sendDate(value: boolean) {
    this.#res.sendDate = value;
  }
  /** Whether the real head went out: toward the chain, the capture says so once the chain's is known. */
  get headersSent(): boolean {
    return this.#pass(() => this.#res.headersSent);
  }
  get writableFinished(): boolean {
    return this.#res.writableFinished;
  }
  get destroyed(): boolean {
    return this.#res.destroyed;
  }
  get socket() {
    return this.#res.socket;
  }

  getHeader(name: string) {
    return this.#res.getHeader(name);
  }
  hasHeader(name: string): boolean {
    return this.#res.hasHeader(name);
  }
  setHeader(name: string, value: number | string | readonly string[]): unknown {
    return this.#pass(() => this.#res.setHeader(name, value));
  }
  removeHeader(name: string): void {
    this.#pass(() => this.#res.removeHeader(name));
  }
  write(chunk: Uint8Array): boolean {
    return this.#pass(() => this.#res.write(chunk));
  }
  end(...args: [chunk?: Uint8Array | string, encoding?: BufferEncoding]): unknown {
    // Looked up inside passThrough, as every method here: outside it, `res.end` is the capture's.
    const res = this.#res as { end(...a: typeof args): unknown };
    return this.#pass(() => res.end(...args));
  }
  flushHeaders(): void {
    this.#pass(() => this.#res.flushHeaders());
  }
  flush(): void {
    this.#pass(() => this.#res.flush?.());
  }
  destroy(error?: Error): unknown {
    return this.#res.destroy(error);
  }
  /** Stepped around too: compression() behind the bridge replaces `on` to move 'drain' listeners. */
  on(event: 'drain', listener: () => void): unknown {
    return this.#pass(() => this.#res.on(event, listener));
  }
  once(event: 'close', listener: () => void): unknown {
    return this.#res.once(event, listener);
  }
  off(event: 'drain' | 'close', listener: () => void): unknown {
    return this.#res.off(event, listener);
  }
}
