import type { ClientEvent, EventsOptions } from './events';

/**
 * The typed client's types, read from a registry shaped like the generated `RouteRegistry`: per route
 * pattern, its `params` and its `methods`, each method with what its contract says a client sends
 * (`params`, `query`, `headers`, `body`: each schema's input) and gets back (`responses`, by status:
 * each schema's output). Structural only, so this entry point imports nothing from the library.
 */

/**
 * The registry the client is typed from: the generated `RouteRegistry`, or one written by hand. A
 * mapped type, not an index signature, so that an interface satisfies it.
 */
export type ClientRegistry<R> = { [P in keyof R]: { params: object; methods: object } };

/**
 * Headers and a body as `fetch` takes them. Spelled through `RequestInit`, which Node's types declare
 * too, so the typings need no DOM lib (`HeadersInit` and `BodyInit` are the DOM's names).
 */
export type HeadersLike = NonNullable<RequestInit['headers']>;
export type BodyLike = NonNullable<RequestInit['body']>;

/** The methods the client has a function for. */
export type ClientMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'QUERY' | 'OPTIONS';

/** `createClient()` without a registry: any pattern, any method, nothing known of inputs or answers. */
export type UntypedRegistry = {
  [pattern: string]: {
    params: { [name: string]: string | readonly string[] };
    methods: Record<ClientMethod, unknown>;
  };
};

/** The route patterns of `R` that serve `M`. */
export type PatternsFor<R extends ClientRegistry<R>, M extends ClientMethod> = {
  [P in keyof R]: M extends keyof R[P]['methods'] ? P : never;
}[keyof R] &
  string;

type MethodOf<
  R extends ClientRegistry<R>,
  P extends keyof R,
  M extends ClientMethod,
> = M extends keyof R[P]['methods'] ? R[P]['methods'][M] : never;

/** A query value as the URL carries it: a repeated key for an array. */
type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** A part the options must give when its type has a required field, and may leave out otherwise. */
type Part<K extends string, T> = Record<never, never> extends T ? { [_ in K]?: T } : { [_ in K]: T };

/** The second argument of a call: params, query, headers and body, each typed where the contract says. */
export type CallOptions<R extends ClientRegistry<R>, P extends keyof R, M extends ClientMethod> = Part<
  'params',
  R[P]['params']
> &
  (MethodOf<R, P, M> extends { query: infer Q } ? Part<'query', Q> : { query?: Record<string, QueryValue> }) &
  (MethodOf<R, P, M> extends { headers: infer H } ? Part<'headers', H> : { headers?: HeadersLike }) &
  (MethodOf<R, P, M> extends { body: infer B } ? { body: B } : { body?: BodyLike | object | null }) & {
    /** Anything else for `fetch`: `signal`, `credentials`, … */
    init?: Omit<RequestInit, 'method' | 'body' | 'headers'>;
  };

/** Whether a call must give options: only when something in them is required. */
export type CallArguments<R extends ClientRegistry<R>, P extends keyof R, M extends ClientMethod> =
  Record<never, never> extends CallOptions<R, P, M>
    ? [options?: CallOptions<R, P, M>]
    : [options: CallOptions<R, P, M>];

/** The status codes of the IANA HTTP Status Code Registry: literals, so that checking `status` narrows. */
export type StatusCode =
  | 100
  | 101
  | 102
  | 103
  | 200
  | 201
  | 202
  | 203
  | 204
  | 205
  | 206
  | 207
  | 208
  | 226
  | 300
  | 301
  | 302
  | 303
  | 304
  | 305
  | 307
  | 308
  | 400
  | 401
  | 402
  | 403
  | 404
  | 405
  | 406
  | 407
  | 408
  | 409
  | 410
  | 411
  | 412
  | 413
  | 414
  | 415
  | 416
  | 417
  | 418
  | 421
  | 422
  | 423
  | 424
  | 425
  | 426
  | 428
  | 429
  | 431
  | 451
  | 500
  | 501
  | 502
  | 503
  | 504
  | 505
  | 506
  | 507
  | 508
  | 510
  | 511;

/**
 * One answer: the status, whether it is 2xx, the body read as JSON (or as text, when it is not JSON
 * whatever its Content-Type says), and the `Response`.
 */
export interface ClientAnswer<Status, Data> {
  status: Status;
  ok: `${Status & number}` extends `2${string}` ? true : false;
  data: Data;
  response: Response;
}

type Answers<ByStatus> = { [S in keyof ByStatus]: ClientAnswer<S, ByStatus[S]> }[keyof ByStatus];

/**
 * What a call resolves to, whatever the status: for each status the contract lists, its `data` is
 * typed, so checking `status` (or `ok`) narrows it; every other status has `data: unknown`.
 */
export type ClientResult<R extends ClientRegistry<R>, P extends keyof R, M extends ClientMethod> =
  MethodOf<R, P, M> extends { responses: infer Listed }
    ? Answers<Listed & Record<Exclude<StatusCode, keyof Listed>, unknown>>
    : Answers<Record<StatusCode, unknown>>;

/**
 * The data of each event of a route's event stream: its contract's `events` output; text for a typed
 * route without; `unknown` without a registry (text, or JSON where the stream says `data=json`).
 */
export type EventDataOf<R extends ClientRegistry<R>, P extends keyof R> =
  MethodOf<R, P, 'GET'> extends { events: infer E }
    ? E
    : unknown extends MethodOf<R, P, 'GET'>
      ? unknown
      : string;

/** What `events()` takes: the GET's params, query and headers, and how to read and reconnect. */
export type EventsCallOptions<R extends ClientRegistry<R>, P extends keyof R> = Omit<
  CallOptions<R, P, 'GET'>,
  'body' | 'init'
> &
  EventsOptions & {
    /** Anything else for `fetch`: `credentials`, … */
    init?: Omit<RequestInit, 'method' | 'body' | 'headers' | 'signal'>;
  };

type EventsArguments<R extends ClientRegistry<R>, P extends keyof R> =
  Record<never, never> extends EventsCallOptions<R, P>
    ? [options?: EventsCallOptions<R, P>]
    : [options: EventsCallOptions<R, P>];

/** One function per method: `client.GET('/api/users/[id]', { params: { id } })`; and `events()`. */
export type Client<R extends ClientRegistry<R>> = {
  [M in ClientMethod]: <P extends PatternsFor<R, M>>(
    pattern: P,
    ...options: CallArguments<R, P, M>
  ) => Promise<ClientResult<R, P, M>>;
} & {
  /**
   * The route's event stream, as an async iterator of its events (`for await (const event of …)`),
   * typed by its contract's `events`. It reconnects with the last event id when the stream ends or
   * breaks, after a backoff, and ends on `signal`, on a 204, or when the loop breaks.
   */
  events<P extends PatternsFor<R, 'GET'>>(
    pattern: P,
    ...options: EventsArguments<R, P>
  ): AsyncGenerator<ClientEvent<EventDataOf<R, P>>, void, undefined>;
};
