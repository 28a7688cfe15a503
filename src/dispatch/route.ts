/** A route ready to serve: what the router's values are. */
import type { ErrorReporter, WebMiddleware } from '../types';
import type { MethodTable } from './method-table';

/** What `req.route` is set to while an endpoint answers, for loggers and tracing that read it. */
export interface ExpressStyleRoute {
  /** The pattern in Express 5 syntax: `/api/users/:id`, `/docs/*path`, `/files{/*path}`. */
  readonly path: string;
  /** Always empty: the endpoint is not an Express route; present because tools expect the field. */
  readonly stack: readonly unknown[];
  /** The methods the file serves, lower case, as Express's `route.methods`. */
  readonly methods: Readonly<Record<string, boolean>>;
}

export interface CompiledRoute {
  /** URL pattern, e.g. `/api/users/[id]`. */
  pattern: string;
  /** Endpoint file relative to cwd, for messages. */
  displayPath: string;
  table: MethodTable;
  /** Options middleware, then folder middleware from the outermost folder in. */
  middleware: WebMiddleware[];
  /** What each of `middleware` is called in error reports: its file, or `middleware option #n`. */
  middlewareNames: string[];
  bodyLimit: number | false;
  /** Built once per route, shared by every request. */
  expressRoute: ExpressStyleRoute;
  /** The mount's `onError` (or the default). */
  onError: ErrorReporter;
}

/**
 * The route table's value for an endpoint whose module is still loading: the table is known from
 * the tree at once, so a request no endpoint matches goes on to the app without waiting (issue 22).
 */
export const LOADING: unique symbol = Symbol('express-file-endpoints.loading');

/** What the route table of a mount leads to: a route ready to serve, or one still loading. */
export type MountedRoute = CompiledRoute | typeof LOADING;
