/**
 * bridgeMiddleware: a `(req: Request, next) => Response` middleware as Express/Connect
 * middleware. `next()` runs the rest of the host's chain — routes, res.json, res.sendFile,
 * streams, the error handler, the 404 — and resolves to what it wrote, as a Response. The
 * client gets whatever the middleware returns; a streamed downstream body keeps streaming.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { WebMiddleware } from '../types';
import { captureResponse, type Capture } from './capture-response';
import { finalNext, sendPlain, type NextFunction } from './node-handler';
import { NodeRequest } from './node-request';
import { BAD_ORIGIN_MESSAGE, requestUrl } from './request-url';
import { sendWebResponse } from './send-response';
import { isResponse } from '../dispatch/run-route';

/** Body limit for requests read through a bridged middleware; endpoints apply their own. */
const NO_LIMIT = false;

export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void;

export function bridgeMiddleware(middleware: WebMiddleware): NodeMiddleware {
  if (typeof middleware !== 'function')
    throw new TypeError('bridgeMiddleware expects a (req, next) function');
  return function bridgedMiddleware(req, res, next) {
    run(middleware, req, res, next ?? finalNext(res)).catch((error: unknown) => {
      if (!res.headersSent) sendPlain(res, 500, 'Internal Server Error');
      else res.destroy(error instanceof Error ? error : undefined);
    });
  };
}

async function run(middleware: WebMiddleware, req: IncomingMessage, res: ServerResponse, next: NextFunction) {
  const url = requestUrl(req);
  if (url === undefined) return sendPlain(res, 400, BAD_ORIGIN_MESSAGE);
  const request = new NodeRequest(req, res, req.method ?? 'GET', url, NO_LIMIT) as unknown as Request;

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
    if (!capture) return next(error);
    // The chain already ran; its error handler cannot be entered again.
    capture.discard();
    capture.restore();
    if (!res.headersSent) return sendPlain(res, 500, 'Internal Server Error');
    res.destroy();
    return;
  }

  if (!capture) return sendWebResponse(res, response, { head: req.method === 'HEAD' });
  const chainResponse = await capture.response.catch(() => undefined);
  if (response !== chainResponse) {
    capture.discard();
    for (const [name, value] of Object.entries(upstreamHeaders!)) {
      if (value !== undefined && !res.hasHeader(name)) res.setHeader(name, value);
    }
  }
  try {
    await sendWebResponse(res, response, { head: req.method === 'HEAD', around: capture.passThrough });
  } finally {
    capture.restore();
  }
}
