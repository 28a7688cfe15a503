/**
 * The answers the bridge gives itself — short plain text, never a stack trace — and what it does
 * with an error once a request is in its hands. Shared by the endpoints and bridgeMiddleware.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { drainAfterResponse } from './drain-request';
import { BodyLimitError, ClientClosedError } from './request-body';

export type NextFunction = (error?: unknown) => void;

export function sendPlain(res: ServerResponse, status: number, message: string): void {
  res.statusCode = status;
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(message));
  res.end(message);
}

/** What a bare node:http server gets when no `next` is given: 404 and 500, no stack traces. */
export function finalNext(res: ServerResponse): NextFunction {
  return (error?: unknown) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error === undefined) return sendPlain(res, 404, 'Not Found');
    sendPlain(res, 500, 'Internal Server Error');
  };
}

/**
 * An error while serving a request: nothing to do when the client left and the error only says
 * so; a broken connection once headers are out; 413 for a body over the limit (the rest of it
 * drained, bounded); otherwise the host's error handler, through `next`.
 */
export function failRequest(
  req: IncomingMessage,
  res: ServerResponse,
  next: NextFunction,
  error: unknown,
): void {
  if (isClientGone(res, error)) return;
  if (res.headersSent) {
    res.destroy(error instanceof Error ? error : undefined);
    return;
  }
  if (error instanceof BodyLimitError) {
    drainAfterResponse(req, res);
    return sendPlain(res, 413, 'Payload Too Large');
  }
  next(error);
}

/** The client left, and the error only says so: there is nobody to answer. */
function isClientGone(res: ServerResponse, error: unknown): boolean {
  if (!res.destroyed && !res.socket?.destroyed) return false;
  return error instanceof ClientClosedError || (error as { code?: unknown } | null)?.code === 'ECONNRESET';
}
