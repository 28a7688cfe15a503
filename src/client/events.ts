/**
 * `api.events(route, options)`: an endpoint's event stream as an async iterator of events, read as a
 * browser's EventSource reads it, with what EventSource lacks: any headers, typed (JSON) data, a
 * backoff, and an end on an AbortSignal.
 *
 * Like EventSource, it reconnects when the stream ends or the connection breaks, sending the last
 * event id it received as `Last-Event-ID`, so the endpoint goes on from there; the wait is the
 * stream's `retry:`, or `reconnect.delay`, doubled after each attempt that brought no event, up to
 * `reconnect.maxDelay`, and jittered so that clients a deploy dropped together do not come back
 * together. `204 No Content` ends it, as it tells EventSource to stop; 502, 503 and 504 (a server
 * shutting down, a proxy in front of one) are tried again after the backoff or `Retry-After`; any
 * other answer that is not an event stream throws an `EventStreamError`.
 *
 * Unlike EventSource, the server cannot make it spin or grow without bound: no wait is shorter than
 * `reconnect.minDelay`, whatever `retry:` or `Retry-After` say (the standard lets a user agent wait
 * longer than asked: WHATWG HTML, section 9.2.3), and an event longer than `maxEventSize` ends the
 * iteration with an `EventTooLargeError`, which is not tried again.
 */
import { EventParser, EventTooLargeError } from './event-parser';

export { EventTooLargeError };

/** One event of the stream. */
export interface ClientEvent<Data = string> {
  /** Its type: `message` when the stream named none. */
  event: string;
  /** Its data: parsed JSON in a stream of JSON data (`data=json` in its Content-Type), else text. */
  data: Data;
  /** The last event id the stream set, this event's or an earlier one's; `''` when none. */
  id: string;
}

/** How `events()` reconnects. */
export interface ReconnectOptions {
  /** Milliseconds before the first attempt, until the stream's `retry:` says otherwise. Default 1,000. */
  delay?: number;
  /** The longest wait, however many attempts failed. Default 30,000. */
  maxDelay?: number;
  /**
   * The shortest wait, whatever the stream's `retry:` or a `Retry-After` asks: `retry: 0` cannot make
   * the client reconnect in a loop. Default 1,000, or `delay` when that is shorter.
   */
  minDelay?: number;
}

/** What `events()` takes beside a request's params, query and headers. */
export interface EventsOptions {
  /** Ends the iteration (quietly) and the connection. */
  signal?: AbortSignal;
  /** Resume after this event id on the first connection, as a reconnection would. */
  lastEventId?: string;
  /** `false`: the iteration ends with the stream, and a broken connection throws. Default: reconnect. */
  reconnect?: ReconnectOptions | false;
  /** How each event's data is read: by the stream's Content-Type (default), as JSON, or as text. */
  decode?: 'json' | 'text';
  /**
   * The longest an event may grow, in characters: its data and the line being read together. A longer
   * one ends the iteration with an `EventTooLargeError`, without reconnecting. Default 1,048,576 (1 MiB
   * of ASCII); `Infinity`: no bound.
   */
  maxEventSize?: number;
}

/** An answer that is not an event stream, and not one to try again: it ends the iteration. */
export class EventStreamError extends Error {
  constructor(
    readonly status: number,
    readonly response: Response,
    message: string,
  ) {
    super(message);
    this.name = 'EventStreamError';
  }
}

/** The library's own last event, when the server shuts the stream down: a cue to reconnect, not data. */
const SHUTDOWN_EVENT = 'shutdown';
const RETRY_STATUSES = new Set([502, 503, 504]);
const DEFAULT_DELAY = 1000;
const DEFAULT_MAX_DELAY = 30_000;
// A second: what a browser waits by default is about 3 s, so an honest `retry:` below 1 s is rare, and a
// client that retries a broken server once a second costs it little.
const DEFAULT_MIN_DELAY = 1000;
// Far above what an event carries (a token, a JSON update, a page of a log), and a bound on what a
// stream that never ends a line can cost: about 2 MB of memory for the text (UTF-16) at the most.
const DEFAULT_MAX_EVENT_SIZE = 1024 * 1024;

/**
 * The events of the stream that `request(lastEventId, signal)` asks for, connection after connection.
 * `send` is the client's fetch.
 */
export async function* readEvents(
  send: (request: Request) => Promise<Response>,
  request: (lastEventId: string, signal: AbortSignal) => Request,
  options: EventsOptions,
): AsyncGenerator<ClientEvent<unknown>, void, undefined> {
  const stop = new AbortController();
  const outer = options.signal;
  const onAbort = () => stop.abort(outer?.reason);
  if (outer?.aborted) return;
  outer?.addEventListener('abort', onAbort, { once: true });
  const reconnect = options.reconnect === false ? undefined : (options.reconnect ?? {});
  let base = reconnect?.delay ?? DEFAULT_DELAY;
  const max = reconnect?.maxDelay ?? DEFAULT_MAX_DELAY;
  const min = reconnect?.minDelay ?? Math.min(DEFAULT_MIN_DELAY, base);
  const maxEventSize = options.maxEventSize ?? DEFAULT_MAX_EVENT_SIZE;
  let lastEventId = options.lastEventId ?? '';
  let failures = 0;
  const atLeast = (ms: number): number => Math.max(min, ms);
  const backoff = (): number => atLeast(jitter(Math.min(max, base * 2 ** failures)));
  try {
    for (;;) {
      // Outside the try below: a request that cannot be built is no network error to try again.
      const next = request(lastEventId, stop.signal);
      let response: Response;
      try {
        response = await send(next);
      } catch (error) {
        if (stop.signal.aborted) return;
        if (!reconnect) throw error;
        if (!(await wait(backoff(), stop.signal))) return;
        failures++;
        continue;
      }
      if (response.status === 204) return void response.body?.cancel().catch(noop);
      if (RETRY_STATUSES.has(response.status) && reconnect) {
        void response.body?.cancel().catch(noop);
        const after = retryAfter(response.headers.get('retry-after'));
        if (!(await wait(after === undefined ? backoff() : atLeast(Math.min(after, max)), stop.signal)))
          return;
        failures++;
        continue;
      }
      const type = response.headers.get('content-type') ?? '';
      if (!response.ok || response.body === null || !/^\s*text\/event-stream\s*(?:;|$)/i.test(type)) {
        void response.body?.cancel().catch(noop);
        throw new EventStreamError(
          response.status,
          response,
          `${response.url || 'the event stream'} answered ${response.status} ${type ? `(${type})` : 'with no Content-Type'}, not an event stream`,
        );
      }
      const json =
        options.decode === 'json' || (options.decode === undefined && /;\s*data=json\s*(?:;|$)/i.test(type));
      const parser = new EventParser(lastEventId, maxEventSize);
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      let received = false;
      try {
        for (;;) {
          const chunk = await reader.read();
          const text = chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
          for (const event of parser.push(text)) {
            lastEventId = event.lastEventId;
            if (event.type === SHUTDOWN_EVENT && event.data === '') continue;
            received = true;
            const data = json ? parseJson(event.data, event.type) : event.data;
            yield { event: event.type, data, id: event.lastEventId };
          }
          lastEventId = parser.lastEventId;
          if (parser.retry !== undefined) base = parser.retry;
          if (chunk.done) break;
        }
      } catch (error) {
        if (stop.signal.aborted) return;
        // What the connection brought is kept; a broken one is tried again, like one that ended. What
        // the stream itself got wrong would go wrong again.
        if (!reconnect || error instanceof SyntaxError || error instanceof EventTooLargeError) throw error;
      } finally {
        reader.cancel().catch(noop);
      }
      if (!reconnect) return;
      failures = received ? 0 : failures + 1;
      if (!(await wait(backoff(), stop.signal))) return;
    }
  } finally {
    outer?.removeEventListener('abort', onAbort);
    stop.abort();
  }
}

function parseJson(text: string, type: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SyntaxError(
      `A "${type}" event's data is not JSON, though the stream says its data is: ${JSON.stringify(text.slice(0, 60))}`,
    );
  }
}

/** Between half and all of `ms`: clients dropped together come back spread out. */
function jitter(ms: number): number {
  return ms / 2 + Math.random() * (ms / 2);
}

/** Seconds, or an HTTP date, as milliseconds from now (RFC 9110, section 10.2.3). */
function retryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Resolves `true` after `ms`, or `false` at once when `signal` aborts first. */
function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', done);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function noop(): void {}
