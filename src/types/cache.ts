/** The words of response caching: what an endpoint states, what a store keeps. */
import type { EndpointContext } from './handlers';

/** `export const cache = { … }` in an endpoint, or in a folder's `middleware.ts` for every endpoint below. */
export interface CacheSettings {
  /** Seconds an answer is fresh: `Cache-Control: max-age`, and how long a store serves it as it is. */
  maxAge: number;
  /** Seconds after that in which the stale answer is served at once while one request refreshes it. Default 0. */
  staleWhileRevalidate?: number;
  /** Seconds after `maxAge` in which a stale answer stands in for a handler that fails. Default `staleWhileRevalidate`. */
  staleIfError?: number;
  /** Request headers the answer depends on: part of the key, and the answer's `Vary`. */
  vary?: readonly string[];
  /** The rest of the key: what else the answer depends on (a user id from `locals`). */
  key?: (request: Request, context: EndpointContext) => string;
  /** Names to invalidate the route's answers by: `endpoints.invalidate('users')`. */
  tags?: readonly string[];
  /** Cache answers to requests that carry `Authorization` too. Default `false`: those are never cached. */
  authorized?: boolean;
}

/** One answer as a store keeps it. */
export interface CacheEntry {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
  /** When it was stored, ms since the epoch. */
  storedAt: number;
}

/** Where answers are kept: in memory (`memoryCache()`, the default) or shared between processes. */
export interface CacheStore {
  get(key: string): Promise<CacheEntry | undefined>;
  /** Keeps `entry` for `ttl` ms, findable by the route `pattern` and by `tags`. */
  set(
    key: string,
    entry: CacheEntry,
    ttl: number,
    labels: { pattern: string; tags: readonly string[] },
  ): Promise<void>;
  /** Takes the right to refresh `key` for `ms` ms: `false` when another request (or process) has it. */
  lock(key: string, ms: number): Promise<boolean>;
  unlock(key: string): Promise<void>;
  /** Drops every answer of a route pattern (`/api/users/[id]`) or of a tag; resolves to how many. */
  invalidate(patternOrTag: string): Promise<number>;
  /** Ends what the store holds open (a connection); the mount's `close()` calls it once requests are done. */
  close?(): Promise<void>;
}

/** The `cache` mount option. */
export interface CacheOptions {
  /** Default: `memoryCache()`. */
  store?: CacheStore;
}
