/**
 * The route table as a Web-standard `fetch(request) => Response` handler: for unit tests through the
 * real table, and for hosts other than Node (`Bun.serve`, `Deno.serve`, docs/runtimes.md). The same tree
 * as the Node bridge (src/bridge/node-handler.ts), rule for rule: the path routed as the request names
 * it, and refused where a Web guard would read another; CONNECT, TRACE and TRACK never reach a handler;
 * the body limit, from Content-Length and by counting; a signal that aborts only when the client
 * leaves. 404 when nothing matches; a handler error is told to `onError` and answered with a 500, as
 * the Node side answers it without a host error handler (the promise never rejects for it).
 */
import { eventStreamFailure, eventStreamOf } from '../event-stream';
import type { RequestTrace } from '../observe';
import { targetPath, type Router } from '../router';
import {
  answerFor,
  answerForError,
  answerResponse,
  isClientError,
  type Answer,
  INTERNAL_ERROR,
  isNullBodyStatus,
  MALFORMED_PATH_ANSWER,
  NOT_FOUND,
  REWRITTEN_PATH_ANSWER,
  SHUTTING_DOWN,
  isFresh,
  NOT_MODIFIED_DROPS,
  webEntityTag,
  type EtagMode,
  emptyLocals,
  type EndpointCall,
  type InFlight,
  type Lifecycle,
  type ShutdownError,
  bodyChunk,
  joinChunks,
  readAvailable,
  type Available,
  BodyLimitError,
  declaresMoreThan,
  isBodyLimitError,
  Failure,
  type Outcome,
  admit,
  serveRoute,
  traceRoute,
  type OwnAnswer,
  type RouteFront,
} from '../dispatch';
import type { CompiledRoute } from '../route';
import { Exchange, ServedRequest } from './served-request';

/** `.fetch` as a front: no mount, no Node objects, no error handler but the answers below. */
class FetchFront implements RouteFront<Response | Promise<Response>>, InFlight {
  readonly node = undefined;
  readonly exchange = new Exchange();
  /** Runs the `after()` callbacks: set when the first one is registered. */
  done: (() => void) | undefined;
  previousInFlight: InFlight | undefined;
  nextInFlight: InFlight | undefined;
  letGo: (() => void) | undefined;
  /** The Request the handler got, once built: a closing mount ends its event stream. */
  builtRequest: Request | undefined;
  readonly #lifecycle: Lifecycle | undefined;
  readonly #etag: EtagMode;

  constructor(
    readonly request: Request,
    readonly route: CompiledRoute,
    settings: FetchSettings,
  ) {
    this.#lifecycle = settings.lifecycle;
    this.#etag = settings.etag;
  }

  /**
   * A body over the route's limit by its Content-Length, refused before the handler runs: inside the
   * trace, as the Node bridge refuses one.
   */
  refusal(): Error | undefined {
    const limit = this.route.bodyLimit;
    if (!declaresMoreThan(this.request.headers.get('content-length'), limit)) return undefined;
    return new BodyLimitError(limit as number);
  }

  writeOwnAnswer(why: OwnAnswer | Error): Response {
    return answerResponse(why instanceof Error ? failureAnswer(why) : answerFor(why)!);
  }

  enter(): void {
    this.#lifecycle?.enter(this);
  }

  async write(outcome: Outcome | Promise<Outcome>, call: EndpointCall): Promise<Response> {
    let settled: Outcome;
    try {
      settled = await outcome;
    } finally {
      this.#leave();
    }
    const request = this.request;
    let response = settled instanceof Failure ? answerResponse(failureAnswer(settled.error)) : settled;
    // An event stream fails as on Node: before it sent anything, as the handler's error (a 500);
    // after, with its body broken, and `onError` told.
    const streamFailed = eventStreamFailure(this.builtRequest, response, (error) =>
      call.report(error, undefined, false),
    );
    const failedAtOnce = streamFailed && (await streamFailed);
    if (failedAtOnce) {
      call.report(failedAtOnce.error);
      response = answerResponse(INTERNAL_ERROR);
    }
    if (this.#etag === 'weak' || this.#etag === 'strong') {
      response = await withValidators(request, response, this.#etag === 'weak');
    }
    if (request.method !== 'HEAD' || response.body === null) return response;
    await response.body.cancel();
    return new Response(null, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  /** Failed: its end is now. Otherwise it ends with the response's body (`watchedUntilOver`). */
  endTrace(trace: RequestTrace, failed: boolean): void {
    if (failed) trace.finish(undefined, true);
  }

  /**
   * The caller reads the body once the handler has answered, so the request leaves its mount then,
   * unless it answered with an event stream: that one stays until it is over, for a closing mount to
   * end it with its final event and wait for it.
   */
  #leave(): void {
    const lifecycle = this.#lifecycle;
    if (lifecycle === undefined) return;
    const request = this.builtRequest;
    const stream = request === undefined ? undefined : eventStreamOf(request);
    if (stream === undefined) return lifecycle.leave(this);
    if (lifecycle.closing) lifecycle.endLate(this);
    void stream.over.then(() => lifecycle.leave(this));
  }

  /**
   * Past a closing mount's timeout: the handler's `request.signal` aborts with `reason`. The connection
   * is the caller's (Bun's or Deno's server): it is not cut from here.
   */
  abort(reason: ShutdownError): void {
    this.exchange.endedEarly(reason);
  }

  /** Past the route's timeout: the handler's signal aborts, a read of its body fails, and a body under way is cut. */
  timedOut(reason: Error): void {
    this.exchange.endedEarly(reason);
    this.cutBody?.(reason);
  }

  /** Breaks the Response's body as the caller reads it: set once the body is watched. */
  cutBody: ((reason: Error) => void) | undefined;

  buildRequest(): Request {
    return (this.builtRequest = new ServedRequest(this.request, this.exchange, this.route.bodyLimit));
  }
  clientGone(): boolean {
    return this.exchange.isEndedEarly;
  }
  mountPath(): string {
    return '';
  }
  errorsGoToNext(): boolean {
    return false;
  }
  /** A body over the limit, or an error that says it is the client's: answered, not told to `onError`. */
  isExpected(error: unknown): boolean {
    return isBodyLimitError(error) || isClientError(error);
  }
  whenDone(run: () => PromiseLike<unknown> | undefined): void {
    // A closing mount waits for the callbacks, async ones to their end.
    const release = this.#lifecycle?.hold();
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

/** What `.fetch` takes from the mount's options. */
export interface FetchSettings {
  /** ETags and 304s for bodies whole at once (`off`, the default: the option was not given). */
  etag: EtagMode;
  /** The mount's requests in flight, for `close()`; none for a table served alone. */
  lifecycle?: Lifecycle;
}

const DEFAULT_SETTINGS: FetchSettings = { etag: 'off' };

export async function handleFetch(
  router: Router<CompiledRoute>,
  request: Request,
  settings: FetchSettings = DEFAULT_SETTINGS,
): Promise<Response> {
  // The path as the request names it, not as `new URL()` reads it: Deno hands `request.url` over as the
  // client sent it, dot segments and all, and the Node bridge routes what was sent too.
  const path = targetPath(request.url) ?? '/';
  // Bun and Deno hand CONNECT, TRACE and TRACK over as Requests; on Node no handler serves them either.
  const admission = admit(
    router,
    path,
    undefined,
    path,
    request.method,
    settings.lifecycle?.closing === true,
  );
  switch (admission.kind) {
    case 'unmatched':
      return answerResponse(NOT_FOUND);
    case 'malformed':
      return answerResponse(MALFORMED_PATH_ANSWER);
    case 'loading':
    case 'closing':
      // `.fetch` serves a table whose modules have loaded: only a closing mount is left here.
      return answerResponse(SHUTTING_DOWN);
    case 'rewritten':
      return answerResponse(REWRITTEN_PATH_ANSWER);
  }
  const { route, decision } = admission;
  // `pass`: the page that serves GET here lives in the host app, which `.fetch` does not have.
  if (decision.kind === 'pass') return answerResponse(NOT_FOUND);
  const front = new FetchFront(request, route, settings);
  const trace = traceRoute(route, request.method, decision, undefined);
  // The request as it came, until a handler's call has the one the handler sees.
  if (trace !== undefined) trace.requestSource = () => request;
  const response = await serveRoute<Response | Promise<Response>>(
    front,
    route,
    admission.params,
    decision,
    trace,
  );
  // The request is over once the caller has read the body, cancelled it, or it failed.
  return watchedUntilOver(
    response,
    front,
    trace &&
      ((complete, error) => {
        if (error !== undefined) trace.failed(error);
        trace.finish(response.status, !complete);
      }),
  );
}

/**
 * The response as it is when nothing waits for its end; else with its body watched, so that what
 * waits learns when the exchange is over: `after()` callbacks, the trace, and a handler that took
 * the signal, which aborts if the body ends before it is complete (the client left, or it failed).
 */
function watchedUntilOver(
  response: Response,
  front: FetchFront,
  traced?: (complete: boolean, error?: unknown) => void,
): Response {
  const { exchange, done } = front;
  // A response without a body is complete once the caller has it.
  if (response.body === null || !exchange.watched) exchange.complete();
  // A route with a timeout has its body watched, to be cut if it runs past it.
  if (!exchange.watched && !done && !traced && front.route.timeout === false) return response;
  return whenBodyDone(response, front, (complete, error) => {
    if (complete) exchange.complete();
    else exchange.endedEarly(error ?? new DOMException('The client closed the connection', 'AbortError'));
    done?.();
    traced?.(complete, error);
  });
}

/** A refusal or an error that says it is the client's gets its own answer, as on Node; any other, 500. */
function failureAnswer(error: unknown): Answer {
  return answerForError(error) ?? INTERNAL_ERROR;
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
      else controller.enqueue(bodyChunk(result.value));
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
function whenBodyDone(
  response: Response,
  front: FetchFront,
  done: (complete: boolean, error?: unknown) => void,
): Response {
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
  // A server that sends a declared length may stop reading once it has it, before the stream's end.
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  let sent = 0;
  const reader = body.getReader();
  const wrapped = new ReadableStream<Uint8Array>({
    start(controller) {
      front.cutBody = (reason) => {
        if (ended) return;
        controller.error(reason);
        reader.cancel(reason).catch(() => {});
        end(false, reason);
      };
    },
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          controller.close();
          end(true);
        } else {
          controller.enqueue(chunk.value);
          sent += chunk.value.byteLength;
          if (sent >= declared) end(true);
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
