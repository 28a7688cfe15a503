/** The options of `mountEndpoints`, and a build's manifest. */
import type { CacheOptions } from './cache';
import type { InvalidInputHandler } from './contracts';
import type { DevOptions } from './dev';
import type { ErrorReporter } from './errors';
import type { NodeContext, WebMiddleware } from './handlers';
import type { ServeOpenAPIOptions } from './openapi';
import type { TopicsOptions } from './topics';

/** What the manifest module of a build exports by default (`express-file-endpoints build`). */
export interface EndpointsManifest {
  readonly kind: 'express-file-endpoints build';
  /** The version of the library that made the build: another version refuses it. */
  readonly version: string;
  /** Every endpoint and middleware module, in the order of the build's route table. */
  readonly modules: readonly unknown[];
}

/** Options of `mountEndpoints`. */
export interface MountOptions {
  /** Folder holding the endpoint tree; relative to `process.cwd()`, absolute, or a file URL. Default `'app'`. */
  dir?: string | URL;
  /**
   * The manifest module of a build (`express-file-endpoints build`), imported by the app: what lets a bundler put
   * the endpoints in the app's bundle. Takes the place of `dir` (a `dir` holding a build is found by itself).
   */
  manifest?: EndpointsManifest;
  /** Web middleware run, in order, around every endpoint of the tree. */
  middleware?: WebMiddleware[];
  /**
   * What a request's `context.locals` starts with, taken from what the app's Express middleware left on
   * the Node request: `({ req, res }) => ({ user: req.user, ...res.locals })`. Called once per request,
   * before the tree's middleware, so handlers need not reach for `context.node`; an async one is
   * awaited (`async ({ req }) => ({ user: await users.find(req.session.userId) })`), and what it throws
   * or rejects with is the request's error. Not called under `.fetch` and for WebSocket upgrades, which
   * have no Express request.
   */
  locals?: (node: NodeContext) => object | PromiseLike<object>;
  /**
   * Run each request's middleware and handler where `getContext()` finds its context, for code deep
   * in a call stack that was not handed one. It uses `AsyncLocalStorage`, which costs every request a
   * little; off by default, so a mount that does not use it pays nothing.
   */
  asyncContext?: boolean;
  /**
   * Match URLs case-sensitively. Whatever this says, a request that came through an Express app with
   * `case sensitive routing` (or a Router given to `mountEndpoints(router)` with `caseSensitive`) is
   * matched case-sensitively, so that a guard in front of the tree covers every path it serves.
   * Default: `false`, made stricter by the host.
   */
  caseSensitive?: boolean;
  /**
   * Treat `/a/` and `/a` as different URLs. As with `caseSensitive`, the host's `strict routing`
   * turns it on for the requests that come through it. Default: `false`, made stricter by the host.
   */
  strict?: boolean;
  /**
   * Largest request body in bytes a handler may read; larger bodies get 413. `false` disables it.
   * Default 1 MiB. An endpoint overrides it with `export const config = { bodyLimit }`. A body the
   * app's parser already read is held only to a limit stated here or by the endpoint, not to the default.
   */
  bodyLimit?: number | false;
  /**
   * Milliseconds a route has to answer, or `false` (the default) for no limit. An endpoint sets its own
   * with `export const timeout = 5_000`, and a folder's `middleware.ts` for every endpoint beneath; the
   * innermost wins. Past it, `request.signal` aborts with a `TimeoutError`, the client gets `503` through
   * the app's error handler (a streamed answer already started is cut), and `after()` still runs.
   */
  timeout?: number | false;
  /**
   * ETags for bodies the library sends whole (a string, bytes, `Response.json()`: not a stream), unless
   * the handler set one; and a 304, with no body, for a GET or HEAD whose `If-None-Match` or
   * `If-Modified-Since` says the client's copy is fresh. Default: in an Express app, what the app's
   * `etag` setting says (Express's weak ETag unless `app.set('etag', false)`), and 304s as `res.send`
   * gives them; on Connect, a bare node:http server and `.fetch`, off. `true` or `'weak'`: weak ETags
   * (`W/"…"`, the format of Express's); `'strong'`: strong ones; `false`: none.
   */
  etag?: boolean | 'weak' | 'strong';
  /**
   * What a request for a method the file does not serve gets. `'next'` (the default): it goes on to the
   * app, as Express's router leaves it, so the app's routes that still serve other methods on the same
   * path keep working, and the app's 404 answers the rest. `'405'`: a 405 with `Allow`, through the app's
   * error handler. A bare node:http server and `.fetch`, with no app behind the tree, answer 405 either way.
   */
  unservedMethods?: 'next' | '405';
  /**
   * Told about every error (never about a client that went away). The default logs it with
   * `console.error`, naming the file and the export, unless the host's error handler also gets it
   * (`passedToNext`), so Express apps do not log each error twice.
   */
  onError?: ErrorReporter;
  /**
   * Answers a request that an endpoint's contract rejects (`defineHandler`), instead of
   * the default `400` problem details. A contract's own `onInvalid` comes first.
   */
  onInvalid?: InvalidInputHandler;
  /**
   * Check what handlers with a contract return against its `responses` schemas, and tell `onError`
   * about a mismatch (a `ResponseContractError`); the response is sent unchanged. Default: on when
   * development mode is on or `NODE_ENV` is `development` or `test`, and for requests built by
   * `createTestRequest`; off otherwise, and always off when `NODE_ENV` is `production`.
   */
  checkResponses?: boolean;
  /**
   * Development mode: watch `dir` and serve changed endpoint code on the next request, with no
   * restart (see docs/development-mode.md). Default: on when `NODE_ENV=development`.
   */
  dev?: boolean | DevOptions;
  /**
   * Serve the tree's OpenAPI document as JSON at `path` below the mount, for GET and HEAD (see
   * docs/openapi.md). Its `servers` default to where the tree is mounted.
   */
  openapi?: ServeOpenAPIOptions;
  /**
   * Where the answers of routes that `export const cache` are kept server-side (docs/caching.md):
   * `{}` for memory, `{ store }` for another store. Without it, those routes only get Cache-Control.
   */
  cache?: CacheOptions;
  /**
   * Topics (`socket.subscribe`, `publish`, `subscribe`): the backplane that carries publications to
   * the mount's other processes, and how far a subscriber may fall behind (see docs/websockets.md).
   */
  topics?: TopicsOptions;
}
