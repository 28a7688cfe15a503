/**
 * One call of an endpoint: the context its handler gets as second argument, and the per-request
 * state behind it (the Request once built, `after()` callbacks, error reports).
 *
 * A front describes its request with a `CallFront`, plain data and functions: the Node bridge
 * from `req`/`res`, `.fetch` from its Request. Nothing here knows which front it serves.
 */
import type { RequestTrace } from '../observe';
import type {
  EndpointContext,
  EndpointErrorInfo,
  NodeContext,
  Params,
  PublishTopic,
  SubscribeTopics,
} from '../types';
import { isClientAbort, tellOnError, wasTold } from './report-error';
import type { CompiledRoute } from '../route';

/** What a front knows of one request. */
export interface CallFront {
  /** Builds the Request; called at most once, and only when something will see it. */
  buildRequest(): Request;
  /** The front's own request and response, on Node (`context.node`). */
  readonly node: NodeContext | undefined;
  /** Where the tree is mounted (`context.mountPath`). */
  mountPath(): string;
  /** Whether an error of the request goes on to the host's error handler (`next(err)`) now. */
  errorsGoToNext(): boolean;
  /** Whether the error is no fault of the app: on Node, the client left or sent too much. */
  isExpected(error: unknown): boolean;
  /**
   * Runs `run` once the response has been sent or the client has left: `after()` callbacks. What `run`
   * returns, when some callback is async, settles once they all have (a closing mount waits for it).
   */
  whenDone(run: () => PromiseLike<unknown> | undefined): void;
  /**
   * The route's timeout passed: the handler's `request.signal` aborts with `reason`, and an answer
   * already under way is cut. (One not yet given is answered with `reason` as the request's error.)
   */
  timedOut(reason: Error): void;
  /**
   * What `context.locals` starts with; asked once per request. A promise only where the mount's
   * `locals` option returned one, which `fillLocals()` awaits before the route runs.
   */
  initialLocals(): Record<string, unknown> | PromiseLike<Record<string, unknown>>;
}

/** Locals no front fills: a fresh object with no prototype, so any key a middleware sets is its own. */
export function emptyLocals(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

type AfterCallback = () => unknown;

const localsPromiseError = () =>
  new TypeError(
    "The mount's `locals` option returned a promise from a function not declared `async`, so nothing waited for it: declare it `async` (`locals: async ({ req }) => ({ … })`), which the mount awaits before each request's middleware, or return the object itself.",
  );

/**
 * The call a Request the library built belongs to, so code handed only the Request (`multipart()`) can run
 * work once the request is over. Kept on the Request under a registered symbol, which the ES module and
 * CommonJS builds share, and which no code that reads a Request sees: a process-wide WeakMap of every
 * Request cost a POST a quarter more CPU, in the garbage collector's work on its entries.
 */
const CALL = Symbol.for('express-file-endpoints.call');

type WithCall = Request & { [CALL]?: { whenOver(fn: () => unknown): void } };

/**
 * Runs `fn` once the request `request` belongs to is over (answered, or the client gone), as an `after()`
 * callback; `false`, and nothing scheduled, for a Request no mount is serving.
 */
export function whenRequestOver(request: Request, fn: () => unknown): boolean {
  const call = (request as WithCall)[CALL];
  if (call === undefined) return false;
  call.whenOver(fn);
  return true;
}

/** Whether a mount is serving `request`, so that `whenRequestOver` would schedule work for it. */
export function isServedRequest(request: Request): boolean {
  return (request as WithCall)[CALL] !== undefined;
}

/** `after()` callbacks already ran: later ones run at once. */
const RAN = 'ran';

/**
 * `params` is the only own field; `node`, `route`, `mountPath`, `locals` and `after` are getters, so a request
 * that does not use them costs nothing more than this one object, and `after` still works
 * destructured (`{ after }`): the bound function is made on first use.
 */
export class EndpointCall implements EndpointContext {
  #request: Request | undefined;
  readonly #route: CompiledRoute;
  readonly #exportName: string;
  readonly #front: CallFront;
  readonly #trace: RequestTrace | undefined;
  #afterCallbacks: AfterCallback[] | typeof RAN | undefined;
  #after: ((fn: AfterCallback) => void) | undefined;
  #locals: Record<string, unknown> | undefined;

  constructor(
    readonly params: Params,
    route: CompiledRoute,
    exportName: string,
    front: CallFront,
    /** The request's trace, when something observes it: told the request's errors. */
    trace?: RequestTrace,
  ) {
    this.#route = route;
    this.#exportName = exportName;
    this.#front = front;
    this.#trace = trace;
    if (trace) trace.requestSource = () => EndpointCall.requestOf(this);
  }

  /**
   * The call's Request, built on first use: a handler declared without parameters, with no
   * middleware in front, never needs one. Static, so handlers see no `request` on their context.
   */
  static requestOf(call: EndpointCall): Request {
    let request = call.#request;
    if (request === undefined) {
      request = call.#request = call.#front.buildRequest();
      try {
        (request as WithCall)[CALL] = call;
      } catch {
        // A frozen Request, handed to `.fetch`: code given only it cannot reach the call.
      }
    }
    return request;
  }

  /**
   * The Request is built again on next use: Express middleware in the chain (`expressMiddleware`) read
   * the Node body, which the steps inside it and the handler get as a body parsed in front of the tree.
   */
  static renewRequest(call: EndpointCall): void {
    call.#request = undefined;
  }

  /** The call's Request if something built it already; none is built for asking. */
  static builtRequest(call: EndpointCall): Request | undefined {
    return call.#request;
  }

  get node(): NodeContext | undefined {
    return this.#front.node;
  }

  get route(): string {
    return this.#route.pattern;
  }

  get mountPath(): string {
    return this.#front.mountPath();
  }

  /** Made on first use: a request whose middleware and handler never read it pays nothing for it. */
  get locals(): Record<string, unknown> {
    if (this.#locals === undefined) {
      const locals = this.#front.initialLocals();
      // An async `locals` option was awaited before the route ran: a promise here comes from a plain one.
      if (isThenable(locals)) throw localsPromiseError();
      this.#locals = locals;
    }
    return this.#locals;
  }

  /**
   * Takes the mount's `locals` option now, before the route runs; for an async one, a promise that
   * settles once its value is in, or rejects with its error.
   */
  fillLocals(): Promise<void> | undefined {
    const locals = this.#front.initialLocals();
    if (!isThenable(locals)) {
      this.#locals = locals;
      return undefined;
    }
    return Promise.resolve(locals).then((filled) => void (this.#locals = filled));
  }

  /** The mount's, shared by every request: nothing is made per request. */
  get publish(): PublishTopic | undefined {
    return this.#route.topics?.publish;
  }

  /**
   * Made on each read, and only then. A subscription ends with this request: when the client leaves
   * (its signal), and once the answer is sent, so one the handler did not make the answer's body
   * does not live on holding publications for nobody. One that is the body has ended by then.
   */
  get subscribe(): SubscribeTopics | undefined {
    const topics = this.#route.topics;
    if (topics === undefined) return undefined;
    return ((names, options) => {
      const subscription = topics.subscribe(names, options, EndpointCall.requestOf(this).signal);
      this.#schedule(() => subscription.unsubscribe());
      return subscription;
    }) as SubscribeTopics;
  }

  /** Runs `fn` once the answer is over, as an `after()` callback does: the library's own work after it. */
  whenOver(fn: AfterCallback): void {
    this.#schedule(fn);
  }

  get after(): (fn: AfterCallback) => void {
    return (this.#after ??= (fn) => this.#schedule(fn));
  }

  /**
   * Tells `onError` about an error of `what` (an export or a middleware name), unless it is no fault
   * of the app. The one place a request's errors are reported.
   */
  report(error: unknown, what: string = this.#exportName, passedToNext = this.#front.errorsGoToNext()): void {
    if (this.#isExpected(error)) return;
    this.#trace?.failed(error);
    if (!wasTold(error)) this.#tell(error, what, passedToNext);
  }

  /** A Request never built had no signal to abort: only one that was can tell of a client leaving. */
  #isExpected(error: unknown): boolean {
    return this.#front.isExpected(error) || isClientAbort(this.#request, error);
  }

  #tell(error: unknown, what: string, passedToNext: boolean): void {
    const route = this.#route;
    const info: EndpointErrorInfo = {
      route: route.pattern,
      file: route.displayPath,
      export: what,
      passedToNext,
    };
    // The Request is built when `onError` reads it, not before: the default one does not when the host's
    // error handler gets the error, and building a Request is the bridge's most expensive step.
    Object.defineProperty(info, 'request', { get: () => EndpointCall.requestOf(this), enumerable: true });
    tellOnError(route.onError, error, info);
  }

  /** An `after()` callback's error: the request is over, so only `onError` hears of it. */
  #reportAfter(error: unknown): void {
    if (!this.#isExpected(error)) this.#tell(error, this.#exportName, false);
  }

  /** Runs the waiting callbacks, once; errors go to `onError`. Settles once the async ones have. */
  #runAfterCallbacks(): PromiseLike<unknown> | undefined {
    const callbacks = this.#afterCallbacks;
    this.#afterCallbacks = RAN;
    if (!Array.isArray(callbacks)) return undefined;
    let running: Promise<unknown>[] | undefined;
    for (const fn of callbacks) {
      const settled = this.#runAfter(fn);
      if (settled) (running ??= []).push(settled);
    }
    return running && Promise.all(running);
  }

  #schedule(fn: AfterCallback): void {
    if (typeof fn !== 'function') throw new TypeError('after() expects a function');
    const callbacks = this.#afterCallbacks;
    if (callbacks === RAN) {
      setImmediate(() => void this.#runAfter(fn));
    } else if (callbacks) {
      callbacks.push(fn);
    } else {
      this.#afterCallbacks = [fn];
      this.#front.whenDone(() => this.#runAfterCallbacks());
    }
  }

  /** Runs one callback; for an async one, a promise that settles (never rejects) once it has. */
  #runAfter(fn: AfterCallback): Promise<unknown> | undefined {
    try {
      const result = fn();
      if (typeof (result as PromiseLike<unknown> | null)?.then === 'function') {
        return Promise.resolve(result).catch((error: unknown) => this.#reportAfter(error));
      }
    } catch (error) {
      this.#reportAfter(error);
    }
    return undefined;
  }
}

/** `EndpointCall.renewRequest` for a context the library made; a unit test's own object has no Request to renew. */
export function renewRequest(context: EndpointContext): void {
  if (context instanceof EndpointCall) EndpointCall.renewRequest(context);
}

/** The call's Request, built now if nothing built it yet; `undefined` for a context of a unit test's own. */
export function requestFor(context: EndpointContext): Request | undefined {
  return context instanceof EndpointCall ? EndpointCall.requestOf(context) : undefined;
}

/** The Request a step or the handler was handed, if one was built; `undefined` for a context of a unit test's own. */
export function requestIfBuilt(context: EndpointContext): Request | undefined {
  return context instanceof EndpointCall ? EndpointCall.builtRequest(context) : undefined;
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as PromiseLike<T> | null)?.then === 'function';
}
