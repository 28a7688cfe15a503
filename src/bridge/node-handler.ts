/**
 * The Connect/Express middleware: match the Node request against the route table, run the
 * handler with a Web Request, write its Response. Whatever the tree does not serve goes to
 * `next()`, so the host app's own routes, pages and 404 keep working.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  admit,
  answerFor,
  BAD_ORIGIN,
  declaresMoreThan,
  type EndpointCall,
  type EtagMode,
  emptyLocals,
  Failure,
  isClientError,
  type InFlight,
  type Lifecycle,
  MALFORMED_PATH_ANSWER,
  type Outcome,
  type OwnAnswer,
  RequestRefusedError,
  REWRITTEN_PATH_ANSWER,
  type RouteFront,
  serveRoute,
  SHUTTING_DOWN,
  type ShutdownError,
  traceRoute,
} from '../dispatch';
import type { CompiledRoute, MountedRoute } from '../route';
import { requestObserved, type RequestTrace } from '../observe';
import type { Router, RouterOptions } from '../router';
import type { NodeContext } from '../types';
import { isClientGone, isClientGoneError, shutDownResponse } from './client-gone';
import { drainAfterResponse } from './drain-request';
import type { ExpressRequest } from './express-request';
import { hostRouting } from './host-routing';
import { mountPathOf, originalPath, pathBelowMount, type MountPaths } from './mount-path';
import { failRequest, finalNext, refuse, sendAnswer, type NextFunction } from './write-answer';
import { bodyAlreadyRead, BodyLimitError, BodyTooDeepError } from './node-body';
import { requestUrl } from './request-url';
import { sendWebResponse, type SendOptions } from './send-response';
import { AnswerAlreadySentError, isSentAnswer } from './sent-answer';
import { abortRequest, toWebRequest } from './web-request';

/** What sendWebResponse is told, for HEAD and for the other methods, in each ETag mode: made once. */
const SEND = Object.fromEntries(
  (['host', 'weak', 'strong', 'off'] as const).map((etag) => [
    etag,
    { head: { head: true, etag }, body: { etag } },
  ]),
) as Record<EtagMode, { head: SendOptions; body: SendOptions }>;

/** A Connect/Express middleware; `next` is optional so a bare node:http server can call it too. */
export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void;

/** What the middleware needs of a mount. */
export interface MountState {
  /**
   * The route table, read per request, so it can be swapped (development reloads) without the
   * host noticing. Until the modules have loaded, its endpoints are `LOADING`.
   */
  router(): Router<MountedRoute>;
  /** Settles (never rejects) once loading has ended; by then no route is `LOADING`. */
  loaded: Promise<void>;
  /**
   * A method the file does not serve goes on to the app behind the tree (`unservedMethods: 'next'`)
   * rather than getting a 405; with no app behind it (no `next`), it is a 405 either way.
   */
  passUnservedMethods: boolean;
  /** ETags and 304s for bodies sent whole: the `etag` option (`host`: as the Express app says). */
  etag: EtagMode;
  /** The mount's `caseSensitive` and `strict`: what a request is matched with, at the least. */
  routing: RouterOptions;
  /** The requests in flight, and whether the mount is closing. */
  lifecycle: Lifecycle;
  /** Where requests reached the tree, for its sockets (`attach`), which no host routes. */
  mountPaths?: MountPaths;
}

/**
 * The Connect/Express middleware over a route table that may still be loading: a request for an
 * endpoint waits for the modules, any other request goes on to the app at once.
 */
export function createNodeMiddleware(mount: MountState): NodeMiddleware {
  // Named: Express lists it, and the Express instrumentation names its span, by this name.
  return function expressFileEndpoints(req, res, next) {
    const done = next ?? finalNext(res);
    try {
      handleNodeRequest(mount, req, res, done, next !== undefined)?.catch(done);
    } catch (error) {
      done(error);
    }
  };
}

/**
 * Host-independent: `next` is optional so a bare node:http server can use the middleware.
 * `hostGetsErrors` says whether `next` is the host's (whose error handler then sees errors).
 * Returns the answer's promise, if any, as it is: no async frame of its own per request.
 */
function handleNodeRequest(
  mount: MountState,
  req: IncomingMessage,
  res: ServerResponse,
  next: NextFunction,
  hostGetsErrors: boolean,
): void | Promise<void> {
  const path = pathBelowMount(req);
  mount.mountPaths?.note(req);
  // What the host's next() returns is not ours to handle: a non-promise there must not reach `.catch`.
  if (path === undefined) return void next();
  const method = req.method ?? 'GET';
  // Matched never more loosely than the Express app in front compares its guards' paths.
  const routing = hostRouting(req, mount.routing);
  const admission = admit(
    mount.router(),
    path,
    routing,
    originalPath(req) ?? '/',
    method,
    mount.lifecycle.closing,
  );
  if (admission.kind === 'unmatched') return void next();
  if (admission.kind === 'loading') {
    // Only a request for an endpoint waits for the modules; the table is complete once they settle.
    return mount.loaded.then(() => handleNodeRequest(mount, req, res, next, hostGetsErrors));
  }
  // Whatever answers from here on, a body nobody reads is drained (bounded) after the response.
  drainAfterResponse(req, res);
  switch (admission.kind) {
    case 'malformed':
      return refuse(res, next, MALFORMED_PATH_ANSWER);
    case 'closing':
      res.setHeader('connection', 'close');
      return sendAnswer(res, SHUTTING_DOWN);
    case 'rewritten':
      return refuse(res, next, REWRITTEN_PATH_ANSWER);
  }
  const { route, params, decision } = admission;
  if (decision.kind === 'pass') return void next();
  // As Express's router leaves a method no route serves to the rest of the app: the app's other
  // routes on this path (a partly moved resource) and its 404 answer it.
  if (decision.kind === 'not-allowed' && hostGetsErrors && mount.passUnservedMethods) return void next();
  // Request loggers and metrics name a request by `req.route.path`, as for Express's own routes.
  (req as ExpressRequest).route = route.expressRoute;
  const front = new NodeFront(req, res, next, hostGetsErrors, route, mount);
  // Checked per request, and cheap: no subscriber and no OpenTelemetry SDK, no trace.
  const trace = requestObserved() ? traceRoute(route, method, decision, mountPathOf(req)) : undefined;
  return serveRoute<void | Promise<void>>(front, route, params, decision, trace);
}

/** On `finish` (sent) or `close` (the client left), whichever comes first; at once if already so. */
function whenResponseDone(res: ServerResponse, run: () => void): void {
  if (res.writableFinished || res.destroyed) {
    setImmediate(run);
    return;
  }
  res.once('finish', run);
  res.once('close', run);
}

/**
 * A Node request the route answers: what the endpoint's call knows of it, everything worked out on
 * first use, and how the answer is written to `res`. It is also the request's entry in its mount's
 * list of requests in flight.
 */
class NodeFront implements RouteFront<void | Promise<void>>, InFlight {
  #node: NodeContext | undefined;
  /** The client's full URL (`requestUrl`), for the Request built when something needs it. */
  #url: string | undefined;
  previousInFlight: InFlight | undefined;
  nextInFlight: InFlight | undefined;
  letGo: (() => void) | undefined;
  builtRequest: Request | undefined;
  readonly #etag: EtagMode;
  readonly #lifecycle: Lifecycle;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly next: NextFunction,
    /** The host passed a `next`: its error handler gets errors while nothing was sent. */
    private readonly hostGetsErrors: boolean,
    private readonly route: CompiledRoute,
    mount: MountState,
  ) {
    this.#lifecycle = mount.lifecycle;
    this.#etag = mount.etag;
  }

  /** A refusal goes to the app's error handler, as a 405 does; OPTIONS's 204 is sent. */
  writeOwnAnswer(why: OwnAnswer | Error): void {
    if (why instanceof Error) return this.next(why);
    const answer = answerFor(why)!;
    if (why.kind === 'not-allowed') refuse(this.res, this.next, answer);
    else sendAnswer(this.res, answer);
  }

  /** A Host header no URL can be made of, or a body over the route's limit by its Content-Length. */
  refusal(): Error | undefined {
    const url = requestUrl(this.req);
    if (url === undefined) return new RequestRefusedError(BAD_ORIGIN);
    this.#url = url;
    return bodyOverLimit(this.req, this.res, this.route);
  }

  enter(): void {
    this.#lifecycle.enter(this);
  }

  clientGone(): boolean {
    return isClientGone(this.res);
  }

  async write(outcome: Outcome | Promise<Outcome>, call: EndpointCall): Promise<void> {
    const { req, res, next } = this;
    const lifecycle = this.#lifecycle;
    try {
      // A handler that answers synchronously is not awaited: no microtask trips per request.
      const settled = outcome instanceof Promise ? await outcome : outcome;
      if (settled instanceof Failure) return failRequest(req, res, next, settled.error);
      if (lifecycle.closing) {
        // The server is going away: this answer's connection ends with it, and its stream at once.
        if (!res.headersSent) res.setHeader('connection', 'close');
        lifecycle.endLate(this);
      }
      // Express middleware in the chain answered: that answer is out, or on its way.
      if (isSentAnswer(settled)) return;
      if (res.headersSent) {
        settled.body?.cancel().catch(() => {});
        call.report(new AnswerAlreadySentError());
        return;
      }
      try {
        const send = SEND[this.#etag];
        await sendWebResponse(res, settled, req.method === 'HEAD' ? send.head : send.body);
      } catch (error) {
        call.report(error);
        return failRequest(req, res, next, error);
      }
      // A body stream that failed after the headers went out broke the connection with its error.
      if (res.errored) call.report(res.errored, undefined, false);
    } finally {
      lifecycle.leave(this);
    }
  }

  /**
   * Its end is published once the response is complete or the client has left, which for an error
   * passed to `next(err)` is when the app's error handler has answered.
   */
  endTrace(trace: RequestTrace): void {
    const res = this.res;
    whenResponseDone(res, () =>
      trace.finish(res.headersSent ? res.statusCode : undefined, !res.writableFinished),
    );
  }

  buildRequest(): Request {
    const { bodyLimit, parsedBodyLimit } = this.route;
    return (this.builtRequest = toWebRequest(this.req, this.res, this.#url!, { bodyLimit, parsedBodyLimit }));
  }

  /** Past a closing mount's timeout: the connection is cut, and the handler's signal says why. */
  abort(reason: ShutdownError): void {
    shutDownResponse(this.res, reason);
  }

  /** Past the route's timeout: its signal aborts, and an answer already under way is cut. */
  timedOut(reason: Error): void {
    if (this.builtRequest !== undefined) abortRequest(this.builtRequest, reason);
    if (this.res.headersSent) shutDownResponse(this.res, reason);
  }

  get node(): NodeContext {
    return (this.#node ??= { req: this.req as NodeContext['req'], res: this.res });
  }

  /** From Express's `req.baseUrl`, or from what Connect stripped off `req.url`. */
  mountPath(): string {
    return mountPathOf(this.req);
  }

  errorsGoToNext(): boolean {
    return this.hostGetsErrors && !this.res.headersSent;
  }

  /** The client's doing: a body over the limit or too deep, an error thrown to answer 4xx, or a client gone. */
  isExpected(error: unknown): boolean {
    if (error instanceof BodyLimitError || error instanceof BodyTooDeepError || isClientError(error))
      return true;
    return isClientGoneError(this.res, error);
  }

  /**
   * On `finish` (sent) or `close` (the client left); whichever comes first runs the callbacks. A
   * closing mount waits for them, async ones to their end.
   */
  whenDone(run: () => PromiseLike<unknown> | undefined): void {
    const release = this.#lifecycle.hold();
    let ran = false;
    whenResponseDone(this.res, () => {
      if (ran) return;
      ran = true;
      const running = run();
      if (running) void running.then(release);
      else release();
    });
  }

  /** What the mount's `locals` option takes from the Node request, in an object of the request's own. */
  initialLocals(): Record<string, unknown> | PromiseLike<Record<string, unknown>> {
    const locals = emptyLocals();
    const fromNode = this.route.localsFromNode;
    if (fromNode === undefined) return locals;
    const taken = fromNode(this.node);
    if (typeof (taken as PromiseLike<object> | null)?.then !== 'function')
      return Object.assign(locals, taken);
    return Promise.resolve(taken).then((value) => Object.assign(locals, value));
  }
}

/**
 * A body over the route's limit by its Content-Length, refused before the handler runs. A body the
 * app's parser already read is held only to a limit the app stated (`parsedBodyLimit`), not to the
 * default one: the parser accepted it under its own limit.
 */
function bodyOverLimit(
  req: IncomingMessage,
  res: ServerResponse,
  route: CompiledRoute,
): BodyLimitError | undefined {
  const length = req.headers['content-length'];
  if (length === undefined) return undefined;
  const read = bodyAlreadyRead(req);
  const limit = read ? route.parsedBodyLimit : route.bodyLimit;
  if (!declaresMoreThan(length, limit)) return undefined;
  // The rest of an upload this large is not read: the client learns at once that the connection ends.
  if (!read) res.setHeader('connection', 'close');
  return new BodyLimitError(limit as number);
}
