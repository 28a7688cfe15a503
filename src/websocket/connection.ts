/**
 * One open WebSocket: the `EndpointWebSocket` its hooks get, around a `ws` socket, and the hooks
 * called on its events. The hooks are the ones of the code the connection opened with: a reload in
 * development mode serves new connections, never open ones (issue 28).
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { tellOnError, type CompiledRoute } from '../dispatch';
import type { EndpointWebSocket, WebSocketContext, WebSocketHandler } from '../types';

/** Close code 1011: the server met a condition that kept it from serving the connection. */
const INTERNAL_ERROR = 1011;

export class Connection implements EndpointWebSocket {
  /** A pong came back since the last ping: the peer is still there. */
  alive = true;
  /** `send()` returned false: the `drain` hook runs when the socket's buffer empties. */
  #waitingForDrain = false;

  constructor(
    readonly ws: WebSocket,
    private readonly raw: Duplex,
    private readonly route: CompiledRoute & { socket: WebSocketHandler },
    private readonly context: WebSocketContext,
  ) {
    ws.binaryType = 'nodebuffer';
    ws.on('message', (data: Buffer, isBinary) => {
      this.#call('message', isBinary ? data : data.toString('utf8'));
    });
    ws.on('pong', () => void (this.alive = true));
    // A protocol error (a message past the size limit: ws closes with 1009); the client's doing.
    ws.on('error', (error) => this.#call('error', error));
    raw.on('drain', () => {
      if (!this.#waitingForDrain) return;
      this.#waitingForDrain = false;
      this.#call('drain');
    });
  }

  /** Calls `open` now and `close` when the connection ends; `closed` runs after it. */
  start(closed: () => void): void {
    this.ws.once('close', (code, reason) => {
      closed();
      this.#call('close', { code, reason: reason.toString('utf8') });
    });
    this.#call('open');
  }

  send(data: string | ArrayBuffer | ArrayBufferView): boolean {
    if (this.ws.readyState !== this.ws.OPEN) return false;
    this.ws.send(data);
    const fits = this.ws.bufferedAmount < this.raw.writableHighWaterMark;
    if (!fits) this.#waitingForDrain = true;
    return fits;
  }

  close(code?: number, reason?: string): void {
    this.ws.close(code, reason);
  }

  get readyState(): number {
    return this.ws.readyState;
  }

  get bufferedAmount(): number {
    return this.ws.bufferedAmount;
  }

  get protocol(): string {
    return this.ws.protocol;
  }

  /** Calls a hook; one that throws or rejects is told to `onError` and closes the socket with 1011. */
  #call(hook: 'open' | 'message' | 'close' | 'error' | 'drain', argument?: unknown): void {
    const fn = this.route.socket[hook] as
      ((socket: EndpointWebSocket, ...rest: unknown[]) => unknown) | undefined;
    if (!fn) return;
    try {
      // No array per message: the hooks without an argument (open, drain) get the context second.
      const result =
        argument === undefined
          ? fn.call(this.route.socket, this, this.context)
          : fn.call(this.route.socket, this, argument, this.context);
      if (typeof (result as PromiseLike<unknown> | null)?.then === 'function') {
        Promise.resolve(result).catch((error: unknown) => this.#failed(hook, error));
      }
    } catch (error) {
      this.#failed(hook, error);
    }
  }

  #failed(hook: string, error: unknown): void {
    tellOnError(this.route.onError, error, {
      request: this.context.request,
      route: this.route.pattern,
      file: this.route.displayPath,
      export: `websocket.${hook}`,
      passedToNext: false,
    });
    if (this.ws.readyState === this.ws.OPEN) this.ws.close(INTERNAL_ERROR);
  }
}
