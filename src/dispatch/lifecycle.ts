/**
 * A mount's life until it closes: the requests its handlers are answering, the `after()` callbacks
 * still running, and how `endpoints.close({ timeout })` ends them. Host-independent: each host (the
 * Node bridge, `.fetch`) enters its requests here and says how one is aborted.
 *
 * Nothing here costs a request more than a few pointer writes and a counter while the mount is open:
 * the requests in flight are a linked list through the hosts' own request objects, and only closing
 * walks it, but for one step per request (`#sweep`).
 */
import { eventStreamOf } from '../event-stream';

/**
 * Why a request, or an event stream, was ended by the server shutting down rather than by its client:
 * `request.signal.reason` past the timeout of `endpoints.close({ timeout })`, and an event stream's
 * `signal.reason` when the mount closes. Its `name` is `'ShutdownError'`, which a check can use where
 * `instanceof` cannot (two copies of the library in one process).
 */
export class ShutdownError extends Error {
  constructor(message = 'The server is shutting down') {
    super(message);
    this.name = 'ShutdownError';
  }
}

/** A request a host is answering, as the lifecycle keeps it: the host's own object, linked in place. */
export interface InFlight {
  previousInFlight: InFlight | undefined;
  nextInFlight: InFlight | undefined;
  /** The Request the handler got, once built: its event stream, if any, is ended on close. */
  readonly builtRequest: Request | undefined;
  /** Whether the client left before its answer was complete. */
  clientGone(): boolean;
  /** Set by the lifecycle to a request it no longer lists: ends the hold that counts it as busy. */
  letGo?: (() => void) | undefined;
  /** Ends the request now: the client's connection is cut, the handler's `request.signal` aborted with `reason`. */
  abort(reason: ShutdownError): void;
}

export interface CloseOptions {
  /**
   * Milliseconds to wait for the requests in flight and their `after()` callbacks; then what still
   * runs is aborted with a `ShutdownError`. Default 10,000; `Infinity` waits for as long as they run.
   */
  timeout?: number;
}

const DEFAULT_TIMEOUT = 10_000;
/** How long requests aborted past the timeout have to end, before `close()` resolves regardless. */
const ABORT_GRACE = 1000;
/** The longest delay setTimeout keeps: 2^31 - 1 ms, about 24.8 days. */
const MAX_TIMER = 2 ** 31 - 1;
const ENDED_STREAM = 'The server is shutting down: the event stream was ended';

export class Lifecycle {
  /** Set once `close()` is called: new requests for the tree are refused (503). */
  closing = false;
  #first: InFlight | undefined;
  /** Requests in flight, `after()` callbacks running and event streams a host still holds. */
  #busy = 0;
  #idle: (() => void) | undefined;
  #closed: Promise<void> | undefined;

  /** Where `#sweep` looks next. */
  #sweepAt: InFlight | undefined;

  enter(flight: InFlight): void {
    this.#sweep();
    this.#busy++;
    const first = this.#first;
    flight.nextInFlight = first;
    if (first !== undefined) first.previousInFlight = flight;
    this.#first = flight;
  }

  /**
   * A handler that never settles after its client left would stay listed for good, and its Request
   * with it (nothing else holds them: a promise nobody resolves is garbage). So each new request looks
   * at one listed request, the next in turn, and takes one whose client has gone off the list. It still
   * counts as busy (a closing mount waits for it up to its timeout), through a hold that only the
   * handler's own promise keeps: once that is unreachable, so is the request.
   */
  #sweep(): void {
    const flight = this.#sweepAt ?? this.#first;
    if (flight === undefined) return;
    this.#sweepAt = flight.nextInFlight;
    if (!flight.clientGone()) return;
    this.leave(flight);
    flight.letGo = this.hold();
  }

  leave(flight: InFlight): void {
    if (this.#sweepAt === flight) this.#sweepAt = flight.nextInFlight;
    const letGo = flight.letGo;
    if (letGo !== undefined) {
      // Swept off the list: what the host ends now is the hold that stood for it.
      flight.letGo = undefined;
      return letGo();
    }
    const { previousInFlight: previous, nextInFlight: next } = flight;
    if (previous !== undefined) previous.nextInFlight = next;
    else if (this.#first === flight) this.#first = next;
    else return; // left already
    if (next !== undefined) next.previousInFlight = previous;
    flight.previousInFlight = flight.nextInFlight = undefined;
    this.#release();
  }

  /**
   * A request that answered while the mount was closing: its event stream, made after the close
   * began, ends at once with its final event.
   */
  endLate(flight: InFlight): void {
    const request = flight.builtRequest;
    if (request !== undefined) eventStreamOf(request)?.shutdown(new ShutdownError(ENDED_STREAM));
  }

  /** Keeps the mount busy until the returned function is called: `after()` callbacks. */
  hold(): () => void {
    this.#busy++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#release();
    };
  }

  #release(): void {
    if (--this.#busy === 0) this.#idle?.();
  }

  /**
   * Refuses new requests, ends open event streams with their final event, waits up to `timeout` for
   * the rest, then aborts what still runs. Resolves once idle, or once aborted; calling it again
   * returns the same promise. `timeout` is one `closeTimeout` checked.
   */
  close(timeout: number): Promise<void> {
    return (this.#closed ??= this.#close(timeout));
  }

  async #close(timeout: number): Promise<void> {
    this.closing = true;
    const ending = new ShutdownError(ENDED_STREAM);
    for (let flight = this.#first; flight !== undefined; flight = flight.nextInFlight) {
      const request = flight.builtRequest;
      if (request !== undefined) eventStreamOf(request)?.shutdown(ending);
    }
    if (await this.#idleWithin(timeout)) return;
    const reason = new ShutdownError(
      `The server is shutting down: endpoints.close() stopped waiting for this request after ${timeout} ms`,
    );
    for (let flight = this.#first; flight !== undefined;) {
      const next = flight.nextInFlight;
      flight.abort(reason);
      flight = next;
    }
    // A cut connection tells its request a few turns of the event loop later: handlers that end on
    // the abort do so before this resolves; one that ignores it is not waited for long.
    await this.#idleWithin(ABORT_GRACE);
  }

  /** Whether the mount is idle now, or becomes so within `ms` (`Infinity`: whenever it does). */
  async #idleWithin(ms: number): Promise<boolean> {
    if (this.#busy === 0) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const idle = new Promise<boolean>((resolve) => (this.#idle = () => resolve(true)));
    const late = new Promise<boolean>((resolve) => {
      if (ms === Infinity) return;
      // setTimeout takes at most 2^31 - 1 ms and fires at once past it: longer waits go in steps.
      const until = Date.now() + ms;
      const wait = () => {
        const left = until - Date.now();
        if (left <= 0) resolve(false);
        else timer = setTimeout(wait, Math.min(left, MAX_TIMER));
      };
      wait();
    });
    const wasIdle = await Promise.race([idle, late]);
    clearTimeout(timer);
    this.#idle = undefined;
    return wasIdle;
  }
}

/** The timeout `close()` waits, checked: a wait that is not a number would end at once or never. */
export function closeTimeout(options: CloseOptions = {}): number {
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  if (typeof timeout !== 'number' || !(timeout >= 0)) {
    throw new TypeError(
      `close({ timeout }): a number of milliseconds, 0 or more, or Infinity; got ${String(timeout)}`,
    );
  }
  return timeout;
}
