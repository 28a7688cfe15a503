/**
 * The Request a handler gets under `.fetch`: the caller's (Bun's, Deno's, a Node adapter's, a test's),
 * copied into a real `Request` (its URL, method, headers and body), with what the tree promises on
 * every host:
 *
 * - its body is counted against the endpoint's `bodyLimit` as it is read, and a read that fails
 *   because the client left says so (src/dispatch/body-rules.ts);
 * - its `signal` aborts when the client leaves before the response is complete, and only then. Deno's
 *   `Deno.serve` also aborts a request's signal after every response it completed; Bun's and Node's
 *   servers do not. So the caller's signal is followed until the response is complete (the `Exchange`
 *   below), and its abort after that is not the client leaving.
 *
 * The copy follows no signal of its own (`signal: null`): copying a Request with its signal costs
 * tens of microseconds on Node, most of a request's time through `.fetch`. Handlers see ours, made
 * when first read: one listener on the caller's signal, and only for handlers that use it. Reading
 * Deno's signal also makes Deno print a notice about its own behaviour, which ours does not have.
 */
import { countedBody } from '../dispatch';
import { assertFetchGlobals } from '../fetch-globals';

/**
 * The mark `createTestRequest` puts on its Requests (src/contract/response-checks.ts), carried over
 * to the copy so that its response contracts are still checked. `Symbol.for`: the same key there.
 */
const TEST_REQUEST = Symbol.for('express-file-endpoints.test-request');

type RequestInitWithDuplex = RequestInit & { duplex?: 'half' };

// Before `extends Request` needs it: without the global, the import of the package fails saying why.
assertFetchGlobals();

export class ServedRequest extends Request {
  readonly #source: Request;
  readonly #exchange: Exchange;
  #signal: AbortSignal | undefined;

  constructor(source: Request, exchange: Exchange, bodyLimit: number | false) {
    // Copied from its parts, not with `new Request(source)`: servers on Node (srvx, @hono/node-server) hand
    // over look-alikes of a Request, which Node's Request constructor cannot copy.
    const init: RequestInitWithDuplex = { method: source.method, headers: source.headers, signal: null };
    const body = source.body;
    if (body !== null) {
      init.body = countedBody(body, bodyLimit, (listener) => exchange.onEndedEarly(listener));
      init.duplex = 'half';
    }
    super(source.url, init);
    this.#source = source;
    this.#exchange = exchange;
    if ((source as Request & { [TEST_REQUEST]?: boolean })[TEST_REQUEST] === true) {
      Object.defineProperty(this, TEST_REQUEST, { value: true });
    }
  }

  override get signal(): AbortSignal {
    return (this.#signal ??= this.#exchange.signalFollowing(this.#source));
  }
}

/**
 * One `.fetch` exchange, as far as the request's signal goes: whether the response is complete, and
 * the signal handlers got, if one did.
 */
export class Exchange {
  #over = false;
  #controller: AbortController | undefined;
  #onEndedEarly: ((reason: unknown) => void) | undefined;
  #early = false;

  /** Whether the exchange ended before the response was complete. */
  get isEndedEarly(): boolean {
    return this.#early;
  }

  /** Tells `listener` if the exchange ends early: the request's body stops waiting for the client. */
  onEndedEarly(listener: (reason: unknown) => void): void {
    this.#onEndedEarly = listener;
  }

  /** Whether a handler took the signal: the response's end is then watched, to tell when the exchange is over. */
  get watched(): boolean {
    return this.#controller !== undefined;
  }

  /**
   * A signal that follows `source`'s while the exchange lasts. Made once it is over (the handler read
   * it only after the response was complete, or only while its body streamed with nobody watching it):
   * one that never aborts, since what the caller's signal says then is not known to be the client
   * leaving. A stream still learns that the client left from its own `cancel()`.
   */
  signalFollowing(source: Request): AbortSignal {
    const controller = (this.#controller = new AbortController());
    if (this.#over) return controller.signal;
    const callers = source.signal;
    if (callers.aborted) controller.abort(callers.reason);
    else callers.addEventListener('abort', () => this.endedEarly(callers.reason), { once: true });
    return controller.signal;
  }

  /**
   * The response ended before it was complete: the client left (the caller's signal, or the body
   * cancelled), or its body failed, after which nobody receives the rest either. The signal aborts.
   */
  endedEarly(reason: unknown): void {
    if (this.#over) return;
    this.#over = true;
    this.#early = true;
    this.#controller?.abort(reason);
    this.#onEndedEarly?.(reason);
  }

  /** The response is complete: whatever the caller's signal does from now on, the client did not leave. */
  complete(): void {
    this.#over = true;
  }
}
