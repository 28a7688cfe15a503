/**
 * Calls a route's handler (through its middleware) with a Web Request and checks that what
 * comes back is a Response. Shared by the Node bridge and `.fetch`: no Node objects here.
 */
import { runChain } from '../middleware/run-chain';
import type { EndpointContext } from '../types';
import type { HandlerEntry } from './method-table';
import type { CompiledRoute } from './route';

export async function runRoute(
  route: CompiledRoute,
  entry: HandlerEntry,
  request: Request,
  context: EndpointContext,
): Promise<Response> {
  const callHandler = async (): Promise<Response> => {
    const response = await entry.handler(request, context);
    if (!isResponse(response)) {
      throw new TypeError(
        `${route.displayPath}: export ${entry.exportName} returned ${describe(response)} instead of a Response`,
      );
    }
    return response;
  };
  if (route.middleware.length === 0) return callHandler();
  const response = await runChain(route.middleware, request, callHandler);
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
