/**
 * The `express-file-endpoints:middleware` channel's events for one step of a route's middleware
 * chain: `start`/`end` around the call, `error` when it throws or rejects with something other
 * than a Response, `asyncStart`/`asyncEnd` once its Response (or error) is there. A thrown Response
 * is the middleware's answer (`throw Response.redirect(…)`), not an error.
 */
import { middlewareChannel, type MiddlewareTraceContext } from './channels';
import type { TracedRoute } from './request-trace';

/**
 * The context of step `index`, or `undefined` when nobody subscribes (then nothing is published, and
 * `requestOf` is not called: a chain whose steps need no Request builds none).
 */
export function traceMiddleware(
  route: TracedRoute,
  name: string,
  index: number,
  requestOf: () => Request,
): MiddlewareTraceContext | undefined {
  if (!middlewareChannel.hasSubscribers) return undefined;
  const request = requestOf();
  return new TracedMiddleware(route.pattern, request.method, route.displayPath, name, index, request);
}

/** Calls the middleware between `start` and `end`, inside the stores subscribers bound to `start`. */
export function runMiddleware<T>(context: MiddlewareTraceContext, call: () => T): T {
  return middlewareChannel.start.runStores(context, () => {
    try {
      return call();
    } finally {
      middlewareChannel.end.publish(context);
    }
  });
}

/** Publishes the end of the step once `outcome`, what the step resolves to, settles. */
export function settleMiddleware(context: MiddlewareTraceContext, outcome: Promise<Response>): void {
  outcome.then(
    (response) => {
      context.status = response.status;
      middlewareChannel.asyncStart.publish(context);
      middlewareChannel.asyncEnd.publish(context);
    },
    (error: unknown) => {
      context.error = error;
      middlewareChannel.error.publish(context);
      middlewareChannel.asyncStart.publish(context);
      middlewareChannel.asyncEnd.publish(context);
    },
  );
}

class TracedMiddleware implements MiddlewareTraceContext {
  status: number | undefined = undefined;
  declare error?: unknown;

  constructor(
    readonly route: string,
    readonly method: string,
    readonly file: string,
    readonly middleware: string,
    readonly index: number,
    readonly request: Request,
  ) {}
}
