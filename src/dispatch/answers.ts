/**
 * The answers the library gives by itself — short plain text, never a stack trace — decided here
 * once for both front ends: the Node bridge writes them to `res`, `.fetch` returns them as
 * Responses. Each dispatch outcome that is not a handler has its answer here too.
 */
import type { Dispatch } from '../route';
import { isBodyLimitError } from './body-rules';

export interface Answer {
  readonly status: number;
  /**
   * What the answer is about, in a word that stays the same from version to version: an app that
   * translates its error messages translates by it, not by the English `message`.
   */
  readonly code: string;
  /** Plain-text body; empty for a 204. */
  readonly message: string;
  /** The `Allow` header, for 405 and the automatic OPTIONS. */
  readonly allow?: string;
  /** Other headers it goes out with: a 416's `Content-Range`. */
  readonly headers?: Readonly<Record<string, string>>;
}

export const NOT_FOUND: Answer = { status: 404, code: 'NOT_FOUND', message: 'Not Found' };
export const MALFORMED_PATH_ANSWER: Answer = {
  status: 400,
  code: 'MALFORMED_PATH',
  message: 'Bad Request: malformed percent-encoding in the URL path',
};
export const REWRITTEN_PATH_ANSWER: Answer = {
  status: 400,
  code: 'REWRITTEN_PATH',
  message:
    'Bad Request: the URL path has a "." or ".." segment, a backslash, or a character that must be percent-encoded',
};
export const BAD_ORIGIN: Answer = {
  status: 400,
  code: 'BAD_ORIGIN',
  message: 'Bad Request: invalid Host header, request target or forwarded protocol',
};
/**
 * CONNECT, TRACE or TRACK in front of a bridged middleware: no Request can carry them. No `Allow`:
 * the methods the app behind it serves are not the middleware's to know.
 */
export const METHOD_WITHOUT_REQUEST: Answer = {
  status: 405,
  code: 'METHOD_NOT_ALLOWED',
  message: 'Method Not Allowed',
};
export const PAYLOAD_TOO_LARGE: Answer = {
  status: 413,
  code: 'PAYLOAD_TOO_LARGE',
  message: 'Payload Too Large',
};
/** A body an earlier parser read, nested too deeply to be encoded again for the handler. */
export const BODY_TOO_DEEP: Answer = {
  status: 400,
  code: 'BODY_TOO_DEEP',
  message: 'Bad Request: the request body is nested too deeply',
};
export const INTERNAL_ERROR: Answer = {
  status: 500,
  code: 'INTERNAL_ERROR',
  message: 'Internal Server Error',
};
/** A request for the tree of a mount that is closing (`endpoints.close()`): try again, elsewhere. */
export const SHUTTING_DOWN: Answer = {
  status: 503,
  code: 'SHUTTING_DOWN',
  message: 'Service Unavailable: the server is shutting down',
};

/** The answer to a dispatch outcome that runs no handler; `undefined` for `pass` (the host's turn). */
export function answerFor(decision: Exclude<Dispatch, { kind: 'handler' }>): Answer | undefined {
  switch (decision.kind) {
    case 'options':
      return { status: 204, code: 'OPTIONS', message: '', allow: decision.allow };
    case 'not-allowed':
      return {
        status: 405,
        code: 'METHOD_NOT_ALLOWED',
        message: 'Method Not Allowed',
        allow: decision.allow,
      };
    case 'pass':
      return undefined;
  }
}

/**
 * One of the library's own refusals (a 400, 405 or 413) as an error, for the host app's error
 * handler: `next(err)` with it lets the app answer in its own error shape, as it answers
 * body-parser's errors. The fields are the ones body-parser and http-errors give theirs, which
 * error handlers already read: `status` and `statusCode`, `expose` (the message is meant for the
 * client), and `headers` (`Allow` for a 405), which Express's default handler sets on its answer;
 * and `code`, which stays the same where the message may be reworded.
 * Where there is no error handler (a bare node:http server, `.fetch`) the plain answer goes out.
 */
export class RequestRefusedError extends Error {
  readonly status: number;
  readonly statusCode: number;
  /** The answer's `code`: `MALFORMED_PATH`, `BAD_ORIGIN`, `METHOD_NOT_ALLOWED`, … (docs/errors.md). */
  readonly code: string;
  readonly expose = true;
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(readonly answer: Answer) {
    super(answer.message);
    this.name = 'RequestRefusedError';
    this.status = this.statusCode = answer.status;
    this.code = answer.code;
    this.headers = answer.allow === undefined ? undefined : { Allow: answer.allow };
    // A refusal is about the client's request, not a fault in code: frames of the library's own
    // functions would tell the reader nothing, and Express's default handler prints the stack
    // outside production.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * The plain answer to an error where no error handler of the app answers it (a bare node:http server,
 * `.fetch`): one of the library's refusals, or an error that says it is the client's, as http-errors'
 * and body-parser's do (a 4xx `status` with `expose`, as `sendFile`'s 404 and 416 and `jsonBody`'s 400).
 * `undefined` for any other error: a 500, which tells nothing.
 */
export function answerForError(error: unknown): Answer | undefined {
  if (error instanceof RequestRefusedError) return withHeaders(error.answer, error.headers);
  if (isBodyLimitError(error)) return PAYLOAD_TOO_LARGE;
  if (!isClientError(error)) return undefined;
  const { status, code, message, headers } = error as ClientError;
  return { status, code: typeof code === 'string' ? code : 'CLIENT_ERROR', message, headers };
}

/** An answer with the headers its error carries beside `Allow`, which the answer has already. */
function withHeaders(answer: Answer, headers: Readonly<Record<string, string>> | undefined): Answer {
  const others = Object.entries(headers ?? {}).filter(([name]) => name.toLowerCase() !== 'allow');
  return others.length === 0 ? answer : { ...answer, headers: Object.fromEntries(others) };
}

type ClientError = Error & { status: number; code?: unknown; headers?: Record<string, string> };

/**
 * An error that says it is the client's: a 4xx `status` (or `statusCode`) and `expose`, as
 * http-errors, body-parser and the library's own refusals make them. Thrown on purpose, it is an
 * answer, not a fault of the app to report.
 */
export function isClientError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { status, statusCode, expose } = error as Error & {
    status?: unknown;
    statusCode?: unknown;
    expose?: unknown;
  };
  const code = typeof status === 'number' ? status : statusCode;
  return expose === true && typeof code === 'number' && code >= 400 && code < 500;
}

/**
 * A route that did not answer within its `timeout`: the request's `signal.reason`, and the error the
 * app's error handler answers, `503` (the server could not answer in time; a gateway's `504` is for an
 * upstream that did not). Named `TimeoutError`, as `AbortSignal.timeout()`'s reason is.
 */
export class RouteTimeoutError extends RequestRefusedError {
  constructor(readonly timeout: number) {
    super({
      status: 503,
      code: 'ROUTE_TIMEOUT',
      message: `Service Unavailable: the route did not answer within ${timeout} ms`,
    });
    this.name = 'TimeoutError';
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** An answer as a Response, for `.fetch`. */
export function answerResponse(answer: Answer): Response {
  const headers: Record<string, string> = { ...answer.headers };
  if (answer.allow !== undefined) headers.allow = answer.allow;
  if (answer.message === '') return new Response(null, { status: answer.status, headers });
  headers['content-type'] = PLAIN_TEXT;
  return new Response(answer.message, { status: answer.status, headers });
}

export const PLAIN_TEXT = 'text/plain; charset=utf-8';

/** Statuses whose responses never carry a body. */
export function isNullBodyStatus(status: number): boolean {
  return status === 204 || status === 205 || status === 304;
}
