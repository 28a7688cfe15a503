/**
 * The heartbeat of an event stream (event-writer.ts, which `eventStream` and a topic subscription's
 * `toEventStream()` both write through): `beat()` runs once `every` milliseconds have passed since the last write, so the
 * stream is never silent for longer than that. Proxies and load balancers cut a connection that has
 * been idle for their timeout, whatever was sent before the silence began.
 *
 * One timer for the stream's life: a write only notes the time, and the timer, when it fires early
 * for a write since, waits out the rest of the interval rather than beating.
 */

export const DEFAULT_HEARTBEAT = 15_000;

/** `every` as given (default 15 s), checked: a number of milliseconds above 0, or `false` for none. */
export function heartbeatInterval(every: number | false | undefined, who: string): number | false {
  const interval = every ?? DEFAULT_HEARTBEAT;
  if (interval !== false && !(typeof interval === 'number' && interval > 0)) {
    throw new TypeError(`${who}: heartbeat must be a number of milliseconds above 0, or false`);
  }
  return interval;
}

// Timers run on whole milliseconds and never early, but the clock read here is finer: a timer that
// fired "1 ms early" by it is on time.
const TIMER_GRAIN = 1;

export class Heartbeat {
  readonly #every: number;
  readonly #beat: () => void;
  #last = performance.now();
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `beat` is told when the stream has been silent for `every` ms; what it writes counts as a write. */
  constructor(every: number, beat: () => void) {
    this.#every = every;
    this.#beat = beat;
    this.#schedule(every);
  }

  /** Something went out on the stream now. */
  wrote(): void {
    this.#last = performance.now();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(ms: number): void {
    this.#timer = setTimeout(this.#tick, ms);
    // An open stream holds its connection, not the process: shutting down is the server's to decide.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  readonly #tick = (): void => {
    if (this.#timer === undefined) return;
    const silent = performance.now() - this.#last;
    if (silent + TIMER_GRAIN < this.#every) return this.#schedule(this.#every - silent);
    this.#beat();
    this.wrote();
    if (this.#timer !== undefined) this.#schedule(this.#every);
  };
}
