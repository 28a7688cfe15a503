/**
 * Runs Web middleware around a final handler, in order, entirely in Request/Response terms:
 * each middleware gets `next()`, which runs the rest of the chain and resolves to its Response.
 *
 * A Response a middleware throws is its answer, as SvelteKit's `redirect()`/`error()` and Next.js's
 * `notFound()` are: the outer middleware's `next()` resolves to it. Any other error is reported to
 * `failed` by the innermost step it came out of, then passed outwards.
 */
import type { EndpointContext, WebMiddleware } from '../types';

export interface ChainHooks {
  /** Step `index` (a middleware) threw or rejected with `error` (told once per step it passes). */
  failed(index: number, error: unknown): void;
  /** The error for a middleware that resolved to something other than a Response. */
  notAResponse(index: number, value: unknown): Error;
  /** Tells a Response from other values, including Responses of other realms. */
  isResponse(value: unknown): value is Response;
}

export function runChain(
  chain: readonly WebMiddleware[],
  request: Request,
  context: EndpointContext,
  last: () => Promise<Response>,
  hooks: ChainHooks,
): Promise<Response> {
  let called = -1;
  const answerOr = (index: number, error: unknown): Promise<Response> => {
    if (hooks.isResponse(error)) return Promise.resolve(error);
    hooks.failed(index, error);
    return Promise.reject(error);
  };
  const step = (index: number): Promise<Response> => {
    if (index <= called) return Promise.reject(new Error('next() was called more than once by a middleware'));
    called = index;
    const middleware = chain[index];
    if (!middleware) return last();
    let result: Response | Promise<Response>;
    try {
      result = middleware(request, () => step(index + 1).then(withMutableHeaders), context);
    } catch (error) {
      return answerOr(index, error);
    }
    return Promise.resolve(result).then(
      (value) => (hooks.isResponse(value) ? value : answerOr(index, hooks.notAResponse(index, value))),
      (error: unknown) => answerOr(index, error),
    );
  };
  return step(0);
}

/** A header name no response has: deleting it changes nothing, and throws only on immutable headers. */
const PROBE = 'x-express-endpoints-probe';

/**
 * What `next()` resolves to has headers a middleware may change, whatever the handler returned
 * (issue 22): `Response.redirect()` and a `fetch()` result have immutable headers, so they are
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
