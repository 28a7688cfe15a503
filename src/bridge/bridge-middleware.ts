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
import type { WebMiddleware } from '../types';
import { captureResponse, type Capture } from './capture-response';
import { failRequest, finalNext, sendAnswer, type NextFunction } from './plain-answers';
import { toWebRequest } from './web-request';
import { requestUrl } from './request-url';
import { DEFAULT_BODY_LIMIT } from './request-body';
import {
  isChainDerived,
  replayResponse,
  resetHeaders,
  upstreamHeaders,
  type UpstreamHeaders,
} from './replay-response';
import { sendWebResponse } from './send-response';
import { BAD_ORIGIN, INTERNAL_ERROR, isResponse } from '../dispatch';

export interface BridgeOptions {
  /**
   * Largest body in bytes the middleware may read (`413` past it), or `false`. Default 1 MiB, like
   * endpoints. The body it reads stays in the request for the host's own readers after it.
   */
  bodyLimit?: number | false;
}

export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void;

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
  if (typeof middleware !== 'function')
    throw new TypeError('bridgeMiddleware expects a (req, next) function');
  return function bridgedMiddleware(req, res, next) {
    run(middleware, bodyLimit, req, res, next ?? finalNext(res)).catch((error: unknown) => {
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

function placeholderUrl(req: IncomingMessage & { originalUrl?: string }): string {
  const target = req.originalUrl ?? req.url ?? '/';
  const path = target.startsWith('/') ? target : '/';
  return URL.canParse(PLACEHOLDER_ORIGIN + path) ? PLACEHOLDER_ORIGIN + path : `${PLACEHOLDER_ORIGIN}/`;
}

async function run(
  middleware: WebMiddleware,
  bodyLimit: number | false,
  req: IncomingMessage,
  res: ServerResponse,
  next: NextFunction,
) {
  const method = req.method ?? 'GET';
  const request = bridgeRequest(req, res, bodyLimit);

  let capture: Capture | undefined;
  let upstream: UpstreamHeaders | undefined;
  const callNext = (): Promise<Response> => {
    if (capture) return Promise.reject(new Error('next() was called more than once by a middleware'));
    upstream = upstreamHeaders(res);
    capture = captureResponse(res);
    next();
    return capture.response;
  };

  let returned: Response;
  try {
    returned = await middleware(request, callNext);
    if (!isResponse(returned))
      throw new TypeError(`A bridged middleware returned ${typeof returned}, not a Response`);
  } catch (error) {
    const answer = error instanceof InvalidHostError ? BAD_ORIGIN : INTERNAL_ERROR;
    if (!capture) {
      if (answer === BAD_ORIGIN) return sendAnswer(res, BAD_ORIGIN);
      return failRequest(req, res, next, error);
    }
    // The chain already ran; its error handler cannot be entered again.
    return failAfterNext(req, res, capture, upstream!, error, () => sendAnswer(res, answer));
  }

  if (!capture) return sendWebResponse(res, returned, { head: method === 'HEAD' });
  try {
    await sendAfterNext(res, capture, returned, upstream!, method === 'HEAD');
  } catch (error) {
    failAfterNext(req, res, capture, upstream!, error, () => sendAnswer(res, INTERNAL_ERROR));
  } finally {
    capture.restore();
  }
}

/** A failure once the chain has answered: nothing of the chain's goes out, a plain answer does. */
function failAfterNext(
  req: IncomingMessage,
  res: ServerResponse,
  capture: Capture,
  upstream: UpstreamHeaders,
  error: unknown,
  answer: () => void,
): void {
  capture.abandon(true);
  capture.passThrough(() =>
    failRequest(
      req,
      res,
      () => {
        // The chain's head stays off the answer: its headers and its status line's text.
        resetHeaders(res, upstream);
        res.statusMessage = '';
        answer();
      },
      error,
    ),
  );
  capture.restore();
}

/** The middleware called next() and returned `returned`: the chain's response replayed, or another one sent. */
async function sendAfterNext(
  res: ServerResponse,
  capture: Capture,
  returned: Response,
  upstream: UpstreamHeaders,
  head: boolean,
): Promise<void> {
  // The chain's head is known before next() resolves; a middleware that did not wait for it
  // answered on its own.
  const chain = capture.chain();
  if (chain && isChainDerived(chain, returned)) {
    await replayResponse(res, capture, chain, returned, upstream);
    return;
  }
  // Another Response. A stream of the chain's body that it reads (`r.body.pipeThrough(…)`,
  // `r.clone()`) keeps flowing; one nobody reads by the time the answer starts is cancelled.
  const sending = capture.passThrough(() => {
    resetHeaders(res, upstream, returned);
    res.statusMessage = '';
    return sendWebResponse(res, returned, { head, passThrough: capture.passThrough });
  });
  capture.abandon();
  await sending;
}
