/**
 * Calls a route's handler (through its middleware) with a Web Request and checks that what
 * comes back is a Response. Shared by the Node bridge and `.fetch`: no Node objects here.
 *
 * A thrown Response is the answer (`throw Response.redirect(url)`, `throw new Response(null,
 * { status: 404 })`), as with Next.js's `redirect()`/`notFound()`. Every other error is told to
 * `onError` here, where it is known whether the handler or which middleware failed, and then
 * thrown on for the host to answer (`next(err)`, or a 500).
 */
import { runChain, type ChainHooks, type NextCalledTwiceError } from './run-chain';
import type { HandlerEntry } from './method-table';
import type { CompiledRoute } from './route';
import { RouteContext } from './route-context';

/**
 * The request comes from the context, built only when something will see it: the middleware, or a
 * handler that takes arguments (`entry.takesArguments`).
 */
export function runRoute(
  route: CompiledRoute,
  entry: HandlerEntry,
  context: RouteContext,
): Response | Promise<Response> {
  // No middleware: call the handler directly and stay synchronous when it is. Awaiting a
  // Response that is already there costs the request trips through the microtask queue.
  if (route.middleware.length === 0) {
    try {
      return callHandler(route, entry, context);
    } catch (error) {
      return answerOrReport(error, context, entry.exportName);
    }
  }
  return runWithMiddleware(route, entry, context);
}

/** A thrown Response is returned; anything else is reported and thrown again. */
function answerOrReport(error: unknown, context: RouteContext, what: string): Response {
  if (isResponse(error)) return error;
  context.reportError(error, what);
  throw error;
}

/**
 * May throw synchronously (a handler that throws, or returns something else than a Response). With
 * `report`, a rejection is handled here as `runRoute` handles a throw; without, it is passed on.
 */
function callHandler(
  route: CompiledRoute,
  entry: HandlerEntry,
  context: RouteContext,
  report = true,
): Response | Promise<Response> {
  const result = (
    entry.takesArguments ? entry.handler(RouteContext.requestOf(context), context) : callWithNothing(entry)
  ) as unknown;
  if (isThenable(result)) {
    const failed = (error: unknown): Response => {
      if (report) return answerOrReport(error, context, entry.exportName);
      throw error;
    };
    return Promise.resolve(result).then(
      (value) => (isSendable(value) ? value : failed(notAResponse(route, entry, value))),
      failed,
    );
  }
  if (isSendable(result)) return result;
  throw notAResponse(route, entry, result);
}

/** A Response that HTTP can carry: `Response.error()` is a network error, with status 0. */
function isSendable(value: unknown): value is Response {
  return isResponse(value) && value.type !== 'error';
}

function callWithNothing(entry: HandlerEntry): unknown {
  return (entry.handler as () => unknown)();
}

function notAResponse(route: CompiledRoute, entry: HandlerEntry, value: unknown): TypeError {
  if (isResponse(value)) {
    return new TypeError(
      `${route.displayPath}: export ${entry.exportName} returned Response.error(), a network error that no HTTP response can carry; throw an error instead, or return an error status, e.g. \`new Response(null, { status: 502 })\`.`,
    );
  }
  return new TypeError(
    `${route.displayPath}: export ${entry.exportName} returned ${describe(value)} instead of a Response; ${fixFor(value)}`,
  );
}

/** What to write instead, for the usual mistakes: data returned as it is, or a missing `return`. */
export function fixFor(value: unknown): string {
  if (value === undefined)
    return 'is a `return` missing? Return a Response, e.g. `return new Response(null, { status: 204 })`.';
  if (typeof value === 'string') return 'return `new Response(text)` to send it as text.';
  return 'return `Response.json(value)` to send it as JSON, or `new Response(body, { status })`.';
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

async function runWithMiddleware(
  route: CompiledRoute,
  entry: HandlerEntry,
  context: RouteContext,
): Promise<Response> {
  const request = RouteContext.requestOf(context);
  // The innermost step an error came out of is the one to blame; the steps it passes through
  // on its way out see the same error and leave the blame where it is.
  let blamed: unknown;
  let culprit: string | undefined;
  let misuse: NextCalledTwiceError | undefined;
  const hooks: ChainHooks = {
    failed(index, error) {
      if (culprit !== undefined && blamed === error) return;
      blamed = error;
      culprit = route.middlewareNames[index];
    },
    notAResponse: (index, value) =>
      new TypeError(
        `${route.middlewareNames[index]}: the middleware returned ${describe(value)} instead of a Response; return \`await next()\` to pass the request on, or a Response of its own.`,
      ),
    isResponse,
    // Told when it happens, which may be after the answer went out; the request fails with it too.
    misused(index, error) {
      misuse = error;
      context.reportError(error, route.middlewareNames[index]);
    },
  };
  const last = async (): Promise<Response> => {
    try {
      return await callHandler(route, entry, context, false);
    } catch (error) {
      if (isResponse(error)) return error;
      blamed = error;
      culprit = entry.exportName;
      throw error;
    }
  };
  try {
    return await runChain(route.middleware, request, context, last, hooks);
  } catch (error) {
    if (error === misuse) throw error; // told when it happened
    // An error no step was blamed for cannot happen today; the outermost middleware is the guess.
    context.reportError(
      error,
      blamed === error && culprit !== undefined ? culprit : route.middlewareNames[0],
    );
    throw error;
  }
}

/** Accepts Responses from other realms or undici copies, which fail `instanceof`. */
export function isResponse(value: unknown): value is Response {
  if (value instanceof Response) return true;
  const candidate = value as Partial<Response> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.status === 'number' &&
    typeof candidate.headers?.forEach === 'function' &&
    'body' in candidate
  );
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`;
  return `a ${typeof value}`;
}
