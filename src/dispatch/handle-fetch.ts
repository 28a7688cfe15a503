/**
 * The route table as a Web-standard `fetch(request) => Response` handler: for unit tests
 * through the real table, and for hosts other than Node. 404 when nothing matches; a handler
 * error is told to `onError` and answered with a 500, as the Node side answers it without a host
 * error handler (the promise never rejects for it).
 */
import { traceRequest, type RequestTrace } from '../observe';
import { MALFORMED_PATH, type Router } from '../router';
import type { Params } from '../types';
import {
  answerFor,
  answerResponse,
  INTERNAL_ERROR,
  MALFORMED_PATH_ANSWER,
  NOT_FOUND,
  SHUTTING_DOWN,
} from './answers';
import { dispatch, type Dispatch } from './method-table';
import { EndpointCall, emptyLocals, type HostRequest } from './endpoint-call';
import { eventStreamOf } from '../event-stream';
import type { InFlight, Lifecycle } from './lifecycle';
import type { CompiledRoute } from './route';
import { Failure, runRoute } from './run-route';

/** `.fetch` as a host: no mount, no Node objects, no error handler but the 500 below. */
class FetchRequest implements HostRequest, InFlight {
  readonly node = undefined;
  /** Runs the `after()` callbacks: set when the first one is registered. */
  done: (() => void) | undefined;
  previousInFlight: InFlight | undefined;
  nextInFlight: InFlight | undefined;

  constructor(
    readonly request: Request,
    readonly lifecycle: Lifecycle | undefined,
  ) {}

  get builtRequest(): Request {
    return this.request;
  }

  /**
   * The request and its signal are the caller's: nothing of it can be aborted from here. Its event
   * stream, if any, has had its final event when the close began.
   */
  abort(): void {}

  buildRequest(): Request {
    return this.request;
  }
  mountPath(): string {
    return '';
  }
  errorsGoToNext(): boolean {
    return false;
  }
  isExpected(): boolean {
    return false;
  }
  whenDone(run: () => PromiseLike<unknown> | undefined): void {
    // A closing mount waits for the callbacks, async ones to their end.
    const release = this.lifecycle?.hold();
    this.done = () => {
      const running = run();
      if (running) void running.then(release);
      else release?.();
    };
  }
  initialLocals(): Record<string, unknown> {
    return emptyLocals();
  }
}

export async function handleFetch(
  router: Router<CompiledRoute>,
  request: Request,
  lifecycle?: Lifecycle,
): Promise<Response> {
  const url = new URL(request.url);
  const match = router.match(url.pathname);
  if (match === null) return answerResponse(NOT_FOUND);
  if (match === MALFORMED_PATH) return answerResponse(MALFORMED_PATH_ANSWER);
  if (lifecycle?.closing) return answerResponse(SHUTTING_DOWN);

  const route = match.value;
  const decision = dispatch(route.table, request.method);
  // `pass`: the page that serves GET here lives in the host app, which `.fetch` does not have.
  if (decision.kind === 'pass') return answerResponse(NOT_FOUND);
  const exportName = decision.kind === 'handler' ? decision.entry.exportName : undefined;
  const trace = traceRequest(route, request.method, exportName, undefined);
  const host = new FetchRequest(request, lifecycle);
  if (trace === undefined) {
    const response = await answer(route, match.params, decision, host);
    return host.done ? whenBodyDone(response, host.done) : response;
  }
  trace.requestSource = () => request;
  let response: Response;
  try {
    response = await trace.run(() => answer(route, match.params, decision, host, trace));
  } catch (error) {
    trace.failed(error);
    trace.finish(undefined, true);
    throw error;
  }
  // The request is over once the caller has read the body, cancelled it, or it failed.
  return whenBodyDone(response, (complete, error) => {
    host.done?.();
    if (error !== undefined) trace.failed(error);
    trace.finish(response.status, !complete);
  });
}

async function answer(
  route: CompiledRoute,
  params: Params,
  decision: Exclude<Dispatch, { kind: 'pass' }>,
  host: FetchRequest,
  trace?: RequestTrace,
): Promise<Response> {
  if (decision.kind !== 'handler') return answerResponse(answerFor(decision)!);
  const request = host.request;
  const call = new EndpointCall(params, route, decision.entry.exportName, host, trace);
  const lifecycle = host.lifecycle;
  let outcome: Awaited<ReturnType<typeof runRoute>>;
  if (lifecycle === undefined) outcome = await runRoute(route, decision.entry, call);
  else outcome = await inFlight(lifecycle, host, () => runRoute(route, decision.entry, call));
  const response = outcome instanceof Failure ? answerResponse(INTERNAL_ERROR) : outcome;
  if (request.method !== 'HEAD' || response.body === null) return response;
  await response.body.cancel();
  return new Response(null, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * Runs the handler as a request in flight of a mount. The caller reads the body after this returns,
 * so the request leaves then, unless it answered with an event stream: that one stays until it is
 * over, for a closing mount to end it with its final event and wait for it.
 */
async function inFlight<T>(lifecycle: Lifecycle, host: FetchRequest, run: () => T | Promise<T>): Promise<T> {
  lifecycle.enter(host);
  let stream: ReturnType<typeof eventStreamOf>;
  try {
    return await run();
  } finally {
    stream = eventStreamOf(host.request);
    if (stream === undefined) lifecycle.leave(host);
    else {
      if (lifecycle.closing) lifecycle.endLate(host);
      void stream.over.then(() => lifecycle.leave(host));
    }
  }
}

/**
 * The Response, its body wrapped so that `done` runs once it has been read to the end, cancelled or
 * has failed — "after the response was sent", for a caller that is not a socket: `after()`
 * callbacks, the end of a trace. `complete`: read to its end; `error`: why the body failed.
 * A null body: at once, once the caller has the Response.
 */
function whenBodyDone(response: Response, done: (complete: boolean, error?: unknown) => void): Response {
  const body = response.body;
  if (body === null) {
    setImmediate(() => done(true));
    return response;
  }
  let ended = false;
  const end = (complete: boolean, error?: unknown) => {
    if (ended) return;
    ended = true;
    done(complete, error);
  };
  const reader = body.getReader();
  const wrapped = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          controller.close();
          end(true);
        } else {
          controller.enqueue(chunk.value);
        }
      } catch (error) {
        controller.error(error);
        end(false, error);
      }
    },
    async cancel(reason) {
      try {
        await reader.cancel(reason);
      } finally {
        end(false);
      }
    },
  });
  return new Response(wrapped, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
