/** The vocabulary of event streams: what `run` gets, the options, and what hosts hold of a stream. */
import type { EventMessage } from './format';

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

/** How `run` failed: what it threw. */
export interface EventStreamFailure {
  error: unknown;
}

/** What the mount holds of a stream: how to end it on shutdown, and when it is over. */
export interface EventStreamControl {
  /** Sends the final event, then ends the stream; its signal aborts with `reason`. */
  shutdown(reason: unknown): void;
  /** Resolves once the stream is over: read to its end, failed or cancelled; to the failure, if `run` threw. */
  readonly over: Promise<EventStreamFailure | undefined>;
  /** The body of the stream's Response. */
  readonly body: ReadableStream<Uint8Array>;
  /**
   * Settles once `run` has sent an event or a comment, the stream has ended, or a turn of the event
   * loop has passed; to the failure if `run` threw before any of that, when nothing was sent.
   */
  started(): Promise<EventStreamFailure | undefined>;
}
