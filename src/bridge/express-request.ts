/**
 * A Node request as the host in front of the tree leaves it: what Express, Connect and the body
 * parsers add to `IncomingMessage` that the bridge reads. Every field may be missing: a bare
 * `node:http` server sets none, Connect only `originalUrl`.
 */
import type { IncomingMessage } from 'node:http';

export interface ExpressRequest extends IncomingMessage {
  /** Express and Connect: the client's target, before a mount path was stripped off `url`. */
  originalUrl?: string;
  /** Express: the mount path, parent routers included. */
  baseUrl?: unknown;
  /** Express: `http` or `https`, as the app's `trust proxy` allows. */
  protocol?: string;
  /** Express: the innermost app the request came through. */
  app?: ExpressApp;
  /** Express: whether the request's validators match the response's. */
  fresh?: boolean;
  /** Express: the route that answers, which request loggers name the request by. */
  route?: unknown;
  /** A body parser's result. */
  body?: unknown;
  /** The body's bytes, kept by the app (or by a bridged middleware) after reading them. */
  rawBody?: unknown;
  /** body-parser 1's "I read the stream" flag (version 2 sets `body` instead). */
  _body?: boolean;
}

/** What the bridge reads of an Express app. */
export interface ExpressApp {
  get?(setting: string): unknown;
  enabled?(setting: string): boolean;
  /** The app this one is mounted in (Express sets it on `app.use(subApp)`). */
  parent?: unknown;
}
