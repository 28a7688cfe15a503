/**
 * The checks before a route runs, in one order for every front (the Node middleware, `.fetch`, a
 * WebSocket upgrade), so the order is decided here once: the route table's match, a malformed path,
 * modules still loading, a closing mount, a path the URL parser would rewrite, and the method's
 * decision (or, for an upgrade, whether the route serves WebSockets). Each front turns what comes back
 * into its own I/O: `next()`, a 404, a refusal, a wait.
 */
import { isRewrittenPath, MALFORMED_PATH, type RouteMatch, type Router, type RouterOptions } from '../router';
import type { Params, WebSocketHandler } from '../types';
import type { Dispatch } from '../route';
import { LOADING, type CompiledRoute, type MountedRoute } from '../route';
import { dispatchRequest } from './serve-route';

/** No route of the tree takes the path: the app's, or a 404 where there is no app. */
export const UNMATCHED = { kind: 'unmatched' } as const;
/** A route takes the path, but its percent-encoding is malformed: a 400. */
export const MALFORMED = { kind: 'malformed' } as const;
/** The route's modules are still loading: ask again once they have. */
export const STILL_LOADING = { kind: 'loading' } as const;
/** The mount is closing: a 503, so the client tries again elsewhere. */
export const CLOSING = { kind: 'closing' } as const;
/** A path the URL parser would give another pathname (`/files/%2e%2e`): a 400, before any middleware. */
export const REWRITTEN = { kind: 'rewritten' } as const;

/** The route runs: its table's decision for the method, a handler's or one of the tree's own answers. */
export interface Admitted {
  readonly kind: 'route';
  readonly route: CompiledRoute;
  readonly params: Params;
  readonly decision: Dispatch;
}

/** The route serves WebSockets: the upgrade runs its middleware and `websocket.upgrade` hook. */
export interface AdmittedUpgrade {
  readonly kind: 'upgrade';
  readonly route: SocketRoute;
  readonly params: Params;
}

/** A route that serves WebSockets. */
export type SocketRoute = CompiledRoute & { socket: WebSocketHandler };

export type Admission =
  | typeof UNMATCHED
  | typeof MALFORMED
  | typeof STILL_LOADING
  | typeof CLOSING
  | typeof REWRITTEN
  | Admitted
  | AdmittedUpgrade;

/** What a request asks of the route: a method's handler, or (`UPGRADE`) a WebSocket. */
export const UPGRADE: unique symbol = Symbol('express-file-endpoints.upgrade');

/**
 * `path` is what the table matches (below the mount, as sent); `sentPath`, the client's whole path as
 * sent, mount prefix and all, is the one a Request's URL shows, so it is the one checked for rewriting.
 */
export function admit(
  router: Router<MountedRoute>,
  path: string,
  routing: RouterOptions | undefined,
  sentPath: string,
  method: string,
  closing: boolean,
): Exclude<Admission, AdmittedUpgrade>;
export function admit(
  router: Router<MountedRoute>,
  path: string,
  routing: RouterOptions | undefined,
  sentPath: string,
  method: typeof UPGRADE,
  closing: boolean,
): Exclude<Admission, Admitted>;
export function admit(
  router: Router<MountedRoute>,
  path: string,
  routing: RouterOptions | undefined,
  sentPath: string,
  method: string | typeof UPGRADE,
  closing: boolean,
): Admission {
  return admitMatch(router.match(path, routing), sentPath, method, closing);
}

/**
 * The same for a match already made: an upgrade's, matched when the server asked whether the tree
 * takes it. A route that serves no WebSockets leaves an upgrade to the app, as if it had not matched.
 */
export function admitMatch(
  match: RouteMatch<MountedRoute> | null | typeof MALFORMED_PATH,
  sentPath: string,
  method: typeof UPGRADE,
  closing: boolean,
): Exclude<Admission, Admitted>;
export function admitMatch(
  match: RouteMatch<MountedRoute> | null | typeof MALFORMED_PATH,
  sentPath: string,
  method: string | typeof UPGRADE,
  closing: boolean,
): Admission;
export function admitMatch(
  match: RouteMatch<MountedRoute> | null | typeof MALFORMED_PATH,
  sentPath: string,
  method: string | typeof UPGRADE,
  closing: boolean,
): Admission {
  if (match === null) return UNMATCHED;
  if (match === MALFORMED_PATH) return MALFORMED;
  const route = match.value;
  if (route === LOADING) return STILL_LOADING;
  // A new connection may reach an instance that is not shutting down; this one will not serve it.
  if (closing) return CLOSING;
  // The Request's URL must name the path that was routed: one the URL parser would rewrite never
  // reaches middleware or a handler.
  if (isRewrittenPath(sentPath)) return REWRITTEN;
  if (method === UPGRADE) {
    return route.socket === undefined
      ? UNMATCHED
      : { kind: 'upgrade', route: route as SocketRoute, params: match.params };
  }
  return { kind: 'route', route, params: match.params, decision: dispatchRequest(route.table, method) };
}
