/**
 * The one writer of server-sent events: the stream `eventStream` hands to `run`, and the body of its
 * Response; a topic subscription's `toEventStream()` writes its publications through it too. Events
 * are queued as text and handed to the reader on its next read: events sent while the reader is busy
 * go out together, in one chunk, so a fast producer costs one write per read, not one per event.
 */
import type {
  EventDataSettings,
  EventStream,
  EventStreamControl,
  EventStreamFailure as Failure,
  EventStreamOptions,
} from './types';
import { formatComment, formatEvent, formatRetry, type EventMessage } from './format';
import { Heartbeat, heartbeatInterval } from './heartbeat';

const DEFAULT_SHUTDOWN_EVENT: EventMessage<string> = { event: 'shutdown', data: '' };
// A failure reaches the reader this long after the last text it took, at the least. Hosts look at a
// body for a few turns of the event loop before they send its head (to tell a whole body from a
// stream), then write through buffers that let go later: Node holds a socket's writes until the next
// tick, compression() until zlib hands its output back. The broken connection must come after that
// text, never instead of it (a failure seen while the host still looks is answered with a 500).
const FAILURE_DELAY = 50;

const encoder = new TextEncoder();
const SENT = Promise.resolve(true);
const NOT_SENT = Promise.resolve(false);

type State = 'open' | 'closing' | 'done';

/** What a writer is made with: the options of `eventStream` (or `toEventStream`), and what its caller knows. */
export interface EventWriterSettings extends Pick<
  EventStreamOptions,
  'heartbeat' | 'retry' | 'shutdownEvent'
> {
  /** The `Last-Event-ID` the client sent. */
  lastEventId?: string;
  /** Every value as JSON. */
  json?: boolean;
  check?: EventDataSettings['check'];
  /** What messages call the function the options were given to: `eventStream`. */
  caller: string;
  /** What a heartbeat writes. Default `:` and a line break, a comment line. */
  heartbeatText?: string;
}

export class EventWriter<Data> implements EventStream<Data> {
  readonly lastEventId: string | undefined;
  readonly body: ReadableStream<Uint8Array>;
  readonly control: EventStreamControl;
  readonly #abort = new AbortController();
  readonly #json: boolean;
  readonly #check: EventDataSettings['check'];
  /** The final event on shutdown, framed when the writer is made: one that cannot be is refused at the call. */
  readonly #shutdownText: string | undefined;
  readonly #heartbeatText: string;
  readonly #heartbeat: Heartbeat | undefined;
  #body!: ReadableStreamDefaultController<Uint8Array>;
  #state: State = 'open';
  /** Text sent and not yet handed to the reader. */
  #pending = '';
  /** A read waits for text: the reader's pull, resolved once text is enqueued. */
  #wakeReader: (() => void) | undefined;
  /** Senders waiting for the reader to take their text. */
  #taken: { promise: Promise<boolean>; resolve(sent: boolean): void } | undefined;
  /** Why the stream fails once what was sent is delivered: `run` threw. */
  #failure: Failure | undefined;
  /**
   * `run` has sent an event or a comment, or a heartbeat went out. Until then nothing is handed to
   * the reader, the `retry:` line the stream starts with included: a `run` that throws first fails
   * the request as any handler's error does, before the host has sent a thing.
   */
  #begun = false;
  /** When the reader last took text (performance.now()); undefined until it first has. */
  #deliveredAt: number | undefined;
  #started: ((failure: Failure | undefined) => void) | undefined;
  #startedPromise: Promise<Failure | undefined> | undefined;
  #over!: (failure: Failure | undefined) => void;

  constructor(settings: EventWriterSettings) {
    this.lastEventId = settings.lastEventId;
    this.#json = settings.json === true;
    this.#check = settings.check;
    const last = settings.shutdownEvent ?? DEFAULT_SHUTDOWN_EVENT;
    // Written as it is: a control event, not one of the stream's own data.
    this.#shutdownText = last === false ? undefined : formatEvent(last, String(last.data));
    this.#heartbeatText = settings.heartbeatText ?? ':\n';
    const every = heartbeatInterval(settings.heartbeat, settings.caller);
    const over = new Promise<Failure | undefined>((resolve) => (this.#over = resolve));
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => void (this.#body = controller),
        pull: () => this.#pull(),
        cancel: (reason) => this.#cancel(reason),
      },
      // Nothing is read ahead: text waits in `#pending`, where later events join it.
      { highWaterMark: 0 },
    );
    this.control = {
      shutdown: (reason) => this.#shutdown(reason),
      over,
      body: this.body,
      started: () => this.#whenStarted(),
    };
    if (settings.retry !== undefined) this.#pending = formatRetry(settings.retry);
    if (every !== false) this.#heartbeat = new Heartbeat(every, () => this.#beat());
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
    return this.#sendText(text);
  }

  comment(text = ''): Promise<boolean> {
    if (this.#state !== 'open') return NOT_SENT;
    return this.#sendText(formatComment(String(text)));
  }

  /** Sends text that is framed already: a comment of the library's own, written as it is. */
  sendFramed(text: string): Promise<boolean> {
    if (this.#state !== 'open') return NOT_SENT;
    return this.#sendText(text);
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
    if (this.#state !== 'open') return;
    this.#failure = { error };
    if (!this.#begun) {
      // Nothing went out: the host answers with the error as with any handler's.
      this.#pending = '';
      this.#settleStart(this.#failure);
    }
    this.#end(error);
  }

  #dataText(data: unknown): string {
    if (!this.#json && typeof data === 'string') return data;
    const text = JSON.stringify(data) as string | undefined;
    if (text === undefined)
      throw new TypeError(`An event's data must be a string or a JSON value, not ${typeof data}`);
    return text;
  }

  #sendText(text: string): Promise<boolean> {
    this.#begin();
    return this.#write(text);
  }

  #begin(): void {
    if (this.#begun) return;
    this.#begun = true;
    this.#settleStart(undefined);
  }

  #write(text: string): Promise<boolean> {
    this.#pending += text;
    const wake = this.#wakeReader;
    if (wake === undefined) return (this.#taken ??= taken()).promise;
    this.#wakeReader = undefined;
    this.#deliver();
    wake();
    return SENT;
  }

  #pull(): Promise<void> | void {
    if (this.#pending !== '' && (this.#begun || this.#state !== 'open')) return this.#deliver();
    if (this.#state !== 'open') return this.#finish();
    return new Promise<void>((resolve) => (this.#wakeReader = resolve));
  }

  /** Hands the pending text to the reader, and tells its senders. */
  #deliver(): void {
    const text = this.#pending;
    this.#pending = '';
    this.#body.enqueue(encoder.encode(text));
    this.#deliveredAt = performance.now();
    this.#heartbeat?.wrote();
    const waiting = this.#taken;
    this.#taken = undefined;
    waiting?.resolve(true);
  }

  /** Silence for a heartbeat: a comment, unless text is waiting for the reader already. */
  #beat(): void {
    if (this.#state !== 'open' || (this.#begun && this.#pending !== '')) return;
    this.#begin();
    void this.#write(this.#heartbeatText);
  }

  #shutdown(reason: unknown): void {
    if (this.#state !== 'open') return;
    if (this.#shutdownText !== undefined) this.#pending += this.#shutdownText;
    this.#end(reason);
  }

  /** No more events: the reader gets what is pending, then the end (or the failure). */
  #end(reason: unknown): void {
    if (this.#state !== 'open') return;
    this.#state = 'closing';
    this.#heartbeat?.stop();
    this.#settleStart(undefined);
    this.#abort.abort(reason);
    const wake = this.#wakeReader;
    if (wake === undefined) return; // the reader's next pull delivers, then finishes
    this.#wakeReader = undefined;
    if (this.#pending !== '') this.#deliver();
    else void this.#finish();
    wake();
  }

  #finish(): Promise<void> | void {
    if (this.#state === 'done') return;
    this.#state = 'done';
    const failure = this.#failure;
    if (failure === undefined) {
      this.#body.close();
      return this.#over(undefined);
    }
    const wait = this.#deliveredAt === undefined ? 0 : this.#deliveredAt + FAILURE_DELAY - performance.now();
    if (!(wait > 0)) return this.#fail(failure);
    return new Promise<void>((resolve) => setTimeout(resolve, wait)).then(() => this.#fail(failure));
  }

  #fail(failure: Failure): void {
    this.#body.error(failure.error);
    this.#over(failure);
  }

  /** The reader is gone (the client left, or a HEAD answer dropped the body). */
  #cancel(reason: unknown): void {
    const wasOpen = this.#state === 'open';
    this.#state = 'done';
    this.#pending = '';
    this.#heartbeat?.stop();
    this.#settleStart(undefined);
    if (wasOpen) this.#abort.abort(reason ?? new DOMException('The client left', 'AbortError'));
    this.#taken?.resolve(false);
    this.#taken = undefined;
    this.#over(this.#failure);
  }

  /** Settles once `run` has sent something, failed or ended, or a turn of the event loop has passed. */
  #whenStarted(): Promise<Failure | undefined> {
    if (this.#startedPromise) return this.#startedPromise;
    this.#startedPromise = new Promise((resolve) => (this.#started = resolve));
    if (this.#begun || this.#state !== 'open') this.#settleStart(this.#begun ? undefined : this.#failure);
    else setTimeout(() => this.#settleStart(undefined), 0);
    return this.#startedPromise;
  }

  #settleStart(failure: Failure | undefined): void {
    const started = this.#started;
    if (started === undefined) return;
    this.#started = undefined;
    started(failure);
  }
}

function taken(): { promise: Promise<boolean>; resolve(sent: boolean): void } {
  let resolve!: (sent: boolean) => void;
  const promise = new Promise<boolean>((r) => (resolve = r));
  return { promise, resolve };
}
