/**
 * The second argument a handler gets, and the per-request state behind it: `after()` callbacks and
 * error reports. `params` (and `node`, on Node) are the only own fields; `route`, `mountPath` and
 * `after` are getters, so a request that does not use them costs nothing more than this one object,
 * and `after` still works destructured (`{ after }`): the bound function is made on first use.
 *
 * The Node bridge extends it (mount path from Express or Connect, `after` on the response's
 * `finish`); `.fetch` uses it as it is.
 */
import type { EndpointContext, Params } from '../types';
import { isClientAbort, tellOnError } from './report-error';
import type { CompiledRoute } from './route';

type AfterCallback = () => unknown;

/** `after()` callbacks already ran: later ones run at once. */
const RAN = 'ran';

export class RouteContext implements EndpointContext {
  #request: Request | undefined;
  readonly #route: CompiledRoute;
  readonly #exportName: string;
  #afterCallbacks: AfterCallback[] | typeof RAN | undefined;
  #after: ((fn: AfterCallback) => void) | undefined;

  /**
   * `request` may be left out by a host that can build it (`buildRequest`): a handler declared
   * without parameters, with no middleware in front, never needs one.
   */
  constructor(
    readonly params: Params,
    request: Request | undefined,
    route: CompiledRoute,
    exportName: string,
  ) {
    this.#request = request;
    this.#route = route;
    this.#exportName = exportName;
  }

  /**
   * The context's request, built on first use. A static method, so that handlers, which get the
   * context, see no `request` on it.
   */
  static requestOf(context: RouteContext): Request {
    return (context.#request ??= context.buildRequest());
  }

  /** Builds the request the constructor was not given; only a host that leaves it out overrides this. */
  protected buildRequest(): Request {
    throw new Error('RouteContext: no request was given and none can be built');
  }

  get route(): string {
    return this.#route.pattern;
  }

  /** `.fetch` has no mount: the tree is the whole URL space. */
  get mountPath(): string {
    return '';
  }

  get after(): (fn: AfterCallback) => void {
    return (this.#after ??= (fn) => this.#schedule(fn));
  }

  /** The host's error handler gets request errors through `next(err)`. */
  protected get passesToNext(): boolean {
    return false;
  }

  /** Whether the error is no fault of the app: the client went away (or, on Node, sent too much). */
  protected isExpected(error: unknown): boolean {
    return isClientAbort(RouteContext.requestOf(this), error);
  }

  /** Tells `onError` about an error of `what` (an export or a middleware name). */
  reportError(error: unknown, what: string = this.#exportName, passedToNext = this.passesToNext): void {
    if (this.isExpected(error)) return;
    const route = this.#route;
    tellOnError(route.onError, error, {
      request: RouteContext.requestOf(this),
      route: route.pattern,
      file: route.displayPath,
      export: what,
      passedToNext,
    });
  }

  /** Any `after()` callbacks waiting (`.fetch` wraps the body only then). */
  get hasAfterCallbacks(): boolean {
    return Array.isArray(this.#afterCallbacks);
  }

  /** Runs the waiting callbacks, once; errors go to `onError`. */
  runAfterCallbacks(): void {
    const callbacks = this.#afterCallbacks;
    this.#afterCallbacks = RAN;
    if (!Array.isArray(callbacks)) return;
    for (const fn of callbacks) this.#runAfter(fn);
  }

  /** Called the first time `after()` is used: where the bridge starts watching the response. */
  protected watchForAfter(): void {}

  #schedule(fn: AfterCallback): void {
    if (typeof fn !== 'function') throw new TypeError('after() expects a function');
    const callbacks = this.#afterCallbacks;
    if (callbacks === RAN) {
      setImmediate(() => this.#runAfter(fn));
    } else if (callbacks) {
      callbacks.push(fn);
    } else {
      this.#afterCallbacks = [fn];
      this.watchForAfter();
    }
  }

  #runAfter(fn: AfterCallback): void {
    try {
      const result = fn();
      if (typeof (result as PromiseLike<unknown> | null)?.then === 'function') {
        Promise.resolve(result).catch((error: unknown) => this.reportError(error, undefined, false));
      }
    } catch (error) {
      this.reportError(error, undefined, false);
    }
  }
}
