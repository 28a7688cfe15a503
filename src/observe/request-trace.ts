/**
 * What tracing sees of one request an endpoint's route answers: the `express-file-endpoints:request`
 * channel's events, when someone subscribes, and the OpenTelemetry server span, when an SDK runs.
 * A request neither observes gets no trace at all (`traceRequest` returns `undefined`).
 */
import { requestChannel, type RequestTraceContext } from './channels';
import { nameServerSpan, openTelemetry, recordError, type OpenTelemetry, type Span } from './opentelemetry';

/** What the trace needs of a route (the dispatch layer's CompiledRoute has it). */
export interface TracedRoute {
  /** `/api/users/[id]` */
  readonly pattern: string;
  /** The endpoint file, relative to the working directory. */
  readonly displayPath: string;
  /** The pattern in Express 5 syntax, below the mount: `/api/users/:id`. */
  readonly expressRoute: { readonly path: string };
}

/** Whether anything observes requests: checked per request, so subscribing at any time works. */
export function requestObserved(): boolean {
  return requestChannel.hasSubscribers || openTelemetry() !== undefined;
}

/**
 * Starts the trace of a request the route answers with `exportName` (`undefined`: the tree answers
 * itself). `mountPath`: where the host mounted the tree; `undefined` under `.fetch`.
 */
export function traceRequest(
  route: TracedRoute,
  method: string,
  exportName: string | undefined,
  mountPath: string | undefined,
): RequestTrace | undefined {
  const otel = openTelemetry();
  const span = otel && nameServerSpan(otel, route.expressRoute.path, mountPath);
  const context = requestChannel.hasSubscribers
    ? new TracedRequest(route.pattern, method, route.displayPath, exportName)
    : undefined;
  if (context === undefined && span === undefined) return undefined;
  return new RequestTrace(context, span && otel ? { otel, span } : undefined);
}

export class RequestTrace {
  #done = false;

  constructor(
    /** Published on the channel; `undefined` when it had no subscribers as the request began. */
    private readonly context: TracedRequest | undefined,
    /** The request's server span, when OpenTelemetry runs: errors are recorded there. */
    private readonly server: { otel: OpenTelemetry; span: Span } | undefined,
  ) {}

  /** Where `context.request` comes from: the handler's Request, built on first use. */
  set requestSource(source: () => Request) {
    if (this.context) TracedRequest.attach(this.context, source);
  }

  /**
   * Runs the synchronous part of answering: `start` before it, `end` after, and in between the
   * stores subscribers bound to `start` (an APM's active span), which the handler's async work keeps.
   */
  run<T>(serve: () => T): T {
    const context = this.context;
    if (context === undefined) return serve();
    return requestChannel.start.runStores(context, () => {
      try {
        return serve();
      } finally {
        requestChannel.end.publish(context);
      }
    });
  }

  /** An error of the request, as `onError` is told: published, and recorded on the server span. */
  failed(error: unknown): void {
    if (this.#done) return;
    if (this.server) recordError(this.server.otel, this.server.span, error);
    const context = this.context;
    if (context === undefined) return;
    context.error = error;
    requestChannel.error.publish(context);
  }

  /** The response has been sent, or the client left (`aborted`): `asyncStart`, then `asyncEnd`, once. */
  finish(status: number | undefined, aborted: boolean): void {
    if (this.#done) return;
    this.#done = true;
    const context = this.context;
    if (context === undefined) return;
    context.status = status;
    context.aborted = aborted;
    requestChannel.asyncStart.publish(context);
    requestChannel.asyncEnd.publish(context);
  }
}

class TracedRequest implements RequestTraceContext {
  readonly export: string | undefined;
  status: number | undefined = undefined;
  aborted = false;
  declare error?: unknown;
  /** Set once the handler's call exists; absent when no handler runs. */
  #source: (() => Request) | undefined;

  static attach(context: TracedRequest, source: () => Request): void {
    context.#source = source;
  }

  constructor(
    readonly route: string,
    readonly method: string,
    readonly file: string,
    exportName: string | undefined,
  ) {
    this.export = exportName;
  }

  get request(): Request | undefined {
    return this.#source?.();
  }
}
