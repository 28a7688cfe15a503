/** The route table's public types and its one sentinel value. */
import type { Segment } from '../discover';
import type { Params } from '../types';

/**
 * Returned by `match` when a route would take the path but one of its segments is not valid
 * percent-encoding (`%zz`, a cut-off UTF-8 sequence). The caller answers 400, as Express does.
 */
export const MALFORMED_PATH: unique symbol = Symbol('express-file-endpoints.malformedPath');

/** One route to put in the table: its URL segments (groups already removed) and what it leads to. */
export interface RouteEntry<T> {
  segments: Segment[];
  value: T;
}

/** Express's `case sensitive routing` and `strict routing`; both default to `false` like Express. */
export interface RouterOptions {
  /** Compare static segments exactly. Default: letter case is ignored. */
  caseSensitive?: boolean;
  /** Treat `/a/` and `/a` as different URLs. Default: one trailing slash is ignored. */
  strict?: boolean;
}

export interface RouteMatch<T> {
  value: T;
  /** A prototype-less object: a folder named `[__proto__]` is just an own key. */
  params: Params;
}

export interface Router<T> {
  /**
   * `pathname` is the raw request path: starts with `/`, no query string, still percent-encoded.
   * `routing` replaces the router's own options for this match (the host's settings, read per
   * request). Returns `null` when no route matches.
   */
  match(pathname: string, routing?: RouterOptions): RouteMatch<T> | null | typeof MALFORMED_PATH;
}
