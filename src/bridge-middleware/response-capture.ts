/**
 * ResponseCapture: what the rest of an Express/Connect chain writes to `res` (res.json, res.send,
 * res.write/end, res.sendFile, a piped stream, the error handler, the 404) becomes the Web
 * `Response` that next() resolves to, and nothing of it reaches the client.
 *
 * It takes over `res`'s methods on that one object. srvx captures a Node handler by handing it a
 * ServerResponse subclass of its own; here the chain already holds Node's `res`, and Express
 * re-points that object's prototype whenever a request enters an app or sub-app, so a capture on
 * the prototype chain would be dropped on the way. Methods on the instance stay.
 *
 * Toward the chain, `res` keeps behaving as Node's own: once its head is out (writeHead, or the
 * first write/end/flushHeaders), `res.headersSent` is true and setHeader, appendHeader,
 * removeHeader and a second writeHead throw Node's ERR_HTTP_HEADERS_SENT; a status or header Node
 * refuses throws Node's own error from the call that sends the head (node-head.ts).
 *
 * The chain's headers stay on `res`, in the order and spelling it gave them, and the calls that
 * shape the response on the wire are recorded (explicit or implicit head, flushHeaders, a body
 * sent whole in one end(), cork/uncork): replay-response.ts makes the same calls again, so Node
 * frames the response exactly as it would have without the bridge. The body streams through a
 * ReadableStream whose backpressure reaches the writer (write() returns false, 'drain' follows
 * when the reader wants more), so a large body is never held in memory.
 */
import type { OutgoingHttpHeader, ServerResponse } from 'node:http';
import { CorkMarks } from './cork-marks';
import { applyWriteHead, checkHead, freshProbe, responseFromHead, sentProbe } from './node-head';
import { PassingWriter } from './passing-writer';
import { whenClientGone, type ResponseWriter } from '../bridge';

type Method = (...args: unknown[]) => unknown;
type Callback = (error?: Error | null) => void;

const CAPTURE_HIGH_WATER_MARK = 64 * 1024;

const HEADER_CALLS = ['setHeader', 'appendHeader', 'removeHeader', 'setHeaders'] as const;
/** What the capture puts on `res` in place of Node's (or of what a middleware before it put there). */
const CAPTURED = ['writeHead', 'write', 'end', 'flushHeaders', 'cork', 'uncork', ...HEADER_CALLS] as const;
type Captured = (typeof CAPTURED)[number];

// What passThrough puts back while the bridge itself writes, stepping around whatever wraps the
// capture (compression, on-headers), so those run once. Not cork/uncork: Node's write() corks
// through `this.cork()` and uncorks on the next tick, outside passThrough, so both reach the same
// method. `on` is not captured, only stepped around: compression() behind the bridge replaces it.
const STEPPED_ASIDE = ['writeHead', 'write', 'end', 'flushHeaders', ...HEADER_CALLS, 'on'] as const;

/** The chain's head, as Node would have sent it. */
export interface CapturedHead {
  statusCode: number;
  statusMessage: string;
  /** The chain called writeHead itself, rather than Node's implicit head on the first write. */
  explicit: boolean;
  /** flushHeaders() came before any body. */
  flushed: boolean;
  /** Set when the whole body came in one end() before any write: replayed as that one end(). */
  whole?: { chunk: Uint8Array | undefined };
}

/** What the chain answered, as next() gave it to the middleware. */
export interface ChainResponse {
  response: Response;
  /** `response.body` as created: a copy made with `new Response(r.body, r)` shares it. */
  body: ReadableStream<Uint8Array> | null;
  /** `[...response.headers]` as created, to tell what the middleware changed. */
  headers: [string, string][];
  head: CapturedHead;
  /** Where the chain corked and uncorked, by chunk (cork-marks.ts). */
  corks: CorkMarks['marks'];
}

/** Headers on `res` before the chain ran, by lower-case name: how they were spelt, and their value. */
export type UpstreamHeaders = Map<string, { name: string; value: OutgoingHttpHeader }>;

export class ResponseCapture {
  /** Resolves with the chain's response once its head is known. */
  readonly response: Promise<Response>;
  /** The headers set before the chain ran (helmet, cors, cookies): another answer keeps them. */
  readonly upstream: UpstreamHeaders;

  // The states. How far the chain has got: no head yet (its header calls go to `res`), its head,
  // some body, end().
  #phase: 'no-head' | 'head' | 'body' | 'ended' = 'no-head';
  // The middleware answered with something else, or failed: the chain's head goes nowhere.
  #abandoned = false;
  // Where the chain's body goes; nowhere once nobody will read it (cancelled, abandoned, ended).
  #sink: ReadableStreamDefaultController<Uint8Array> | undefined;
  // The capture's methods are on `res`; after the bridge has answered, only until the chain ends.
  #patched: 'on' | 'until-end' | 'off' = 'on';
  // Inside passThrough: `res.headersSent` is Node's again.
  #passing = 0;
  // Inside #implicitHeader: the writeHead under way is Node's implicit head, not the chain's.
  #implicit = false;
  // A write returned false: 'drain' is owed once the reader wants more.
  #owesDrain = false;

  #head: CapturedHead | undefined;
  #chain: ChainResponse | undefined;
  readonly #res: ServerResponse;
  // Made when the head is known and the body is not whole: most answers come in one end().
  #body: ReadableStream<Uint8Array> | undefined;
  readonly #corks = new CorkMarks();
  readonly #original: Partial<Record<Captured | 'on', Method>> = {};
  readonly #installed: Partial<Record<Captured, Method>> = {};
  // `res`'s own properties before the capture, put back as they were: compression() in front of
  // the bridge puts its wrappers there, Node's own methods live on the prototype.
  readonly #ownBefore = new Map<string, PropertyDescriptor | undefined>();
  readonly #stopWatching: () => void;
  #writer: PassingWriter | undefined;
  #resolve!: (response: Response) => void;
  #reject!: (error: unknown) => void;

  constructor(res: ServerResponse) {
    this.#res = res;
    this.upstream = upstreamHeaders(res);
    this.response = new Promise<Response>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.response.catch(noop);
    // A long poll whose client left before anything was written: next() has nothing to give.
    this.#stopWatching = whenClientGone(res, (reason) => {
      if (this.#phase === 'no-head') this.#reject(reason);
    });

    const target = res as unknown as Record<string, Method | undefined>;
    this.#original.on = target.on;
    for (const name of CAPTURED) {
      const original = target[name];
      if (!original) continue;
      this.#original[name] = original;
      this.#ownBefore.set(name, Object.getOwnPropertyDescriptor(res, name));
      target[name] = this.#installed[name] = (this[name] as Method).bind(this);
    }
    this.#ownBefore.set('headersSent', Object.getOwnPropertyDescriptor(res, 'headersSent'));
    Object.defineProperty(res, 'headersSent', {
      configurable: true,
      enumerable: true,
      get: () =>
        (this.#passing === 0 && this.#phase !== 'no-head') ||
        Boolean(Reflect.get(Object.getPrototypeOf(res) as object, 'headersSent', res)),
    });
  }

  // ---- `res`'s methods while the chain runs. The bridge's own writes never reach them:
  // passThrough puts the methods from before in their place (cork/uncork tell the two apart).

  /** The head: checked and applied to `res` as Node would, recorded, handed to the middleware. */
  writeHead(...args: unknown[]): unknown {
    const res = this.#res;
    if (this.#abandoned) {
      if (this.#phase === 'no-head') this.#setHead(res.statusCode, false);
      return res;
    }
    if (this.#phase !== 'no-head') {
      // Node's _implicitHeader, called again by wrappers that check `res._header` (compression
      // before 1.8), which a capture never sets: in Node it only runs before the head: a no-op.
      if (args.length <= 1 && args[0] === res.statusCode) return res;
      return sentProbe().writeHead(...(args as [number]));
    }
    const statusCode = checkHead(res, args);
    applyWriteHead(res, statusCode, args);
    this.#setHead(statusCode, !this.#implicit);
    if (!this.#implicit) this.#settle();
    return res;
  }

  /** Some body, into the stream: false while the reader is behind, and 'drain' when it catches up. */
  write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const res = this.#res;
    if (!isChunk(chunk)) return freshProbe().write(chunk as string); // Node's own TypeError
    const done = pickCallback(encoding, callback);
    if (this.#phase === 'ended' || res.destroyed) {
      if (done) process.nextTick(done);
      return !res.destroyed;
    }
    this.#implicitHeader();
    this.#phase = 'body';
    this.#settle();
    const sink = this.#sink;
    if (sink) this.#enqueue(sink, toBytes(chunk, encoding));
    if (done) process.nextTick(done);
    if (!sink || (sink.desiredSize ?? 0) > 0) return true;
    this.#owesDrain = true;
    return false;
  }

  /** The end; a body that comes whole, with no head before it, stays bytes and one end(). */
  end(chunk?: unknown, encoding?: unknown, callback?: unknown): unknown {
    const res = this.#res;
    const done = pickCallback(chunk, encoding, callback);
    const data = typeof chunk === 'function' ? undefined : chunk;
    // Node's end() takes a falsy chunk for none.
    if (data && !isChunk(data)) return freshProbe().end(data as string);
    const bytes = data ? toBytes(data, encoding) : undefined;
    if (this.#phase === 'no-head') {
      this.#implicitHeader();
      this.#phase = 'ended';
      this.#head!.whole = { chunk: bytes };
      this.#settle(bytes ?? new Uint8Array(0));
    } else if (this.#phase !== 'ended') {
      // Ended first: a 'drain' listener that the last chunk wakes may not write after it.
      this.#phase = 'ended';
      const sink = this.#sink;
      this.#sink = undefined;
      if (sink && bytes) this.#enqueue(sink, bytes);
      sink?.close();
    }
    // As Node: the callback runs once the response is finished, when it really is.
    if (done) res.once('finish', done);
    if (this.#patched === 'until-end') this.#unpatch();
    return res;
  }

  /** The head now, recorded as flushed when no body came before it. */
  flushHeaders(): void {
    if (this.#abandoned || this.#phase === 'ended') return;
    this.#implicitHeader();
    if (this.#phase === 'head') this.#head!.flushed = true;
    this.#settle();
  }

  cork(): void {
    if (this.#corks.cork(this.#passing > 0)) this.#original.cork!.call(this.#res);
  }

  uncork(): void {
    if (this.#corks.uncork(this.#passing > 0)) this.#original.uncork!.call(this.#res);
  }

  setHeader(...args: unknown[]): unknown {
    return this.#headerCall('setHeader', args);
  }

  appendHeader(...args: unknown[]): unknown {
    return this.#headerCall('appendHeader', args);
  }

  removeHeader(...args: unknown[]): unknown {
    return this.#headerCall('removeHeader', args);
  }

  setHeaders(...args: unknown[]): unknown {
    return this.#headerCall('setHeaders', args);
  }

  // ---- what the bridge does with the capture

  /** The chain's response, once its head is known. */
  get chain(): ChainResponse | undefined {
    return this.#chain;
  }

  /** The real response, for the bridge's own answer: its calls go past the capture (passThrough). */
  get writer(): ResponseWriter {
    return (this.#writer ??= new PassingWriter(this.#res, this.passThrough));
  }

  /** Runs `write` against the real response, with the methods from before the capture. Re-entrant. */
  readonly passThrough = <T>(write: () => T): T => {
    if (this.#passing > 0 || this.#patched === 'off') return write();
    const target = this.#res as unknown as Record<string, Method | undefined>;
    const current = STEPPED_ASIDE.map((name) => target[name]);
    for (const name of STEPPED_ASIDE) if (this.#original[name]) target[name] = this.#original[name];
    this.#passing++;
    try {
      return write();
    } finally {
      this.#passing--;
      for (const [i, name] of STEPPED_ASIDE.entries()) if (current[i]) target[name] = current[i];
    }
  };

  /**
   * The middleware answered with something else: from now on the chain's head and header changes
   * go nowhere, and its body is dropped unless someone reads it (`force`: even then).
   */
  abandon(force = false): void {
    this.#abandoned = true;
    if (force || !this.#body?.locked) this.#discard();
  }

  /** Puts the methods back: now, or once the chain has ended, so its later writes reach nobody. */
  restore(): void {
    if (this.#patched === 'off') return;
    if (this.#phase === 'ended' || this.#res.destroyed) this.#unpatch();
    else this.#patched = 'until-end';
  }

  // ---- inside

  #setHead(statusCode: number, explicit: boolean): void {
    this.#head = { statusCode, statusMessage: this.#res.statusMessage, explicit, flushed: false };
    this.#phase = 'head';
  }

  /** The head of an implicit response, through whatever wraps `res.writeHead` behind us
   * (on-headers: express-session's cookie, compression), as Node's _implicitHeader does. */
  #implicitHeader(): void {
    if (this.#phase !== 'no-head') return;
    this.#implicit = true;
    try {
      this.#res.writeHead(this.#res.statusCode);
    } finally {
      this.#implicit = false;
    }
    // A wrapper that swallowed the call: the head is what `res` holds now.
    if (this.#phase === 'no-head') this.writeHead(this.#res.statusCode);
  }

  /** Once the head is known: hand the middleware its Response (bytes when the body came whole). */
  #settle(whole?: Uint8Array): void {
    if (this.#chain || !this.#head) return;
    try {
      const made = responseFromHead(this.#res, this.#head, whole ?? this.#openBody());
      if (made.body === null && whole === undefined) this.#discard();
      const corks = this.#corks.marks;
      this.#chain = { response: made, body: made.body, headers: [...made.headers], head: this.#head, corks };
      this.#resolve(made);
    } catch (error) {
      this.#reject(error);
    }
  }

  /** The stream the chain's writes go into, with backpressure back to the writer. */
  #openBody(): ReadableStream<Uint8Array> {
    return (this.#body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => void (this.#sink = controller),
        pull: () => this.#wakeWriter(),
        cancel: () => {
          this.#sink = undefined;
          this.#wakeWriter();
        },
      },
      new ByteLengthQueuingStrategy({ highWaterMark: CAPTURE_HIGH_WATER_MARK }),
    ));
  }

  #enqueue(sink: ReadableStreamDefaultController<Uint8Array>, bytes: Uint8Array): void {
    this.#corks.wrote(bytes);
    sink.enqueue(bytes);
  }

  /** Nobody will read the body: the chain's writes are dropped; a writer waiting for 'drain' goes on. */
  #discard(): void {
    this.#sink = undefined;
    if (this.#body && !this.#body.locked) this.#body.cancel().catch(noop);
    this.#wakeWriter();
  }

  #wakeWriter(): void {
    if (!this.#owesDrain) return;
    this.#owesDrain = false;
    this.#res.emit('drain');
  }

  /** setHeader & co.: to `res` before the head; Node's own ERR_HTTP_HEADERS_SENT after it. */
  #headerCall(name: (typeof HEADER_CALLS)[number], args: unknown[]): unknown {
    if (this.#abandoned) return name === 'removeHeader' ? undefined : this.#res;
    if (this.#phase === 'no-head') return this.#original[name]!.apply(this.#res, args);
    return (sentProbe() as unknown as Record<Captured, Method>)[name](...args);
  }

  /** Puts back what `res` had, except where someone wrapped the capture's methods since: theirs stay. */
  #unpatch(): void {
    this.#patched = 'off';
    const target = this.#res as unknown as Record<string, unknown>;
    for (const [name, before] of this.#ownBefore) {
      if (name !== 'headersSent' && target[name] !== this.#installed[name as Captured]) continue;
      if (before) Object.defineProperty(target, name, before);
      else delete target[name];
    }
    this.#stopWatching();
  }
}

function upstreamHeaders(res: ServerResponse): UpstreamHeaders {
  const headers: UpstreamHeaders = new Map();
  // getRawHeaderNames (Node 15.13+, missing from @types/node 20): names as the app spelt them.
  const raw = (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames();
  for (const name of raw) {
    const value = res.getHeader(name);
    if (value !== undefined) headers.set(name.toLowerCase(), { name, value });
  }
  return headers;
}

function isChunk(chunk: unknown): boolean {
  return typeof chunk === 'string' || chunk instanceof Uint8Array;
}

function toBytes(chunk: unknown, encoding: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}

function pickCallback(...args: unknown[]): Callback | undefined {
  return args.find((a) => typeof a === 'function') as Callback | undefined;
}

function noop(): void {}
