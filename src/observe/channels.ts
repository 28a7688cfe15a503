/**
 * The library's `node:diagnostics_channel` tracing channels (issue 27), public API: APM agents and
 * users subscribe to them to time and name what the tree does, as srvx and Nitro publish theirs.
 *
 *   express-file-endpoints:request     one request an endpoint's route answers
 *   express-file-endpoints:middleware  one step of its middleware chain
 *
 * Each follows the TracingChannel convention: `start` and `end` around the synchronous part,
 * `error` when it fails, `asyncStart` and `asyncEnd` once it is over. Publishing costs nothing
 * unless someone subscribes: callers check `hasSubscribers` first and build no context otherwise.
 */
import { tracingChannel } from 'node:diagnostics_channel';

/** The context object of `express-file-endpoints:request`: one per request an endpoint's route answers. */
export interface RequestTraceContext {
  /** The route pattern as the folders spell it: `/api/users/[id]`. */
  readonly route: string;
  /** The request method, as sent. */
  readonly method: string;
  /** The endpoint file, relative to the working directory. */
  readonly file: string;
  /**
   * The export that handles the request (`GET`, `ANY`, `default`); `undefined` when the tree answers
   * without a handler: 405, the automatic OPTIONS, or a request refused before it (413, 400).
   */
  readonly export: string | undefined;
  /**
   * The Request the handler and the middleware get, `undefined` when no handler runs. Read from a
   * subscriber, it is built then if nothing needed it yet (a `GET()` without parameters), so a
   * subscriber that never reads it costs no Request.
   */
  readonly request: Request | undefined;
  /** The response status, set before `asyncStart`; `undefined` if the client left before it was sent. */
  status: number | undefined;
  /**
   * The response did not complete: the client left (or, under `.fetch`, cancelled the body), or
   * its body failed part-way (then `error` was published first). Set before `asyncStart`.
   */
  aborted: boolean;
  /** What failed, set before `error` is published. */
  error?: unknown;
}

/** The context object of `express-file-endpoints:middleware`: one step of a route's middleware chain. */
export interface MiddlewareTraceContext {
  readonly route: string;
  readonly method: string;
  /** The endpoint file the chain leads to. */
  readonly file: string;
  /** The middleware: its file, or `middleware option #1 (name)` for `mountEndpoints({ middleware })`. */
  readonly middleware: string;
  /** Its place in the chain, 0 for the outermost. */
  readonly index: number;
  readonly request: Request;
  /** The status of the Response it answered with (its own, or the one `next()` gave it), set before `asyncStart`. */
  status: number | undefined;
  /** What it threw or rejected with, set before `error` is published. */
  error?: unknown;
}

export const REQUEST_CHANNEL = 'express-file-endpoints:request';
export const MIDDLEWARE_CHANNEL = 'express-file-endpoints:middleware';

export const requestChannel = tracingChannel<unknown, RequestTraceContext>(REQUEST_CHANNEL);
export const middlewareChannel = tracingChannel<unknown, MiddlewareTraceContext>(MIDDLEWARE_CHANNEL);
