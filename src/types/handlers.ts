/** What an endpoint file, a handler and a middleware look like to users. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PublishTopic, SubscribeTopics } from './topics';

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
