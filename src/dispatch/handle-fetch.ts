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
  isNullBodyStatus,
  MALFORMED_PATH_ANSWER,
  NOT_FOUND,
} from './answers';
import { isFresh, NOT_MODIFIED_DROPS, webEntityTag, type EtagMode } from './conditional';
import { joinChunks, readAvailable, type Available } from './read-available';
import { dispatch, type Dispatch } from './method-table';
import { EndpointCall, type HostRequest } from './endpoint-call';
import type { CompiledRoute } from './route';
import { Failure, runRoute } from './run-route';

/** `.fetch` as a host: no mount, no Node objects, no error handler but the 500 below. */
class FetchRequest implements HostRequest {
  readonly node = undefined;
  /** Runs the `after()` callbacks: set when the first one is registered. */
  done: (() => void) | undefined;

  constructor(readonly request: Request) {}

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
  whenDone(run: () => void): void {
    this.done = run;
  }
}

/** What `.fetch` takes from the mount's options. */
export interface FetchSettings {
  /** ETags and 304s for bodies whole at once (`off`, the default: the option was not given). */
  etag: EtagMode;
}

const DEFAULT_SETTINGS: FetchSettings = { etag: 'off' };

export async function handleFetch(
  router: Router<CompiledRoute>,
  request: Request,
  settings: FetchSettings = DEFAULT_SETTINGS,
): Promise<Response> {
  const url = new URL(request.url);
  const match = router.match(url.pathname);
  if (match === null) return answerResponse(NOT_FOUND);
  if (match === MALFORMED_PATH) return answerResponse(MALFORMED_PATH_ANSWER);

  const route = match.value;
  const decision = dispatch(route.table, request.method);
  // `pass`: the page that serves GET here lives in the host app, which `.fetch` does not have.
  if (decision.kind === 'pass') return answerResponse(NOT_FOUND);
  const exportName = decision.kind === 'handler' ? decision.entry.exportName : undefined;
  const trace = traceRequest(route, request.method, exportName, undefined);
  const host = new FetchRequest(request);
  if (trace === undefined) {
    const response = await answer(route, match.params, decision, host, settings);
    return host.done ? whenBodyDone(response, host.done) : response;
  }
  trace.requestSource = () => request;
  let response: Response;
  try {
    response = await trace.run(() => answer(route, match.params, decision, host, settings, trace));
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
  settings: FetchSettings,
  trace?: RequestTrace,
): Promise<Response> {
  if (decision.kind !== 'handler') return answerResponse(answerFor(decision)!);
  const request = host.request;
  const call = new EndpointCall(params, route, decision.entry.exportName, host, trace);
  const outcome = await runRoute(route, decision.entry, call);
  let response = outcome instanceof Failure ? answerResponse(INTERNAL_ERROR) : outcome;
  if (settings.etag === 'weak' || settings.etag === 'strong') {
    response = await withValidators(request, response, settings.etag === 'weak');
  }
  if (request.method !== 'HEAD' || response.body === null) return response;
  await response.body.cancel();
  return new Response(null, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * The Response with the ETag of its body, when that body is all there at once (not a stream that
 * waits) and the handler set none; a 304 without it when the request is fresh. A Response fetch()
 * returned is left as it is: its headers describe the bytes it was sent as, not the ones it holds.
 */
async function withValidators(request: Request, response: Response, weak: boolean): Promise<Response> {
  const body = response.body;
  if (body === null || body.locked || isNullBodyStatus(response.status) || response.type !== 'default')
    return response;
  const reader = body.getReader();
  const init = { status: response.status, statusText: response.statusText, headers: response.headers };
  let start: Available;
  try {
    start = await readAvailable(reader);
  } catch (error) {
    // A body that fails at once fails for the caller who reads it, as it would have without the ETag.
    return new Response(new ReadableStream({ start: (controller) => controller.error(error) }), init);
  }
  if (!start.done) return new Response(restOf(start, reader), init);
  const bytes = joinChunks(start.chunks);
  const headers = new Headers(response.headers);
  if (!headers.get('etag')) headers.set('etag', await webEntityTag(bytes, weak));
  const fresh = isFresh(
    request.method,
    response.status,
    (name) => request.headers.get(name),
    headers.get('etag') ?? undefined,
    headers.get('last-modified') ?? undefined,
  );
  if (!fresh) return new Response(bytes as Uint8Array<ArrayBuffer>, { ...init, headers });
  for (const name of NOT_MODIFIED_DROPS) headers.delete(name);
  return new Response(null, { status: 304, headers });
}

/** The chunks read so far, then the rest of the body: a streamed body as it was. */
function restOf(
  start: Available,
  reader: ReadableStreamDefaultReader<Uint8Array>,
): ReadableStream<Uint8Array> {
  const first = start.chunks;
  let pending = start.pending;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = first.shift();
      if (chunk) return controller.enqueue(chunk);
      const result = await (pending ?? reader.read());
      pending = undefined;
      if (result.done) controller.close();
      else controller.enqueue(result.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
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
