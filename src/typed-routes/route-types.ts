/**
 * Typed routes. `RouteRegistry` is empty here; the declaration file that
 * `express-file-endpoints typegen` (and development mode, on every change) writes fills it in by
 * module augmentation, one key per route pattern of the tree:
 *
 *   declare module 'express-file-endpoints' {
 *     interface RouteRegistry {
 *       '/api/users/[id]': { params: { id: string }; methods: EndpointMethods<typeof import('./app/api/users/[id]/endpoint.js')> };
 *     }
 *   }
 *
 * Then `RouteContext<'/api/user/[id]'>` (a typo) and `params.userId` in an `[id]` folder are type
 * errors, and `url()` accepts only patterns that exist, with their params. Without the file every
 * pattern is accepted and its params are read from the pattern itself (`ParamsOf`). `methods` is
 * what the typed client (`express-file-endpoints/client`) reads: per method, what the contract
 * says a client sends and gets back.
 */
import type { ContractOf, ContractTypes } from '../contract';
import type { EndpointContext, Locals, ParamsOf } from '../types';

/** Route patterns and their params; filled in by the generated declaration file. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augmented by generated code
export interface RouteRegistry {}

/** The tree's route patterns once the declaration file is generated; any string before. */
export type RoutePattern = [keyof RouteRegistry] extends [never]
  ? string
  : Extract<keyof RouteRegistry, string>;

/** The params of a route pattern. */
export type RouteParams<P extends RoutePattern> = P extends keyof RouteRegistry
  ? RouteRegistry[P] extends { params: infer Params }
    ? Params
    : never
  : ParamsOf<P>;

/**
 * The route patterns whose endpoint exports `websocket`, each mapped to `true`; filled
 * in by the generated declaration file.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augmented by generated code
export interface WebSocketRouteRegistry {}

/** The patterns that accept WebSockets once the declaration file is generated; any pattern before. */
export type WebSocketRoute = [keyof WebSocketRouteRegistry] extends [never]
  ? RoutePattern
  : Extract<keyof WebSocketRouteRegistry, string>;

/**
 * What a route's handlers find on `context.locals`: what every route has (`Locals`) and what the
 * `middleware.ts` of each folder above it declares it adds (`defineMiddleware<{ user: User }>`).
 */
export type RouteLocals<P extends RoutePattern> = Locals &
  (P extends keyof RouteRegistry ? (RouteRegistry[P] extends { locals: infer L } ? L : unknown) : unknown);

/**
 * The handler context of one route: `({ params, locals }: RouteContext<'/api/users/[id]'>)`.
 * `locals` is required where the route's middleware add something, so a unit test passes it
 * (`createTestContext({ locals })`); optional where there is nothing to read.
 */
export type RouteContext<P extends RoutePattern> = Omit<EndpointContext, 'params' | 'locals'> & {
  params: RouteParams<P>;
} & (Record<never, never> extends RouteLocals<P> ? { locals?: RouteLocals<P> } : { locals: RouteLocals<P> });

/** `url()`'s params argument: optional when the route has no required params. */
export type UrlParams<P extends RoutePattern> =
  Record<string, never> extends RouteParams<P> ? [params?: RouteParams<P>] : [params: RouteParams<P>];

/** The methods a handler export can serve; `ANY` and `default` serve the ones a client calls. */
type ExportedMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'QUERY' | 'OPTIONS';
type FallbackMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a client sends and gets back through one handler: its contract's types, or nothing known. */
export type HandlerTypes<H> = [ContractOf<H>] extends [never]
  ? Record<never, never>
  : ContractTypes<ContractOf<H>>;

/**
 * Each method an endpoint module serves, with its handler's types: `{ GET: { query: …; responses:
 * { 200: User } } }`. The generated declaration file writes `EndpointMethods<typeof import('…')>`.
 */
export type EndpointMethods<Module> = {
  [M in ExportedMethod & keyof Module]: HandlerTypes<Module[M]>;
} & (Module extends { ANY: infer Any }
  ? { [M in Exclude<FallbackMethod, keyof Module>]: HandlerTypes<Any> }
  : Module extends { default: infer Default }
    ? { [M in Exclude<FallbackMethod, keyof Module>]: HandlerTypes<Default> }
    : unknown);

/**
 * The topics an endpoint module declares (`export const topics`), as the generated declaration file
 * puts them in `TopicRegistry`: a pattern per key, with the data it carries. An object declares data
 * (`{ 'chat/[room]': {} as ChatMessage }`); an array of names (`['orders'] as const`) declares names only.
 */
export type TopicsOf<Module> = Module extends { topics: infer Declared }
  ? Declared extends readonly string[]
    ? { [Name in Declared[number]]: unknown }
    : Declared extends object
      ? { [Name in Extract<keyof Declared, string>]: Declared[Name] }
      : Record<never, never>
  : Record<never, never>;
