/**
 * Runs Web middleware around a final handler, in order, entirely in Request/Response terms:
 * each middleware gets `next()`, which runs the rest of the chain and resolves to its Response.
 *
 * A Response a middleware throws is its answer, as SvelteKit's `redirect()`/`error()` and Next.js's
 * `notFound()` are: the outer middleware's `next()` resolves to it. Any other error is reported to
 * `failed` by the innermost step it came out of, then passed outwards.
 *
 * The rest of the chain runs once. A second `next()` fails the request, whether the
 * middleware awaits its promise or drops it and returns the first Response: the misuse is told
 * to `misused` when it happens, and the promise it gets rejects without ever counting as
 * unhandled (Node's default mode would end the process on one).
 *
 * Each step is published on the `express-file-endpoints:middleware` tracing channel when someone
 * subscribes; otherwise the chain runs as if it did not exist.
 */
import { runMiddleware, settleMiddleware, type MiddlewareTraceContext } from '../observe';
import type { EndpointContext, WebMiddleware } from '../types';

export interface ChainHooks {
  /** Step `index` (a middleware) threw or rejected with `error` (told once per step it passes). */
  failed(index: number, error: unknown): void;
  /** The error for a middleware that resolved to something other than a Response. */
  notAResponse(index: number, value: unknown): Error;
  /** Tells a Response from other values, including Responses of other realms. */
  isResponse(value: unknown): value is Response;
  /** Step `index` called `next()` a second time (told once per request, maybe after the answer). */
  misused(index: number, error: NextCalledTwiceError): void;
  /** The tracing context of step `index`; `undefined` when nobody subscribes. */
  trace(index: number): MiddlewareTraceContext | undefined;
}

/**
 * Set on a middleware that needs no Request of its own (`expressMiddleware`'s, which run on Node's `req`): the
 * chain hands it `undefined`, so that a route whose steps and handler need none never builds one. It reads the
 * Request when one was built for another step with `requestIfBuilt(context)`.
 */
export const WITHOUT_REQUEST: unique symbol = Symbol('express-file-endpoints.withoutRequest');

export class NextCalledTwiceError extends Error {
  constructor() {
    super('next() was called more than once by a middleware');
    this.name = 'NextCalledTwiceError';
  }
}

/**
 * The rest of a chain runs once: this chain's rule, and bridgeMiddleware's for the host app's chain.
 * What a `next()` called again gets is the request's one NextCalledTwiceError, made and told on the
 * first misuse, in a promise that its receiver may await, and may drop without an unhandled rejection.
 */
export class NextGuard {
  #misuse: NextCalledTwiceError | undefined;

  /** The error of the request's misuse, once `next()` was called again. */
  get misuse(): NextCalledTwiceError | undefined {
    return this.#misuse;
  }

  /** What a `next()` called again gets; `tell` hears of the first misuse. */
  calledAgain(tell: (misuse: NextCalledTwiceError) => void): Promise<never> {
    if (!this.#misuse) tell((this.#misuse = new NextCalledTwiceError()));
    const promise = Promise.reject(this.#misuse);
    promise.catch(() => {});
    return promise;
  }
}

export function runChain(
  chain: readonly WebMiddleware[],
  /**
   * Asked at each step: a step that read the Node body hands the steps inside it a new Request, and one that
   * needs none (`WITHOUT_REQUEST`) has none built for it.
   */
  requestOf: () => Request,
  context: EndpointContext,
  last: () => Promise<Response>,
  hooks: ChainHooks,
): Promise<Response> {
  let called = -1;
  const guard = new NextGuard();
  const thrownResponseOrFail = (index: number, error: unknown): Promise<Response> => {
    if (hooks.isResponse(error)) return Promise.resolve(error);
    hooks.failed(index, error);
    return Promise.reject(error);
  };
  // What `next()` of the step before `index` does; asked for again, that step misused it.
  // A step without a Request of its own hands what next() gave it on as it is: the Web middleware outside
  // it get headers they may change from their own next().
  const next = (index: number): Promise<Response> =>
    index <= called
      ? guard.calledAgain((misuse) => hooks.misused(index - 1, misuse))
      : takesNoRequest(chain[index - 1]!)
        ? step(index)
        : step(index).then(withMutableHeaders);
  const step = (index: number): Promise<Response> => {
    called = index;
    const middleware = chain[index];
    if (!middleware) return last();
    const trace = hooks.trace(index);
    if (trace === undefined) return run(middleware, index);
    const outcome = runMiddleware(trace, () => run(middleware, index));
    settleMiddleware(trace, outcome);
    return outcome;
  };
  const run = (middleware: WebMiddleware, index: number): Promise<Response> => {
    let result: Response | Promise<Response>;
    try {
      const request = takesNoRequest(middleware) ? undefined : requestOf();
      result = middleware(request as Request, () => next(index + 1), context);
    } catch (error) {
      return thrownResponseOrFail(index, error);
    }
    return Promise.resolve(result).then(
      (value) => {
        // A step that misused next() fails, and so does every step around it, whatever they returned.
        if (guard.misuse) return thrownResponseOrFail(index, guard.misuse);
        return hooks.isResponse(value)
          ? value
          : thrownResponseOrFail(index, hooks.notAResponse(index, value));
      },
      (error: unknown) => thrownResponseOrFail(index, error),
    );
  };
  return step(0);
}

function takesNoRequest(middleware: WebMiddleware): boolean {
  return (middleware as { [WITHOUT_REQUEST]?: true })[WITHOUT_REQUEST] === true;
}

/** A header name no response has: deleting it changes nothing, and throws only on immutable headers. */
const PROBE = 'x-express-file-endpoints-probe';

/**
 * What `next()` resolves to has headers a middleware may change, whatever the handler returned:
 * `Response.redirect()` and a `fetch()` result have immutable headers, so they are
 * rewrapped around the same body, which is neither read nor copied.
 */
function withMutableHeaders(response: Response): Response {
  try {
    response.headers.delete(PROBE);
    return response;
  } catch {
    return new Response(response.body, response);
  }
}
