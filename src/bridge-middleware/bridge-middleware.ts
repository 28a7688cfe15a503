/**
 * bridgeMiddleware: a `(req: Request, next) => Response` middleware as Express/Connect
 * middleware. `next()` runs the rest of the host's chain — routes, res.json, res.sendFile,
 * streams, the error handler, the 404 — and resolves to what it wrote, as a Response.
 *
 * The bridge is meant to be invisible to the app behind it. A middleware that returns next()'s
 * Response, or a copy around its body, sends what the app wrote the way Node would have sent it
 * (replay-response.ts): same status line, header spelling and order, framing, streaming; only
 * the middleware's own changes are applied. Nothing is checked that the middleware does not use:
 * a Host header that makes no URL fails only a middleware that reads `req.url`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EndpointContext, ErrorReporter, NodeContext, Params, WebMiddleware } from '../types';
import {
  DEFAULT_BODY_LIMIT,
  failRequest,
  finalNext,
  hasRewrittenPath,
  mountPathOf,
  originalTarget,
  refuse,
  requestUrl,
  sendAnswer,
  sendWebResponse,
  toWebRequest,
  type NextFunction,
  type NodeMiddleware,
} from '../bridge';
import { ResponseCapture } from './response-capture';
import { failAfterNext, sendAfterNext } from './replay-response';
import {
  BAD_ORIGIN,
  INTERNAL_ERROR,
  logError,
  NextGuard,
  METHOD_WITHOUT_REQUEST,
  REWRITTEN_PATH_ANSWER,
  tellOnError,
} from '../dispatch';
import { isForbiddenMethod } from '../http-methods';
import { isResponse } from '../is-response';

export interface BridgeOptions {
  /**
   * Largest body in bytes the middleware may read (`413` past it), or `false`. Default 1 MiB, like
   * endpoints. The body it reads stays in the request for the host's own readers after it.
   */
  bodyLimit?: number | false;
  /**
   * A request whose path the URL parser would rewrite (a `.` or `..` segment, percent-encoded in
   * any case too, a `\`, a character a URL must percent-encode): `'reject'` (default) answers `400`
   * before the middleware sees it, because `request.url` would name another path than the one the
   * app behind it routes (`/private/%2e%2e/public` reads as `/public`). `'resolve'` runs the
   * middleware with the URL as the parser reads it, and the app still gets the raw path: only for
   * an app whose own routes handle `..` themselves, behind a middleware that guards nothing by path.
   */
  rewrittenPaths?: 'reject' | 'resolve';
  /**
   * CONNECT, TRACE and TRACK, which no `Request` can carry: `'reject'` (default) answers `405`, so
   * such a request cannot slip past the middleware unseen; `'next'` passes it to the app untouched,
   * without running the middleware, for an app that routes these methods itself.
   */
  methodsWithoutRequest?: 'reject' | 'next';
  /**
   * Told about the errors the app's error handler cannot be given: once the middleware has called
   * `next()` the app's chain has run, so an error after it (a throw, a second `next()`) is answered
   * with a plain `500` instead. `info.file` is `'bridgeMiddleware'`, `info.export` the middleware's
   * function name, `info.route` the path it is mounted at. Default: logged with `console.error`.
   */
  onError?: ErrorReporter;
}

/** Thrown by `request.url` when the Host header (or forwarded protocol) makes no URL. */
export class InvalidHostError extends TypeError {
  override name = 'InvalidHostError';
  constructor() {
    super(BAD_ORIGIN.message);
  }
}

// What a Request is built with when the real URL cannot be: `.invalid` never resolves (RFC 2606),
// so `fetch(req)` cannot reach anything; `req.url` itself throws.
const PLACEHOLDER_ORIGIN = 'http://invalid-host.invalid';

export function bridgeMiddleware(middleware: WebMiddleware, options: BridgeOptions = {}): NodeMiddleware {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const onError = options.onError ?? logError;
  const resolvePaths = options.rewrittenPaths === 'resolve';
  const passMethods = options.methodsWithoutRequest === 'next';
  if (typeof middleware !== 'function')
    throw new TypeError('bridgeMiddleware expects a (req, next) function');
  return function bridgedMiddleware(req, res, next) {
    // The refusals go to the app's error handler, as the endpoints' do; without one, plain answers.
    if (isForbiddenMethod(req.method ?? 'GET')) {
      if (passMethods && next) return next();
      return refuse(res, next ?? finalNext(res), METHOD_WITHOUT_REQUEST);
    }
    if (!resolvePaths && hasRewrittenPath(req)) {
      return refuse(res, next ?? finalNext(res), REWRITTEN_PATH_ANSWER);
    }
    run(middleware, bodyLimit, onError, req, res, next ?? finalNext(res)).catch((error: unknown) => {
      if (!res.headersSent) sendAnswer(res, INTERNAL_ERROR);
      else res.destroy(error instanceof Error ? error : undefined);
    });
  };
}

/**
 * The Request the middleware sees. Its URL is checked where it is read: a Host header that makes
 * no URL fails a middleware that reads `req.url` (answered 400), and changes nothing for one
 * that does not — the app behind it answers such requests as it would without the bridge.
 */
function bridgeRequest(req: IncomingMessage, res: ServerResponse, bodyLimit: number | false) {
  const url = requestUrl(req);
  const request = toWebRequest(req, res, url ?? placeholderUrl(req), { bodyLimit, restoreBody: true });
  if (url === undefined) {
    Object.defineProperty(request, 'url', {
      configurable: true,
      get() {
        throw new InvalidHostError();
      },
    });
  }
  return request;
}

function placeholderUrl(req: IncomingMessage): string {
  const target = originalTarget(req);
  const path = target.startsWith('/') ? target : '/';
  return URL.canParse(PLACEHOLDER_ORIGIN + path) ? PLACEHOLDER_ORIGIN + path : `${PLACEHOLDER_ORIGIN}/`;
}

async function run(
  middleware: WebMiddleware,
  bodyLimit: number | false,
  onError: ErrorReporter,
  req: IncomingMessage,
  res: ServerResponse,
  next: NextFunction,
) {
  const method = req.method ?? 'GET';
  const request = bridgeRequest(req, res, bodyLimit);

  let capture: ResponseCapture | undefined;
  // The app's chain runs once. A second next() fails the request, whether the middleware awaits
  // its promise or drops it.
  const guard = new NextGuard();
  const callNext = (): Promise<Response> => {
    if (capture) return guard.calledAgain((misuse) => tell(onError, misuse, middleware, req, request));
    capture = new ResponseCapture(res);
    next();
    return capture.response;
  };

  let returned: unknown;
  try {
    returned = await returnedOrThrownResponse(middleware, request, callNext, new BridgedContext(req, res));
    if (guard.misuse) throw guard.misuse;
    if (!isResponse(returned))
      throw new TypeError(`A bridged middleware returned ${typeof returned}, not a Response`);
  } catch (error) {
    const answer = error instanceof InvalidHostError ? BAD_ORIGIN : INTERNAL_ERROR;
    if (!capture) {
      if (answer === BAD_ORIGIN) return refuse(res, next, BAD_ORIGIN);
      return failRequest(req, res, next, error);
    }
    // The chain already ran; its error handler cannot be entered again: onError is told instead.
    return failAfterNext(req, res, capture, error, () => {
      if (answer === INTERNAL_ERROR && error !== guard.misuse) tell(onError, error, middleware, req, request);
      sendAnswer(res, answer);
    });
  }

  if (!capture) return sendWebResponse(res, returned, { head: method === 'HEAD' });
  try {
    await sendAfterNext(res, capture, returned, method === 'HEAD');
  } catch (error) {
    failAfterNext(req, res, capture, error, () => sendAnswer(res, INTERNAL_ERROR));
  } finally {
    capture.restore();
  }
}

/**
 * What the middleware answered: what it returned, or a Response it threw (`throw
 * Response.redirect(url)`), as a handler's or the tree's own middleware's thrown Response is.
 */
async function returnedOrThrownResponse(
  middleware: WebMiddleware,
  ...args: Parameters<WebMiddleware>
): Promise<unknown> {
  try {
    return await middleware(...args);
  } catch (error) {
    if (isResponse(error)) return error;
    throw error;
  }
}

/**
 * What a bridged middleware gets as its context: the Node request and response, no route. Every
 * bridged request makes one, and most middleware never read it, so each field is made on first use.
 */
class BridgedContext implements EndpointContext {
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  #params: Params | undefined;
  #node: NodeContext | undefined;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.#req = req;
    this.#res = res;
  }

  get params(): Params {
    return (this.#params ??= Object.create(null) as Params);
  }

  get node(): NodeContext {
    return (this.#node ??= { req: this.#req as NodeContext['req'], res: this.#res });
  }

  get mountPath(): string {
    return mountPathOf(this.#req);
  }

  /**
   * Express's `res.locals`, the place an Express app's routes and views read what middleware found:
   * what a bridged middleware sets there reaches them (made on a host that has none, as Connect).
   */
  get locals(): Record<string, unknown> {
    const res = this.#res as ServerResponse & { locals?: Record<string, unknown> };
    return (res.locals ??= Object.create(null) as Record<string, unknown>);
  }
}

/** Tells `onError` about an error of the middleware. */
function tell(
  onError: ErrorReporter,
  error: unknown,
  middleware: WebMiddleware,
  req: IncomingMessage,
  request: Request,
): void {
  tellOnError(onError, error, {
    request,
    route: mountPathOf(req) || '/',
    file: 'bridgeMiddleware',
    export: middleware.name || 'anonymous',
    passedToNext: false,
  });
}
