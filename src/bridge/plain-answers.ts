/**
 * The answers the bridge gives itself — short plain text, never a stack trace — and what it does
 * with an error once a request is in its hands. Shared by the endpoints and bridgeMiddleware.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { drainAfterResponse } from './drain-request';
import { isClientGoneError } from './client-gone';
import { BodyLimitError, BodyTooDeepError } from './request-body';
import {
  BODY_TOO_DEEP,
  INTERNAL_ERROR,
  NOT_FOUND,
  PAYLOAD_TOO_LARGE,
  PLAIN_TEXT,
  type Answer,
} from '../dispatch';

export type NextFunction = (error?: unknown) => void;

/** Writes one of the library's own answers (see dispatch/answers). */
export function sendAnswer(res: ServerResponse, answer: Answer): void {
  res.statusCode = answer.status;
  // Node's own reason phrase for the status, not one a response written before it left behind.
  res.statusMessage = '';
  if (answer.allow !== undefined) res.setHeader('allow', answer.allow);
  if (answer.message === '') {
    res.end();
    return;
  }
  res.setHeader('content-type', PLAIN_TEXT);
  res.setHeader('content-length', Buffer.byteLength(answer.message));
  res.end(answer.message);
}

/** What a bare node:http server gets when no `next` is given: 404 and 500, no stack traces. */
export function finalNext(res: ServerResponse): NextFunction {
  return (error?: unknown) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendAnswer(res, error === undefined ? NOT_FOUND : INTERNAL_ERROR);
  };
}

/**
 * An error while serving a request: nothing to do when the client left and the error only says
 * so; a broken connection once headers are out; 413 for a body over the limit (the rest of it
 * drained, bounded); 400 for a parsed body too deep to hand over; otherwise the host's error
 * handler, through `next`.
 */
export function failRequest(
  req: IncomingMessage,
  res: ServerResponse,
  next: NextFunction,
  error: unknown,
): void {
  if (isClientGoneError(res, error)) return;
  if (res.headersSent) {
    res.destroy(error instanceof Error ? error : undefined);
    return;
  }
  if (error instanceof BodyLimitError) {
    drainAfterResponse(req, res);
    return sendAnswer(res, PAYLOAD_TOO_LARGE);
  }
  if (error instanceof BodyTooDeepError) return sendAnswer(res, BODY_TOO_DEEP);
  next(error);
}
