/**
 * Calls a route's handler (through its middleware) with a Web Request and checks that what
 * comes back is a Response. Shared by the Node bridge and `.fetch`: no Node objects here.
 *
 * A thrown Response is the answer (`throw Response.redirect(url)`, `throw new Response(null,
 * { status: 404 })`), as with Next.js's `redirect()`/`notFound()`. Every other error is told to
 * `onError` here, where it is known whether the handler or which middleware failed, and handed
 * back as a `Failure` for the host to answer (`next(err)`, or a 500) without telling it again.
 */
import { isResponse } from '../is-response';
import { traceMiddleware } from '../observe';
import { describeValue } from '../words';
import { runInContext } from './async-context';
import { EndpointCall } from './endpoint-call';
import { runChain, type ChainHooks, type NextCalledTwiceError } from './run-chain';
import type { CompiledRoute, HandlerEntry } from '../route';

/** An error of the request that `onError` has been told about: the host answers it. */
export class Failure {
  constructor(readonly error: unknown) {}
}

export type Outcome = Response | Failure;

/**
 * The Request comes from the call, built only when something will see it: the middleware, or a
 * handler that declares parameters (`entry.takesArguments`). Never throws.
 */
export function runRoute(
  route: CompiledRoute,
  entry: HandlerEntry,
  call: EndpointCall,
): Outcome | Promise<Outcome> {
  // Only a mount that asked for `getContext()` pays for the storage.
  if (route.asyncContext) return runInContext(call, () => runMiddlewareAndHandler(route, entry, call));
  return runMiddlewareAndHandler(route, entry, call);
}

function runMiddlewareAndHandler(
  route: CompiledRoute,
  entry: HandlerEntry,
  call: EndpointCall,
): Outcome | Promise<Outcome> {
  if (route.middleware.length > 0) return runWithMiddleware(route, entry, call);
  // No middleware: call the handler directly and stay synchronous when it is. Awaiting a
  // Response that is already there costs the request trips through the microtask queue; an
  // async handler's answer is checked in the one `then` that also takes its failure.
  let result: unknown;
  try {
    result = invoke(entry, call);
  } catch (error) {
    return thrownResponseOrReport(error, call, entry.exportName);
  }
  if (!isThenable(result)) return checked(route, entry, call, result);
  return Promise.resolve(result).then(
    (value) => checked(route, entry, call, value),
    (error: unknown) => thrownResponseOrReport(error, call, entry.exportName),
  );
}

/** The handler's answer, or its mistake reported: `sendable`, for the path that never throws. */
function checked(route: CompiledRoute, entry: HandlerEntry, call: EndpointCall, value: unknown): Outcome {
  try {
    return sendable(route, entry, value);
  } catch (error) {
    return thrownResponseOrReport(error, call, entry.exportName);
  }
}

/** The handler, with the Request when it declares parameters (decided at load: `takesArguments`). */
function invoke(entry: HandlerEntry, call: EndpointCall): unknown {
  return entry.takesArguments ? entry.handler(EndpointCall.requestOf(call), call) : callWithNothing(entry);
}

/** A thrown Response is the answer; anything else is reported. */
function thrownResponseOrReport(error: unknown, call: EndpointCall, what: string): Outcome {
  if (isResponse(error)) return error;
  call.report(error, what);
  return new Failure(error);
}

/**
 * Throws (or rejects) when the handler does, or returns something else than a Response that HTTP
 * can carry.
 */
function callHandler(
  route: CompiledRoute,
  entry: HandlerEntry,
  call: EndpointCall,
): Response | Promise<Response> {
  const result = invoke(entry, call);
  if (isThenable(result)) return Promise.resolve(result).then((value) => sendable(route, entry, value));
  return sendable(route, entry, result);
}

/**
 * The one check of what a handler returned: a Response that HTTP can carry, as it is; anything else,
 * `Response.error()` (a network error, status 0) included, is the handler's mistake, thrown.
 */
function sendable(route: CompiledRoute, entry: HandlerEntry, value: unknown): Response {
  if (isResponse(value) && value.type !== 'error') return value;
  throw notAResponse(route, entry, value);
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
    `${route.displayPath}: export ${entry.exportName} returned ${describeValue(value)} instead of a Response; ${fixFor(value)}`,
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
  call: EndpointCall,
): Promise<Outcome> {
  // Built when a step needs it: `expressMiddleware`'s steps do not, nor does a handler without parameters.
  const requestOf = () => EndpointCall.requestOf(call);
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
        `${route.middlewareNames[index]}: the middleware returned ${describeValue(value)} instead of a Response; return \`await next()\` to pass the request on, or a Response of its own.`,
      ),
    isResponse,
    // Told when it happens, which may be after the answer went out; the request fails with it too.
    misused(index, error) {
      misuse = error;
      call.report(error, route.middlewareNames[index]);
    },
    trace: (index) => traceMiddleware(route, route.middlewareNames[index]!, index, requestOf),
  };
  const last = async (): Promise<Response> => {
    try {
      return await callHandler(route, entry, call);
    } catch (error) {
      if (isResponse(error)) return error;
      blamed = error;
      culprit = entry.exportName;
      throw error;
    }
  };
  try {
    return await runChain(route.middleware, requestOf, call, last, hooks);
  } catch (error) {
    if (error === misuse) return new Failure(error); // told when it happened
    // An error no step was blamed for cannot happen today; the outermost middleware is the guess.
    call.report(error, blamed === error && culprit !== undefined ? culprit : route.middlewareNames[0]);
    return new Failure(error);
  }
}
