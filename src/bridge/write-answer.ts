/**
 * The answers the bridge gives itself — short plain text, never a stack trace — and what it does
 * with an error once a request is in its hands. Shared by the endpoints and bridgeMiddleware.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { drainAfterResponse } from './drain-request';
import { isClientGoneError } from './client-gone';
import { BodyLimitError, BodyTooDeepError } from './node-body';
import {
  answerForError,
  BODY_TOO_DEEP,
  INTERNAL_ERROR,
  NOT_FOUND,
  PLAIN_TEXT,
  RequestRefusedError,
  type Answer,
} from '../dispatch';

export type NextFunction = (error?: unknown) => void;

/** Writes one of the library's own answers (see dispatch/answers). */
export function sendAnswer(res: ServerResponse, answer: Answer): void {
  res.statusCode = answer.status;
  // Node's own reason phrase for the status, not one a response written before it left behind. HTTP/2
  // has none, and Node warns when one is read or set (RFC 9113, section 8.3.2).
  if (res.req?.httpVersionMajor !== 2) res.statusMessage = '';
  if (answer.allow !== undefined) res.setHeader('allow', answer.allow);
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  if (answer.message === '') {
    res.end();
    return;
  }
  res.setHeader('content-type', PLAIN_TEXT);
  res.setHeader('content-length', Buffer.byteLength(answer.message));
  res.end(answer.message);
}

/**
 * What a bare node:http server gets when no `next` is given: 404 and 500, and the plain answer to
 * each of the library's own refusals; no stack traces.
 */
export function finalNext(res: ServerResponse): NextFunction {
  return (error?: unknown) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error === undefined) return sendAnswer(res, NOT_FOUND);
    sendAnswer(
      res,
      error instanceof BodyTooDeepError ? BODY_TOO_DEEP : (answerForError(error) ?? INTERNAL_ERROR),
    );
  };
}

/**
 * Refuses the request: the app's error handler answers, through `next(err)`, in the app's error
 * shape; without one, `next` is `finalNext`, which sends the plain answer.
 */
export function refuse(res: ServerResponse, next: NextFunction, answer: Answer): void {
  const error = new RequestRefusedError(answer);
  setRefusalHeaders(res, error);
  next(error);
}

/**
 * A refusal's headers (a 405's `Allow`, sendFile's 416 `Content-Range` and the validators it had made) are set
 * on `res` before `next(err)`, so they stay on whatever the app's error handler sends, as Express's own
 * refusals and `res.sendFile`'s leave theirs.
 */
function setRefusalHeaders(res: ServerResponse, error: RequestRefusedError): void {
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
}

/**
 * An error while serving a request: nothing to do when the client left and the error only says
 * so; a broken connection once headers are out; otherwise `next(err)`, the host's error handler
 * (or `finalNext`'s plain answer). A body over the limit has the rest of it drained, bounded; a
 * 413 or a 400 for a parsed body too deep to hand over carries its status for the error handler.
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
  if (error instanceof BodyLimitError) drainAfterResponse(req, res);
  if (error instanceof RequestRefusedError) setRefusalHeaders(res, error);
  next(error);
}
