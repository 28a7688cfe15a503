/**
 * One open WebSocket: the `EndpointWebSocket` its hooks get, around a `ws` socket, and the hooks
 * called on its events. The hooks are the ones of the code the connection opened with: a reload in
 * development mode serves new connections, never open ones. It is also a subscriber of
 * the mount's topics: a publication is sent to it unless it is too far behind, and then it is closed.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { tellOnError } from '../dispatch';
import type { CompiledRoute } from '../route';
import { checkTopic, type Publication, type Subscriber, type TopicHub } from '../topics';
import type { EndpointWebSocket, Topic, TopicDataOf, WebSocketContext, WebSocketHandler } from '../types';

/** Close code 1011, Unexpected Condition: the server met a condition that kept it from serving the connection. */
const UNEXPECTED_CONDITION = 1011;
/** Close code 1013, Try Again Later: the socket fell too far behind the publications of its topics. */
const TRY_AGAIN_LATER = 1013;

/** What a connection needs of the tree's settings. */
export interface ConnectionSettings {
  topics: TopicHub;
  /** Milliseconds a socket closed for being slow has to take its close frame before it is cut. */
  closeTimeout: number;
}

export class Connection implements EndpointWebSocket, Subscriber {
  /** A pong came back since the last ping: the peer is still there. */
  alive = true;
  /** `send()` returned false: the `drain` hook runs when the socket's buffer empties. */
  #waitingForDrain = false;
  /** The topics it is subscribed to; made on the first subscription. */
  #topics: Set<string> | undefined;

  constructor(
    readonly ws: WebSocket,
    private readonly raw: Duplex,
    private readonly route: CompiledRoute & { socket: WebSocketHandler },
    private readonly context: WebSocketContext,
    private readonly settings: ConnectionSettings,
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
      this.#unsubscribeAll();
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

  subscribe(topic: Topic): void {
    checkTopic(topic, 'socket.subscribe(topic)');
    // A closed socket is not kept: it would never be unsubscribed.
    if (this.ws.readyState !== this.ws.OPEN) return;
    (this.#topics ??= new Set()).add(topic);
    this.settings.topics.subscribe(this, topic);
  }

  unsubscribe(topic: Topic): void {
    if (this.#topics?.delete(topic)) this.settings.topics.unsubscribe(this, topic);
  }

  isSubscribed(topic: Topic): boolean {
    return this.#topics?.has(topic) ?? false;
  }

  publish<T extends Topic>(topic: T, data: TopicDataOf<T>): void {
    this.settings.topics.publish(topic, data, this);
  }

  get subscriptions(): string[] {
    return this.#topics ? [...this.#topics] : [];
  }

  /** A publication to one of its topics: sent, unless the socket is already too far behind. */
  deliver(publication: Publication): void {
    const ws = this.ws;
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > this.settings.topics.backpressureLimit) {
      this.#tooSlow(publication.topic);
      return;
    }
    // The bytes are made once per publication, whatever the number of sockets.
    ws.send(publication.bytes(), { binary: publication.binary });
  }

  /**
   * Closed rather than queuing more for a client that does not read: 1013 goes behind what is
   * queued, and the connection is cut after `closeTimeout` if the client still has not read it.
   */
  #tooSlow(topic: string): void {
    this.#unsubscribeAll();
    this.settings.topics.droppedSlow(topic, 'websocket');
    this.ws.close(TRY_AGAIN_LATER, 'Too slow: the server will not queue more for this socket');
    setTimeout(() => this.ws.terminate(), this.settings.closeTimeout).unref();
  }

  #unsubscribeAll(): void {
    const topics = this.#topics;
    if (topics === undefined) return;
    this.#topics = undefined;
    for (const topic of topics) this.settings.topics.unsubscribe(this, topic);
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
    if (this.ws.readyState === this.ws.OPEN) this.ws.close(UNEXPECTED_CONDITION);
  }
}
