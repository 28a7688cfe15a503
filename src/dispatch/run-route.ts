/**
 * Calls a route's handler (through its middleware) with a Web Request and checks that what
 * comes back is a Response. Shared by the Node bridge and `.fetch`: no Node objects here.
 */
import { runChain } from '../middleware';
import type { EndpointContext } from '../types';
import type { HandlerEntry } from './method-table';
import type { CompiledRoute } from './route';

export function runRoute(
  route: CompiledRoute,
  entry: HandlerEntry,
  request: Request,
  context: EndpointContext,
): Response | Promise<Response> {
  // No middleware: call the handler directly and stay synchronous when it is. Awaiting a
  // Response that is already there costs the request trips through the microtask queue.
  if (route.middleware.length === 0) return callHandler(route, entry, request, context);
  return runWithMiddleware(route, entry, request, context);
}

/** May throw synchronously (a handler that throws, or returns something else than a Response). */
function callHandler(
  route: CompiledRoute,
  entry: HandlerEntry,
  request: Request,
  context: EndpointContext,
): Response | Promise<Response> {
  const result = entry.handler(request, context) as unknown;
  if (isThenable(result)) {
    return Promise.resolve(result).then((value) => checkedResponse(route, entry, value));
  }
  return checkedResponse(route, entry, result);
}

function checkedResponse(route: CompiledRoute, entry: HandlerEntry, value: unknown): Response {
  if (isResponse(value)) return value;
  throw new TypeError(
    `${route.displayPath}: export ${entry.exportName} returned ${describe(value)} instead of a Response`,
  );
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

async function runWithMiddleware(
  route: CompiledRoute,
  entry: HandlerEntry,
  request: Request,
  context: EndpointContext,
): Promise<Response> {
  const response = await runChain(route.middleware, request, async () =>
    callHandler(route, entry, request, context),
  );
  if (!isResponse(response)) {
    throw new TypeError(
      `A middleware of ${route.displayPath} returned ${describe(response)} instead of a Response`,
    );
  }
  return response;
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
