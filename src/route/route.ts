/** A route ready to serve: what the router's values are, and how one is put together. */
import type { RouteFile } from '../discover';
import type {
  ErrorReporter,
  MountOptions,
  PublishTopic,
  TopicSubscribeOptions,
  TopicSubscription,
  WebMiddleware,
  WebSocketHandler,
} from '../types';
import { expressPath } from './express-path';
import { HTTP_METHODS } from '../http-methods';
import type { MethodTable } from './method-table';

/**
 * A mount's options with what every part of it reads resolved once, by the mount: `onError`'s
 * default, the `middleware` option's and `asyncContext`'s. The routes it builds, the stand-ins for
 * broken code and development mode read these.
 */
export interface MountSettings extends MountOptions {
  onError: ErrorReporter;
  /** The `middleware` option, `[]` without it. */
  middleware: WebMiddleware[];
  asyncContext: boolean;
  /** The routes the library serves in the tree's table (the OpenAPI document's), `[]` for none. */
  generated: readonly GeneratedRoute[];
}

/**
 * A route that no file declares, served from the tree's own table: so it runs inside the middleware
 * of the folders on its path, is traced, is refused while closing and is waited for by `close()`,
 * as every endpoint is. The OpenAPI document is one.
 */
export interface GeneratedRoute {
  /** What the table knows it by: the path as its pattern and folders, named in messages by `displayPath`. */
  readonly file: RouteFile;
  /** Its exports, as an endpoint module's: asked for each time the tree loads (each reload in development mode). */
  exports(): Record<string, unknown>;
}

/**
 * A generated route at `path` below the mount. Its folders are the path's segments, so the
 * `middleware` files of those folders wrap it as they wrap an endpoint there.
 */
export function generatedRoute(
  path: string,
  displayPath: string,
  exports: () => Record<string, unknown>,
): GeneratedRoute {
  const folders = path.split('/').slice(1).filter(Boolean).map(decodedFolder);
  const segments = folders.map((value) => ({ kind: 'static' as const, value }));
  const file: RouteFile = {
    kind: 'endpoint',
    file: displayPath,
    displayPath,
    folders,
    parsedFolders: segments,
    segments,
    pattern: `/${folders.join('/')}`,
  };
  return { file, exports };
}

/**
 * Where a page of generated routes lives (`openapi.ui`, `dev.inspector`): `value` checked to be a path below the
 * mount, its trailing slash dropped. `option` and `example` name it in the error.
 */
export function pagePath(value: unknown, option: string, example: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value === '/') {
    throw new TypeError(
      `${option} must be a path below the mount such as "${example}", not ${JSON.stringify(value)}`,
    );
  }
  return value.endsWith('/') ? value.slice(0, -1) : value;
}

/** A segment of a generated route's path as a folder's name: decoded; kept as written if it is not valid percent-encoding. */
function decodedFolder(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

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
  /** Largest body in bytes a handler may read from the request stream, or `false`. */
  bodyLimit: number | false;
  /**
   * The limit for a body the app's own parser already read (under the parser's limit): only one the
   * app stated (the endpoint's `config.bodyLimit`, the mount's `bodyLimit`), else `false`. The
   * default limit keeps unread bodies out of memory; that body is already in memory.
   */
  parsedBodyLimit: number | false;
  /** Milliseconds the route has to answer (docs/bodies-and-limits.md), or `false`. */
  timeout: number | false;
  /** Built once per route, shared by every request. */
  expressRoute: ExpressStyleRoute;
  /** The mount's `onError` (or the default). */
  onError: ErrorReporter;
  /** The mount's `locals` option: what a request's locals start with, from the Node request. */
  localsFromNode?: MountOptions['locals'];
  /**
   * The `locals` option is an async function: taken before the route runs and awaited. A plain one is
   * taken on first read, so a request that never reads locals never calls it.
   */
  localsFirst: boolean;
  /** The mount's `asyncContext`: its requests run where `getContext()` finds them. */
  asyncContext?: boolean;
  /** The endpoint's `websocket` hooks, when it serves WebSockets. */
  socket?: WebSocketHandler;
  /** The mount's topics, for `context.publish` and `context.subscribe`. */
  topics?: TopicAccess;
}

/** What a handler's context reaches of the mount's topics (src/topics is a floor up; the mount wires it). */
export interface TopicAccess {
  readonly publish: PublishTopic;
  /** A stream's subscription, ended when `signal` (the request's) aborts. */
  subscribe(
    topics: string | readonly string[],
    options: TopicSubscribeOptions | undefined,
    signal: AbortSignal,
  ): TopicSubscription;
}

/**
 * The route table's value for an endpoint whose module is still loading: the table is known from
 * the tree at once, so a request no endpoint matches goes on to the app without waiting.
 */
export const LOADING: unique symbol = Symbol('express-file-endpoints.loading');

/** What the route table of a mount leads to: a route ready to serve, or one still loading. */
export type MountedRoute = CompiledRoute | typeof LOADING;

/** How errors name the `middleware` option's functions: `middleware option #1 (requireAuth)`. */
export function middlewareOptionNames(middleware: readonly WebMiddleware[]): string[] {
  return middleware.map((mw, i) => `middleware option #${i + 1}${mw.name ? ` (${mw.name})` : ''}`);
}

/** What a route is made of beside its file and its method table. */
export interface RouteParts {
  middleware: WebMiddleware[];
  middlewareNames: string[];
  bodyLimit: number | false;
  /** See `CompiledRoute`; default `false`. */
  parsedBodyLimit?: number | false;
  /** See `CompiledRoute`; default `false`. */
  timeout?: number | false;
  onError: ErrorReporter;
  localsFromNode?: MountOptions['locals'];
  asyncContext?: boolean;
  socket?: WebSocketHandler;
  topics?: TopicAccess;
}

/**
 * The one place a route is put together: for a mount's loaded modules, and for the stand-ins that
 * answer for broken code (development mode's error page, a module that failed to load).
 */
export function compileRoute(file: RouteFile, table: MethodTable, parts: RouteParts): CompiledRoute {
  return {
    pattern: file.pattern,
    displayPath: file.displayPath,
    table,
    ...parts,
    parsedBodyLimit: parts.parsedBodyLimit ?? false,
    timeout: parts.timeout ?? false,
    localsFirst: isAsyncFunction(parts.localsFromNode),
    expressRoute: expressRouteOf(file, table),
  };
}

// Compiled to an older target, an async function is a plain one returning a promise: taken on first
// read then, it is refused with a message that names the fix.
function isAsyncFunction(fn: unknown): boolean {
  return typeof fn === 'function' && fn.constructor.name === 'AsyncFunction';
}

/** `req.route` for this endpoint, in the shape Express gives its own routes. */
function expressRouteOf(file: RouteFile, table: MethodTable): ExpressStyleRoute {
  const methods: Record<string, boolean> = {};
  if (table.fallback) methods._all = true;
  for (const method of HTTP_METHODS) if (table.byMethod[method]) methods[method.toLowerCase()] = true;
  return Object.freeze({
    path: expressPath(file.segments),
    stack: Object.freeze([]),
    methods: Object.freeze(methods),
  });
}
