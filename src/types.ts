/**
 * Public types: what an endpoint file, a handler and a middleware look like to users, and the
 * options of `mountEndpoints` and of development mode. Handlers only need the global
 * `Request`/`Response`; these types are for those who want them. This file is the bottom floor of
 * the library: it imports nothing of it, so every folder can use its words.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Path parameters: `[id]` gives a string, `[...path]` / `[[...path]]` an array of strings. */
export type Params = Record<string, string | string[]>;

/**
 * Params derived from a route pattern, e.g. `ParamsOf<'/users/[id]/[[...rest]]'>` is
 * `{ id: string; rest?: string[] }`.
 */
export type ParamsOf<Pattern extends string> = string extends Pattern
  ? Params
  : Simplify<SegmentsParams<Pattern>>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type SegmentsParams<P extends string> = P extends `${infer Head}/${infer Tail}`
  ? SegmentParams<Head> & SegmentsParams<Tail>
  : SegmentParams<P>;
type SegmentParams<S extends string> = S extends `[[...${infer Name}]]`
  ? { [K in Name]?: string[] }
  : S extends `[...${infer Name}]`
    ? { [K in Name]: string[] }
    : S extends `[${infer Name}]`
      ? { [K in Name]: string }
      : unknown;

/**
 * What the Node host gave us, for handlers in a legacy app that need what earlier middleware
 * attached (`req.user` from passport, `res.locals`). Absent when called through `.fetch`.
 */
export interface NodeContext {
  req: IncomingMessage & Record<string, unknown>;
  res: ServerResponse & { locals?: Record<string, unknown> };
}

/**
 * What middleware hands the handlers behind it, on `context.locals`. Empty here: declare what every
 * route's locals hold (what the `middleware` option adds) by augmenting it,
 * `declare module 'express-file-endpoints' { interface Locals { requestId: string } }`; what a folder's
 * `middleware.ts` adds is typed per route by `typegen` (see `defineMiddleware`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augmented by users
export interface Locals {}

/**
 * Second argument of every handler. `mountEndpoints` always sets `locals`, `route`, `mountPath` and
 * `after` (on Node and under `.fetch`); all but `locals` are optional, so a unit test can call a
 * handler with `{ params, locals: {} }`.
 */
export interface EndpointContext<
  P extends Params | string = Params,
  // Untyped by default: any middleware may set any key. `RouteContext` and `defineMiddleware` type it.
  L extends object = Locals & Record<string, unknown>,
> {
  params: P extends string ? ParamsOf<P> : P;
  /**
   * One object per request that middleware fill and handlers read (`locals.user`), the same on every
   * host: the Node bridge, `.fetch`, other runtimes and WebSocket hooks. It starts empty, or with what
   * the mount's `locals` option takes from the Node request. Always set by the library, so a handler
   * reads it as it is (`const { config } = locals`); a unit test hands it in with
   * `createTestContext({ locals })`, or as `{ params, locals }`.
   */
  locals: L;
  /** The Node request/response behind this call; `undefined` under `.fetch()` and in unit tests. */
  node?: NodeContext;
  /** The route pattern that matched, as the folders spell it: `/api/users/[id]`. */
  route?: string;
  /**
   * Where the tree is mounted: `'/docs'` under `app.use('/docs', endpoints)`, `''` at the root and
   * under `.fetch()`. `${mountPath}/api/users/${id}` is a link to another endpoint of the tree.
   */
  mountPath?: string;
  /**
   * Runs `fn` once the response has been sent (or the client has left): audit logs, metrics, cache
   * warming. Under `.fetch()`, once the Response body has been read or cancelled. Errors, thrown or
   * rejected, go to `onError`.
   */
  after?: (fn: () => unknown) => void;
  /**
   * Sends `data` to every subscriber of `topic`: the sockets that called `socket.subscribe(topic)` and
   * the streams of `subscribe(topic)`, in this process and, through the mount's backplane, in every
   * other (see docs/websockets.md). Set by the library; optional so a unit test may leave it out.
   */
  publish?: PublishTopic;
  /**
   * The messages published to `topics` from now on, as an async iterator, ended (and unsubscribed) when
   * the client leaves: a streamed response's source (`toEventStream()` writes server-sent events).
   */
  subscribe?: SubscribeTopics;
}

/**
 * A context as a caller hands it in: `locals` may be left out (a unit test calling a handler made by
 * `defineHandler` with `{ params }`), and the handler then reads an empty object.
 */
export type EndpointContextInit<
  P extends Params | string = Params,
  L extends object = Locals & Record<string, unknown>,
> = Omit<EndpointContext<P, L>, 'locals'> & { locals?: L };

/**
 * An exported `GET`/`POST`/…/`ANY`/default handler, as callers see it: a unit test calls one with just
 * `{ params }`, and the handler then reads `locals` as possibly absent. A handler declared with an
 * `EndpointContext` parameter reads them as always there, as the library always sets them.
 */
export type EndpointHandler<P extends Params | string = Params> = (
  req: Request,
  context: EndpointContextInit<P>,
) => Response | Promise<Response>;

/**
 * A Web-standard middleware: answer on its own, or call `next()` and return (or change) its Response.
 * The third argument is the context handlers get: in the tree, the route's `params`, `route` and
 * `mountPath`, and on Node `node` (`{ req, res }`), so a guard can read `req.session` or passport's
 * `req.user`; through `bridgeMiddleware`, `node` and empty `params`.
 */
export type WebMiddleware = (
  req: Request,
  next: () => Promise<Response>,
  /** Always given by the library; optional so a unit test can call a middleware with two arguments. */
  context?: EndpointContext,
) => Response | Promise<Response>;

/** What `onError` is told about an error, beside the error itself. */
export interface EndpointErrorInfo {
  /**
   * The request being served. Absent for an error outside any request: a module that failed to load
   * (reported once, at startup; the routes it serves then answer with the error).
   */
  request?: Request;
  /** The route pattern, e.g. `/api/users/[id]`. */
  route: string;
  /** The endpoint file, relative to the working directory. */
  file: string;
  /**
   * What failed: the handler's export (`GET`, `ANY`, `default`), or the middleware (its file, or
   * `middleware option #1 (name)`) when a middleware threw; `''` when the whole module failed to load.
   */
  export: string;
  /**
   * The error also goes to the host's error handler through `next(err)` (Express, Connect, any
   * chain that passes `next`). `false` on a bare node:http server, under `.fetch()`, for `after()`
   * callbacks, and once the response has started (the connection is broken instead).
   */
  passedToNext: boolean;
  /**
   * For an error of the topics machinery (`export` is `topics.connect`, `topics.publish`,
   * `topics.subscribe` or `topics.receive`, and `file` names the backplane): the topic, when one is involved.
   */
  topic?: string;
}

/** Called for every error a handler, a middleware, an `after()` callback or the bridge runs into. */
export type ErrorReporter = (error: unknown, info: EndpointErrorInfo) => void;

/**
 * Where a request value that a contract checks comes from; `response` is a handler's answer, `event`
 * the data of an event it sent on an event stream.
 */
export type ContractLocation = 'params' | 'query' | 'headers' | 'body' | 'response' | 'event';

/** What a handler's contract checks, as the route table shows it. */
export interface ContractSummary {
  /** The request parts it validates, in the order their issues are listed. */
  validates: Exclude<ContractLocation, 'response' | 'event'>[];
  /** The statuses its `responses` give a schema for. */
  responses: number[];
}

/** One thing a contract found wrong with a request (or, for `response` and `event`, with a handler's answer). */
export interface ContractIssue {
  /** Which part of the request: the route's `params`, the `query`, the `headers` or the `body`. */
  location: ContractLocation;
  /** Where, for people: `body.email`, `query.page`, `body.items[0].name`, `headers["x-api-key"]`. */
  path: string;
  /** Where, for programs: an RFC 6901 JSON Pointer into the location's value (`/items/0/name`; `''` for all of it). */
  pointer: string;
  /** What is wrong, in the validator's words. */
  message: string;
}

/**
 * Answers a request a contract rejects: `issues` lists the problems found, the first 100 of them;
 * `omittedIssues` counts the rest (a large body can have one per item).
 */
export type InvalidInputHandler = (
  issues: ContractIssue[],
  request: Request,
  info: { omittedIssues: number },
) => Response | Promise<Response>;

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
   * Topics (`socket.subscribe`, `publish`, `subscribe`): the backplane that carries publications to
   * the mount's other processes, and how far a subscriber may fall behind (see docs/websockets.md).
   */
  topics?: TopicsOptions;
}

/** `mountEndpoints({ dev: { … } })`: development mode with settings. */
export interface DevOptions {
  /** Milliseconds to wait after the last file event before reloading (editors write in bursts). Default 30. */
  debounce?: number;
  /**
   * Where the typed-routes declaration is written on every change, or `false` to write none.
   * Default: `express-file-endpoints-env.d.ts` beside `dir` (in its parent folder) when that file
   * exists (`typegen` wrote it), else `node_modules/.cache/express-file-endpoints/env.d.ts` in the
   * project, so nothing is written among the app's sources unasked.
   */
  types?: string | false;
  /** Where reloads and problems are reported. Default `console`. */
  logger?: DevLogger;
  /** Called after every reload (and the first load), once the new route table is in use. */
  onReload?: (reload: DevReload) => void;
}

export interface DevLogger {
  info(message: string): void;
  error(message: string): void;
}

/** One thing wrong with the tree as the development error page shows it. */
export interface DevProblem {
  /** What kind of problem: `syntax-error`, `load-error`, `duplicate-route`, … */
  code: string;
  message: string;
  /** Files involved, relative to the working directory. */
  files: string[];
  /** `file:line:column` of the error, when known. */
  location?: string;
}

/** What `onReload` is told after each build of the tree. */
export interface DevReload {
  /** Empty when the whole tree serves its current code. */
  problems: DevProblem[];
  /** Modules loaded afresh (changed, or importing a changed one), relative to the working directory. */
  reloaded: string[];
}

/**
 * An endpoint's `export const websocket = { … }`: the hooks of a WebSocket served on the
 * endpoint's route, in the shape Bun and crossws (Nitro, h3) use. Every hook is optional. The same
 * `context` object goes to every hook of one connection, from `upgrade` to `close`.
 */
export interface WebSocketHandler<P extends Params | string = Params> {
  /**
   * Runs on the upgrade request, after the tree's and the folders' middleware. Return nothing (or `true`)
   * to accept; return (or throw) a `Response`, e.g. `new Response(null, { status: 401 })`, or `false`
   * (a `403`) to refuse. Any other value is an error, answered `500`.
   */
  upgrade?: (
    request: Request,
    context: WebSocketContext<P>,
  ) => void | boolean | Response | Promise<void | boolean | Response>;
  open?: (socket: EndpointWebSocket, context: WebSocketContext<P>) => unknown;
  /** A text frame arrives as a string, a binary frame as a `Uint8Array` (a Node `Buffer`). */
  message?: (
    socket: EndpointWebSocket,
    message: string | Uint8Array,
    context: WebSocketContext<P>,
  ) => unknown;
  close?: (
    socket: EndpointWebSocket,
    details: WebSocketCloseDetails,
    context: WebSocketContext<P>,
  ) => unknown;
  /** A protocol error (a message over the size limit, a malformed frame); the socket closes after it. */
  error?: (socket: EndpointWebSocket, error: Error, context: WebSocketContext<P>) => unknown;
  /** What `send()` queued has been written out: `send()` returned `false`, and may be called again. */
  drain?: (socket: EndpointWebSocket, context: WebSocketContext<P>) => unknown;
}

/** What WebSocket hooks get beside the socket: the route's params and the upgrade request. */
export interface WebSocketContext<P extends Params | string = Params> {
  params: P extends string ? ParamsOf<P> : P;
  /** The upgrade request: its URL, headers and cookies. */
  request: Request;
  /** The route pattern that matched: `/chat/[room]`. */
  route: string;
  /**
   * Where the tree is mounted: as given to `attach(server, { mountPath })`, or else the mount path
   * the socket's path is under among those the tree's middleware was reached at; `''` at the root.
   */
  mountPath: string;
  /**
   * What the tree's and the folders' middleware put on `context.locals` while the upgrade went through
   * them (the user a guard found), the same object for every hook of the connection.
   */
  locals: Record<string, unknown>;
}

/** The server's end of one WebSocket connection. */
export interface EndpointWebSocket {
  /**
   * Queues a message: a string is sent as text, bytes as binary. Returns `false` when more is
   * queued than the socket's buffer holds: wait for the handler's `drain` hook before sending more.
   */
  send(data: string | ArrayBuffer | ArrayBufferView): boolean;
  /** Starts the closing handshake; `code` 1000 by default. */
  close(code?: number, reason?: string): void;
  /** 0 connecting, 1 open, 2 closing, 3 closed (the `WebSocket` constants). */
  readonly readyState: number;
  /** Bytes queued and not yet written to the network. */
  readonly bufferedAmount: number;
  /** The subprotocol agreed on, `''` when none. */
  readonly protocol: string;
  /**
   * From now on, this socket gets every message published to `topic`, here or in another process
   * of the mount, until it unsubscribes or closes (it is unsubscribed from every topic then).
   */
  subscribe(topic: Topic): void;
  unsubscribe(topic: Topic): void;
  isSubscribed(topic: Topic): boolean;
  /** Sends `data` to every subscriber of `topic` but this socket, in every process. */
  publish<T extends Topic>(topic: T, data: TopicDataOf<T>): void;
  /** The topics this socket is subscribed to. */
  readonly subscriptions: string[];
}

export interface WebSocketCloseDetails {
  /** The close code: 1000 normal, 1001 going away, 1005 none given, 1006 the connection dropped. */
  code: number;
  reason: string;
}

/** The OpenAPI versions the document can be written in. */
export type OpenAPIVersion = '3.1' | '3.2';

/** The Info Object (OpenAPI section 4.8.2): `title` and `version` are required by the spec. */
export interface OpenAPIInfo {
  title: string;
  version: string;
  summary?: string;
  description?: string;
  [field: string]: unknown;
}

/** The Server Object (OpenAPI section 4.8.5): a URL, absolute or relative to where the document is served. */
export interface OpenAPIServer {
  url: string;
  description?: string;
  [field: string]: unknown;
}

/** `middleware.openapi(options)`, the `openapi` mount option and the CLI's settings. */
export interface OpenAPIOptions {
  /** `3.1` (the default) or `3.2`. */
  version?: OpenAPIVersion;
  /** The document's `info`. Default: `{ title: 'API', version: '1.0.0' }`. */
  info?: OpenAPIInfo;
  /**
   * The document's `servers`. Default: none from `.openapi()`, which means `/` (section 4.8.1); the
   * path the tree is mounted at when the mount serves the document.
   */
  servers?: OpenAPIServer[];
  /** Told about each schema that cannot be described (the operation gets an open schema). Default `console.warn`. */
  onWarning?: (message: string) => void;
}

/** The `openapi` mount option: serve the document at `path`, below where the tree is mounted. */
export interface ServeOpenAPIOptions extends OpenAPIOptions {
  /** Where the document is served, below the mount: `/openapi.json`. */
  path: string;
}

/**
 * The topics the tree declares (`export const topics = …` in an endpoint), one entry per endpoint
 * that declares some, each mapping topic patterns to the data they carry; filled in by the declaration
 * file `typegen` writes. Empty, every string is a topic and any data goes.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augmented by generated code
export interface TopicRegistry {}

type DeclaredTopics = TopicRegistry[keyof TopicRegistry];
type NoTopicsDeclared = [keyof TopicRegistry] extends [never] ? true : false;

/** The topic names a pattern stands for: `chat/[room]` is any `chat/${string}`. */
export type TopicNameOf<Pattern extends string> = Pattern extends `${infer Head}[${string}]${infer Tail}`
  ? `${Head}${string}${TopicNameOf<Tail>}`
  : Pattern;

/** A topic name: any string, or once `typegen` has run, one the tree declares. */
export type Topic = NoTopicsDeclared extends true
  ? string
  : DeclaredTopics extends infer D
    ? D extends unknown
      ? TopicNameOf<Extract<keyof D, string>>
      : never
    : never;

/** What `publish(topic, data)` takes for `topic`: anything, unless the tree declares its type. */
export type TopicDataOf<T extends string> = NoTopicsDeclared extends true
  ? unknown
  : DeclaredTopics extends infer D
    ? D extends unknown
      ? { [P in Extract<keyof D, string>]: T extends TopicNameOf<P> ? D[P] : never }[Extract<keyof D, string>]
      : never
    : never;

/**
 * Publishes to a topic. A string is sent as text and bytes (`ArrayBuffer`, a typed array, a `Buffer`)
 * as binary; anything else is sent as its JSON text.
 */
export type PublishTopic = <T extends Topic>(topic: T, data: TopicDataOf<T>) => void;

/** Subscribes a stream to one topic or several. */
export type SubscribeTopics = <T extends Topic>(
  topics: T | readonly T[],
  options?: TopicSubscribeOptions,
) => TopicSubscription<T>;

export interface TopicSubscribeOptions {
  /** Ends the subscription when aborted. A handler's `subscribe` ends with its request already. */
  signal?: AbortSignal;
}

/** One publication, as a stream subscriber gets it. */
export interface TopicMessage<T extends string = string> {
  /** The topic it was published to. */
  readonly topic: T;
  /** Text as a string, bytes as a `Uint8Array`, anything else as its JSON text. */
  readonly data: string | Uint8Array;
  /** `data` parsed as JSON (bytes are read as UTF-8 first). */
  json(): TopicDataOf<T>;
}

/**
 * The messages published to some topics since the subscription began, in the order each process
 * published them. It ends when the client leaves, the signal aborts, `unsubscribe()` is called, the
 * mount closes, or it falls more than `backpressureLimit` bytes behind (then the next read throws).
 */
export interface TopicSubscription<T extends string = string> extends AsyncIterableIterator<TopicMessage<T>> {
  readonly topics: readonly T[];
  /** Ends it now: nothing more is queued, and iteration ends once what is queued is read. */
  unsubscribe(): void;
  /**
   * The messages as server-sent events (`event: <topic>`, `data: <data>`), after a first comment
   * (`: subscribed`) that starts the response at once, for
   * `new Response(subscription.toEventStream(), { headers: { 'content-type': 'text/event-stream' } })`.
   * Cancelling the stream (the client left) ends the subscription. While no message comes, a comment
   * line is sent every `heartbeat` milliseconds, so proxies do not cut the idle stream; when the mount
   * closes, the stream ends with a final event after what was already published, as `eventStream`'s do.
   */
  toEventStream(options?: TopicEventStreamOptions): ReadableStream<Uint8Array>;
}

/** `subscription.toEventStream(options)`. */
export interface TopicEventStreamOptions {
  /** Milliseconds of silence after which a comment line is sent; `false`: never. Default 15,000. */
  heartbeat?: number | false;
  /**
   * The last event when the mount closes (`endpoints.close()`), before clients reconnect elsewhere;
   * `false`: none. Default `{ event: 'shutdown', data: '' }`.
   */
  shutdownEvent?: { event?: string; data: string; id?: string } | false;
}

/** The `topics` mount option. */
export interface TopicsOptions {
  /**
   * What carries publications between the processes that mount the same tree: `redisBackplane()`,
   * `clusterBackplane()`, `broadcastChannelBackplane()`, or your own. Default: none, every
   * publication stays in this process.
   */
  backplane?: Backplane;
  /**
   * Bytes a subscriber may have waiting (a socket's `bufferedAmount`, a stream's unread messages)
   * before the next publication closes it (a socket with 1013, Try Again Later) rather than holding
   * more for it. Default 1 MiB.
   */
  backpressureLimit?: number;
}

/** One publication as backplanes carry it. */
export interface BackplaneMessage {
  readonly topic: string;
  /** Text, or bytes. */
  readonly data: string | Uint8Array;
  /** The publishing mount's id: a backplane that hears its own publications back hands them on, the mount drops them. */
  readonly origin: string;
}

/** What a mount gives its backplane to report to. */
export interface BackplaneLink {
  /** The mount's id, unique per process and mount: what `origin` is for its own publications. */
  readonly origin: string;
  /** A publication from another process (one of this mount's own is ignored). */
  receive(message: BackplaneMessage): void;
  /** The connection to the broker is up (again) or down; `error` says why it went down. */
  status(state: 'up' | 'down', error?: unknown): void;
  /**
   * Something failed. A failed `publish` is a publication the other processes will not get: it is
   * counted, and told to `onError` unless the backplane already said it is down.
   */
  failed(stage: 'connect' | 'publish' | 'subscribe' | 'receive', error: unknown, topic?: string): void;
}

/**
 * Carries publications between the processes of an app. A mount calls `start` once, then
 * `subscribe` when its first subscriber of a topic arrives and `unsubscribe` when the last one
 * leaves, and `publish` for each of its publications. None of them may throw or reject: failures go
 * to the link. Messages one process publishes must reach each other process once, in that order.
 */
export interface Backplane {
  /** For messages: `redis`, `cluster`. */
  readonly name: string;
  start(link: BackplaneLink): void;
  subscribe(topic: string): void;
  unsubscribe(topic: string): void;
  publish(message: BackplaneMessage): void;
  /** Disconnects; resolves once done. */
  close(): Promise<void>;
}

/** `endpoints.topicStats()`: what the topics of a mount did since it started. */
export interface TopicStats {
  /** Publications made in this process. */
  published: number;
  /** Publications from other processes that reached this one. */
  received: number;
  /** Messages handed to this process's subscribers (one per subscriber reached). */
  delivered: number;
  /** Subscribers closed for falling `backpressureLimit` bytes behind. */
  slowSubscribers: number;
  /** Publications of this process that the backplane could not carry to the others. */
  lost: number;
  /** The backplane's name and whether it is connected now; `undefined` without one. */
  backplane: { name: string; up: boolean } | undefined;
}
