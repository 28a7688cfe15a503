/**
 * `eventStream(request, run, options)`: a `text/event-stream` Response whose events `run` sends,
 * for a handler to return. Web-standard only (a `ReadableStream` body), so it works under the Node
 * bridge, `.fetch`, other runtimes and in a unit test alike.
 *
 * What it takes care of: the framing (format.ts); a comment every `heartbeat` milliseconds while
 * nothing else is sent, so proxies and load balancers do not cut an idle stream; the headers that
 * keep proxies from buffering it; the reconnecting client's `Last-Event-ID`; backpressure (`send()`
 * resolves once the reader has taken the event); an end that delivers everything sent before it;
 * and a final event when the mount shuts down (`endpoints.close()`).
 *
 * Events are queued as text and handed to the reader on its next read: events sent while the
 * reader is busy go out together, in one chunk, so a fast producer costs one write per read, not
 * one per event.
 */
import { formatComment, formatEvent, formatRetry, type EventMessage } from './format';

/** What a handler's `run` gets: the stream it sends events on. */
export interface EventStream<Data = unknown> {
  /** The `Last-Event-ID` the client sent: the id of the last event it received before it reconnected. */
  readonly lastEventId: string | undefined;
  /**
   * Aborts once the stream is over: the client left, the server is shutting down (its reason is then a
   * `ShutdownError`), `close()` was called, or `run` returned. Hand it to what `run` waits on.
   */
  readonly signal: AbortSignal;
  /** No event can be sent any more. */
  readonly closed: boolean;
  /**
   * Sends an event. Resolves to `true` once the reader has taken it (await it, so a slow client slows
   * the producer rather than filling memory), to `false` when the stream is over and nothing was sent.
   * Throws a `TypeError` for an event that cannot be framed: an event name or an id with a line break.
   */
  send(message: EventMessage<Data>): Promise<boolean>;
  /** Sends a comment line, which clients skip. */
  comment(text?: string): Promise<boolean>;
  /** Waits `ms` milliseconds; resolves to `false` early if the stream ends meanwhile, `true` otherwise. */
  sleep(ms: number): Promise<boolean>;
  /** Ends the stream once what was sent has been delivered. */
  close(): void;
}

type HeadersLike = ConstructorParameters<typeof Headers>[0];

export interface EventStreamOptions {
  /** Milliseconds of silence after which a comment line is sent; `false`: never. Default 15,000. */
  heartbeat?: number | false;
  /** Sent first: the milliseconds a client waits before it reconnects. Default: the client's own (about 3 s). */
  retry?: number;
  /**
   * Every event's data is JSON, a string too, and the Content-Type says so (`data=json`), for the typed
   * client. On by itself where the handler's contract declares `events`.
   */
  json?: boolean;
  /** Headers of the Response, beside (or replacing) the stream's own. */
  headers?: HeadersLike;
  /**
   * The last event of a stream the server ends because it is shutting down, before clients reconnect
   * elsewhere; its data is sent as it is. `false`: none. Default `{ event: 'shutdown', data: '' }`.
   */
  shutdownEvent?: EventMessage<string> | false;
}

/** The handler's side: what `run` is given, and what the Response streams. */
export type EventStreamRun<Data> = (stream: EventStream<Data>) => unknown;

/** How a stream's data is written, for a request whose handler has a contract with `events`. */
export interface EventDataSettings {
  /** Every value as JSON. */
  json: boolean;
  /** Told the data text of each event sent; never throws, and the event is not held back for it. */
  check?: (dataText: string, message: EventMessage) => void;
}

/** What the mount holds of a stream: how to end it on shutdown, and when it is over. */
export interface EventStreamControl {
  /** Sends the final event, then ends the stream; its signal aborts with `reason`. */
  shutdown(reason: unknown): void;
  /** Resolves once the stream is over: read to its end, failed or cancelled. */
  readonly over: Promise<void>;
}

const DEFAULT_HEARTBEAT = 15_000;
const DEFAULT_SHUTDOWN_EVENT: EventMessage<string> = { event: 'shutdown', data: '' };
const HEARTBEAT = ':\n';

// The request a stream answers, found by the mount when it shuts down, and by a contract's checks.
const streams = new WeakMap<Request, EventStreamControl>();
const dataSettings = new WeakMap<Request, EventDataSettings>();

/** The stream answering `request`, if its handler made one. */
export function eventStreamOf(request: Request): EventStreamControl | undefined {
  return streams.get(request);
}

/** For a contract with `events`: how the stream answering `request` writes and checks its data. */
export function setEventData(request: Request, settings: EventDataSettings): void {
  dataSettings.set(request, settings);
}

/**
 * @example
 * export function GET(request: Request) {
 *   return eventStream(request, async (stream) => {
 *     let n = Number(stream.lastEventId ?? 0);
 *     while (await stream.sleep(1000)) await stream.send({ id: String(++n), data: { n } });
 *   });
 * }
 */
export function eventStream<Data = unknown>(
  request: Request,
  run: EventStreamRun<Data>,
  options: EventStreamOptions = {},
): Response {
  if (typeof run !== 'function') throw new TypeError('eventStream(request, run): run must be a function');
  const settings = dataSettings.get(request);
  const json = settings?.json === true || options.json === true;
  const writer = new EventWriter<Data>(request, options, json, settings?.check);
  streams.set(request, writer.control);
  const headers = new Headers({
    'content-type': json ? 'text/event-stream; charset=utf-8; data=json' : 'text/event-stream; charset=utf-8',
    // Never stored: each client must get its own live stream.
    'cache-control': 'no-cache',
    // nginx (and proxies that copy it) would otherwise buffer the stream until a buffer fills.
    'x-accel-buffering': 'no',
  });
  new Headers(options.headers).forEach((value, name) => headers.set(name, value));
  const response = new Response(writer.body, { status: 200, headers });
  // After the Response exists: whatever `run` throws, even at once, ends the stream instead.
  Promise.resolve()
    .then(() => run(writer))
    .then(
      () => writer.close(),
      (error: unknown) => writer.fail(error),
    );
  return response;
}

const encoder = new TextEncoder();
const SENT = Promise.resolve(true);
const NOT_SENT = Promise.resolve(false);

type State = 'open' | 'closing' | 'done';

class EventWriter<Data> implements EventStream<Data> {
  readonly lastEventId: string | undefined;
  readonly body: ReadableStream<Uint8Array>;
  readonly control: EventStreamControl;
  readonly #abort = new AbortController();
  readonly #json: boolean;
  readonly #check: EventDataSettings['check'];
  readonly #shutdownEvent: EventMessage<string> | false;
  #body!: ReadableStreamDefaultController<Uint8Array>;
  #state: State = 'open';
  /** Text sent and not yet handed to the reader. */
  #pending = '';
  /** A read waits for text: the reader's pull, resolved once text is enqueued. */
  #wakeReader: (() => void) | undefined;
  /** Senders waiting for the reader to take their text. */
  #taken: { promise: Promise<boolean>; resolve(sent: boolean): void } | undefined;
  /** Why the stream fails once what was sent is delivered: `run` threw. */
  #failure: { error: unknown } | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #sentSinceBeat = false;
  #over!: () => void;

  constructor(
    request: Request,
    options: EventStreamOptions,
    json: boolean,
    check: EventDataSettings['check'],
  ) {
    this.lastEventId = request.headers.get('last-event-id') ?? undefined;
    this.#json = json;
    this.#check = check;
    this.#shutdownEvent = options.shutdownEvent ?? DEFAULT_SHUTDOWN_EVENT;
    const over = new Promise<void>((resolve) => (this.#over = resolve));
    this.control = { shutdown: (reason) => this.#shutdown(reason), over };
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => void (this.#body = controller),
        pull: () => this.#pull(),
        cancel: (reason) => this.#cancel(reason),
      },
      // Nothing is read ahead: text waits in `#pending`, where later events join it.
      { highWaterMark: 0 },
    );
    if (options.retry !== undefined) this.#pending = formatRetry(options.retry);
    const every = options.heartbeat ?? DEFAULT_HEARTBEAT;
    if (every !== false) {
      if (!(every > 0))
        throw new TypeError(`eventStream: heartbeat must be a number of milliseconds above 0, or false`);
      this.#heartbeat = setInterval(() => this.#beat(), every);
      // An open stream holds its connection, not the process: shutting down is the server's to decide.
      this.#heartbeat.unref?.();
    }
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get closed(): boolean {
    return this.#state !== 'open';
  }

  send(message: EventMessage<Data>): Promise<boolean> {
    if (this.#state !== 'open') return NOT_SENT;
    if (typeof message !== 'object' || message === null) {
      throw new TypeError('send(event) takes an object: { data, event?, id?, retry? }');
    }
    const data = this.#dataText(message.data);
    const text = formatEvent(message, data);
    this.#check?.(data, message);
    return this.#write(text);
  }

  comment(text = ''): Promise<boolean> {
    if (this.#state !== 'open') return NOT_SENT;
    return this.#write(formatComment(String(text)));
  }

  sleep(ms: number): Promise<boolean> {
    if (this.#state !== 'open') return NOT_SENT;
    return new Promise((resolve) => {
      const signal = this.#abort.signal;
      const ended = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', ended);
        resolve(this.#state === 'open');
      }, ms);
      signal.addEventListener('abort', ended, { once: true });
    });
  }

  close(): void {
    this.#end(new DOMException('The event stream was closed', 'AbortError'));
  }

  /** `run` threw: what was sent is delivered, then the stream fails with the error (the host reports it). */
  fail(error: unknown): void {
    // An end `run` was told about (the signal's reason) is no failure of its own.
    const signal = this.#abort.signal;
    if (signal.aborted && (error === signal.reason || (error as Error | null)?.name === 'AbortError')) {
      this.close();
      return;
    }
    if (this.#state === 'done') return;
    this.#failure ??= { error };
    this.#end(error);
  }

  #dataText(data: unknown): string {
    if (!this.#json && typeof data === 'string') return data;
    const text = JSON.stringify(data) as string | undefined;
    if (text === undefined)
      throw new TypeError(`An event's data must be a string or a JSON value, not ${typeof data}`);
    return text;
  }

  #write(text: string): Promise<boolean> {
    this.#pending += text;
    this.#sentSinceBeat = true;
    const wake = this.#wakeReader;
    if (wake === undefined) return (this.#taken ??= taken()).promise;
    this.#wakeReader = undefined;
    this.#deliver();
    wake();
    return SENT;
  }

  #pull(): Promise<void> | void {
    if (this.#pending !== '') return this.#deliver();
    if (this.#state !== 'open') return this.#finish();
    return new Promise<void>((resolve) => (this.#wakeReader = resolve));
  }

  /** Hands the pending text to the reader, and tells its senders. */
  #deliver(): void {
    const text = this.#pending;
    this.#pending = '';
    this.#body.enqueue(encoder.encode(text));
    const waiting = this.#taken;
    this.#taken = undefined;
    waiting?.resolve(true);
  }

  #beat(): void {
    if (this.#sentSinceBeat) this.#sentSinceBeat = false;
    else if (this.#state === 'open') void this.#write(HEARTBEAT);
  }

  #shutdown(reason: unknown): void {
    if (this.#state !== 'open') return;
    const last = this.#shutdownEvent;
    // Written as it is: a control event, not one of the stream's own data.
    if (last !== false) this.#pending += formatEvent(last, String(last.data));
    this.#end(reason);
  }

  /** No more events: the reader gets what is pending, then the end (or the failure). */
  #end(reason: unknown): void {
    if (this.#state !== 'open') return;
    this.#state = 'closing';
    this.#stopBeating();
    this.#abort.abort(reason);
    const wake = this.#wakeReader;
    if (wake === undefined) return; // the reader's next pull delivers, then finishes
    this.#wakeReader = undefined;
    if (this.#pending !== '') this.#deliver();
    else this.#finish();
    wake();
  }

  #finish(): void {
    if (this.#state === 'done') return;
    this.#state = 'done';
    const failure = this.#failure;
    if (failure) this.#body.error(failure.error);
    else this.#body.close();
    this.#over();
  }

  /** The reader is gone (the client left, or a HEAD answer dropped the body). */
  #cancel(reason: unknown): void {
    const wasOpen = this.#state === 'open';
    this.#state = 'done';
    this.#pending = '';
    this.#stopBeating();
    if (wasOpen) this.#abort.abort(reason ?? new DOMException('The client left', 'AbortError'));
    this.#taken?.resolve(false);
    this.#taken = undefined;
    this.#over();
  }

  #stopBeating(): void {
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }
}

function taken(): { promise: Promise<boolean>; resolve(sent: boolean): void } {
  let resolve!: (sent: boolean) => void;
  const promise = new Promise<boolean>((r) => (resolve = r));
  return { promise, resolve };
}
