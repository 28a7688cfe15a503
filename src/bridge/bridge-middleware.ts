/**
 * bridgeMiddleware: a `(req: Request, next) => Response` middleware as Express/Connect
 * middleware. `next()` runs the rest of the host's chain — routes, res.json, res.sendFile,
 * streams, the error handler, the 404 — and resolves to what it wrote, as a Response. The
 * client gets whatever the middleware returns; a streamed downstream body keeps streaming.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { WebMiddleware } from '../types';
import { captureResponse, type Capture } from './capture-response';
import { failRequest, finalNext, sendPlain, type NextFunction } from './plain-answers';
import { toWebRequest } from './web-request';
import { BAD_ORIGIN_MESSAGE, requestUrl } from './request-url';
import { DEFAULT_BODY_LIMIT } from './request-body';
import { sendWebResponse } from './send-response';
import { isResponse } from '../dispatch';

export interface BridgeOptions {
  /**
   * Largest body in bytes the middleware may read (`413` past it), or `false`. Default 1 MiB, like
   * endpoints. The body it reads stays in the request for the host's own readers after it.
   */
  bodyLimit?: number | false;
}

export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void;

export function bridgeMiddleware(middleware: WebMiddleware, options: BridgeOptions = {}): NodeMiddleware {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  if (typeof middleware !== 'function')
    throw new TypeError('bridgeMiddleware expects a (req, next) function');
  return function bridgedMiddleware(req, res, next) {
    run(middleware, bodyLimit, req, res, next ?? finalNext(res)).catch((error: unknown) => {
      if (!res.headersSent) sendPlain(res, 500, 'Internal Server Error');
      else res.destroy(error instanceof Error ? error : undefined);
    });
  };
}

async function run(
  middleware: WebMiddleware,
  bodyLimit: number | false,
  req: IncomingMessage,
  res: ServerResponse,
  next: NextFunction,
) {
  const url = requestUrl(req);
  if (url === undefined) return sendPlain(res, 400, BAD_ORIGIN_MESSAGE);
  const method = req.method ?? 'GET';
  const request = toWebRequest(req, res, url, { bodyLimit, restoreBody: true });

  let capture: Capture | undefined;
  let upstreamHeaders: OutgoingHttpHeaders | undefined;
  const callNext = (): Promise<Response> => {
    if (capture) return Promise.reject(new Error('next() was called more than once by a middleware'));
    // The capture moves every header on `res` into the chain's Response; a different Response
    // returned by the middleware must still get those set before it (helmet, cors, cookies).
    upstreamHeaders = { ...res.getHeaders() };
    capture = captureResponse(res);
    next();
    return capture.response;
  };

  let response: Response;
  try {
    response = await middleware(request, callNext);
    if (!isResponse(response))
      throw new TypeError(`A bridged middleware returned ${typeof response}, not a Response`);
  } catch (error) {
    if (!capture) return failRequest(req, res, next, error);
    // The chain already ran; its error handler cannot be entered again.
    capture.discard();
    capture.restore();
    return failRequest(req, res, () => sendPlain(res, 500, 'Internal Server Error'), error);
  }

  if (!capture) return sendWebResponse(res, response, { head: method === 'HEAD' });
  const chainResponse = await capture.response.catch(() => undefined);
  if (response !== chainResponse) {
    capture.discard();
    for (const [name, value] of Object.entries(upstreamHeaders!)) {
      if (value !== undefined && !res.hasHeader(name)) res.setHeader(name, value);
    }
  }
  try {
    await sendWebResponse(res, response, { head: method === 'HEAD', around: capture.passThrough });
  } finally {
    capture.restore();
  }
}
