/**
 * One way into a route, for every front that serves one: the Node middleware, `.fetch` and a WebSocket
 * upgrade. A front matches the request and makes its own checks first (its path, a mount that is
 * closing); from the method's decision on, the way is the same: the trace when something observes
 * requests, the endpoint's call, the route's middleware and handler, in flight. What comes out, the
 * front writes, as a `RouteFront`: to `res`, as a Response, as a handshake's answer.
 */
import { traceRequest, type RequestTrace } from '../observe';
import type { Params } from '../types';
import { RouteTimeoutError } from './answers';
import { EndpointCall, type CallFront } from './endpoint-call';
import { isForbiddenMethod } from '../http-methods';
import { dispatch, type Dispatch, type HandlerEntry, type MethodTable } from '../route';
import type { CompiledRoute } from '../route';
import { Failure, runRoute, type Outcome } from './run-route';

/** A decision that the route answers: the front has already sent `pass` on. */
export type Served = Exclude<Dispatch, { kind: 'pass' }>;

/** One of the tree's own answers, for a method the route has no handler for. */
export type OwnAnswer = Exclude<Dispatch, { kind: 'pass' | 'handler' }>;

/** What running a handler asks of its front, beside what the call asks (`CallFront`). */
export interface HandlerFront<Result> extends CallFront {
  /**
   * The request is in flight of its mount from here, just before the route runs, until `write` has
   * written its answer: a closing mount waits for it. Absent where nothing keeps count.
   */
  enter?(): void;
  /** Writes what the route came to: a promise only when the answer is not there yet. */
  write(outcome: Outcome | Promise<Outcome>, call: EndpointCall): Result;
}

/** What serving a request's method asks of its front, beside running the handler. */
export interface RouteFront<Result> extends HandlerFront<Result> {
  /**
   * Writes an answer without the handler: the tree's own, for a method the route has no handler for
   * (a 405, OPTIONS's 204), or the error of the front's `refusal()`.
   */
  writeOwnAnswer(why: OwnAnswer | Error): Result;
  /**
   * Why the front will not let the handler run (a Host header no URL can be made of, a body over the
   * limit); `undefined` when it will. Asked inside the trace, which sees the refusal.
   */
  refusal?(): Error | undefined;
  /**
   * Ends `trace` when the answer is over: after `write` or `writeOwnAnswer` has returned, or threw (`failed`).
   * The front knows when its answer is complete: the response finished, the body was read.
   */
  endTrace(trace: RequestTrace, failed: boolean): void;
}

/**
 * The decision for a request's method. CONNECT, TRACE and TRACK cannot be a Request, so no handler
 * serves them, whatever the file exports.
 */
export function dispatchRequest(table: MethodTable, method: string): Dispatch {
  if (isForbiddenMethod(method)) return { kind: 'not-allowed', allow: table.allow };
  return dispatch(table, method);
}

/**
 * The trace of a request the route answers, when something observes requests. `mountPath` names the
 * server span: where the host mounted the tree (`undefined` under `.fetch`, which has no mount).
 */
export function traceRoute(
  route: CompiledRoute,
  method: string,
  decision: Served,
  mountPath: string | undefined,
): RequestTrace | undefined {
  const exportName = decision.kind === 'handler' ? decision.entry.exportName : undefined;
  return traceRequest(route, method, exportName, mountPath);
}

/**
 * Serves a request the route answers, traced when `trace` is given. Untraced, what the front's writing
 * returns comes back as it is: a synchronous handler is answered without a promise of this module's.
 */
export function serveRoute<Result>(
  front: RouteFront<Result>,
  route: CompiledRoute,
  params: Params,
  decision: Served,
  trace: RequestTrace | undefined,
): Result | Promise<Awaited<Result>> {
  if (trace === undefined) return serve(front, route, params, decision, undefined);
  return serveTraced(front, route, params, decision, trace);
}

/**
 * Runs `entry`, the route's handler (or what stands for it), through the route's middleware, and has
 * the front write the outcome. The handler's Request is built only when something can see it.
 */
export function serveHandler<Result>(
  front: HandlerFront<Result>,
  route: CompiledRoute,
  params: Params,
  entry: HandlerEntry,
  trace: RequestTrace | undefined,
): Result {
  const call = new EndpointCall(params, route, entry.exportName, front, trace);
  front.enter?.();
  const outcome = route.localsFirst ? runAfterLocals(route, entry, call) : runRoute(route, entry, call);
  return front.write(
    route.timeout === false ? outcome : withinTimeout(outcome, route.timeout, front, call),
    call,
  );
}

/**
 * The outcome, or past `timeout` a `RouteTimeoutError` as the request's error; the timer runs until the
 * answer is over, so a streamed one that takes too long is cut too. A synchronous answer is there
 * already: only its stream can still take too long.
 */
function withinTimeout(
  outcome: Outcome | Promise<Outcome>,
  timeout: number,
  front: CallFront,
  call: EndpointCall,
): Outcome | Promise<Outcome> {
  let expire: ((error: RouteTimeoutError) => void) | undefined;
  const timer = setTimeout(() => {
    const reason = new RouteTimeoutError(timeout);
    front.timedOut(reason);
    expire?.(reason);
  }, timeout);
  call.whenOver(() => clearTimeout(timer));
  if (!(outcome instanceof Promise)) return outcome;
  let expired = false;
  const late = new Promise<Outcome>((resolve) => {
    expire = (reason) => {
      expired = true;
      call.report(reason);
      resolve(new Failure(reason));
    };
  });
  const answered = outcome.then((settled) => {
    expire = undefined;
    // An answer that came too late is never sent: its body is let go.
    if (expired && settled instanceof Response) settled.body?.cancel().catch(() => {});
    return settled;
  });
  return Promise.race([answered, late]);
}

/**
 * The mount's async `locals` option first, awaited; what it throws or rejects with is the request's
 * error, told to `onError` as the option's.
 */
function runAfterLocals(
  route: CompiledRoute,
  entry: HandlerEntry,
  call: EndpointCall,
): Outcome | Promise<Outcome> {
  const failed = (error: unknown) => {
    call.report(error, 'locals');
    return new Failure(error);
  };
  let filling: Promise<void> | undefined;
  try {
    filling = call.fillLocals();
  } catch (error) {
    return failed(error);
  }
  if (filling === undefined) return runRoute(route, entry, call);
  return filling.then(() => runRoute(route, entry, call), failed);
}

function serve<Result>(
  front: RouteFront<Result>,
  route: CompiledRoute,
  params: Params,
  decision: Served,
  trace: RequestTrace | undefined,
): Result {
  if (decision.kind !== 'handler') return front.writeOwnAnswer(decision);
  const refusal = front.refusal?.();
  if (refusal !== undefined) return front.writeOwnAnswer(refusal);
  return serveHandler(front, route, params, decision.entry, trace);
}

/**
 * The same inside the trace: `start` and `end` around the synchronous part of answering, with the
 * stores subscribers bound (an APM's active span), which the front's writing keeps.
 */
async function serveTraced<Result>(
  front: RouteFront<Result>,
  route: CompiledRoute,
  params: Params,
  decision: Served,
  trace: RequestTrace,
): Promise<Awaited<Result>> {
  let result: Awaited<Result>;
  try {
    result = await trace.run(() => serve(front, route, params, decision, trace));
  } catch (error) {
    // Not one of the request's own errors (those are told through the call): a fault of ours.
    trace.failed(error);
    front.endTrace(trace, true);
    throw error;
  }
  front.endTrace(trace, false);
  return result;
}
