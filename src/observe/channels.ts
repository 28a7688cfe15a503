/**
 * The library's `node:diagnostics_channel` tracing channels, public API: APM agents and
 * users subscribe to them to time and name what the tree does, as srvx and Nitro publish theirs.
 *
 *   express-file-endpoints:request     one request an endpoint's route answers
 *   express-file-endpoints:middleware  one step of its middleware chain
 *   express-file-endpoints:publish     one publication to a topic, fanned out to this process's subscribers
 *   express-file-endpoints:deliver     one publication from another process, fanned out here
 *   express-file-endpoints:drop        (a plain channel) what a slow subscriber or the other processes lost
 *
 * Each tracing channel follows the TracingChannel convention: `start` and `end` around the synchronous part,
 * `error` when it fails, `asyncStart` and `asyncEnd` once it is over (the topic ones are synchronous: no async events). Publishing costs nothing
 * unless someone subscribes: callers check `hasSubscribers` first and build no context otherwise.
 */
import { channel, tracingChannel } from 'node:diagnostics_channel';

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

/** The context of `express-file-endpoints:publish`: one publication made in this process. */
export interface PublishTraceContext {
  readonly topic: string;
  /** Its size in bytes (text as UTF-8). */
  readonly size: number;
  /** The subscribers of this process it reached, set before `end`. */
  delivered: number;
  /** The backplane it was handed to, `undefined` without one. */
  readonly backplane: string | undefined;
}

/** The context of `express-file-endpoints:deliver`: one publication from another process, handed to this one's subscribers. */
export interface DeliverTraceContext {
  readonly topic: string;
  readonly size: number;
  /** The subscribers it reached, set before `end`. */
  delivered: number;
  readonly backplane: string;
}

/** A message of `express-file-endpoints:drop`: what a subscriber, or the other processes, did not get. */
export interface DropMessage {
  readonly topic: string;
  /**
   * `slow-subscriber`: a subscriber was `backpressureLimit` bytes behind, and was closed;
   * `backplane`: the backplane could not carry the publication to the other processes.
   */
  readonly reason: 'slow-subscriber' | 'backplane';
  /** `websocket` or `stream` for a slow subscriber; the backplane's name for `backplane`. */
  readonly subscriber: string;
}

export const PUBLISH_CHANNEL = 'express-file-endpoints:publish';
export const DELIVER_CHANNEL = 'express-file-endpoints:deliver';
export const DROP_CHANNEL = 'express-file-endpoints:drop';

export const publishChannel = tracingChannel<unknown, PublishTraceContext>(PUBLISH_CHANNEL);
export const deliverChannel = tracingChannel<unknown, DeliverTraceContext>(DELIVER_CHANNEL);
export const dropChannel = channel(DROP_CHANNEL);
