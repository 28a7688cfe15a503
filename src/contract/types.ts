/**
 * What a contract is, and the types a handler with one gets: the validated `params`,
 * `query`, `headers` and `body` on its context are typed from each schema's output
 * (`StandardSchemaV1.InferOutput`), so a transform's result is what the handler sees.
 */
import type { EventStream, EventStreamOptions } from '../event-stream';
import type {
  EndpointContext,
  EndpointContextInit,
  InvalidInputHandler,
  MultipartContract,
  Params,
} from '../types';
import type { StandardSchemaV1 } from './standard-schema';

/** The request parts a contract can check, in the order their issues are listed. */
export const INPUT_LOCATIONS = ['params', 'query', 'headers', 'body'] as const;
export type InputLocation = (typeof INPUT_LOCATIONS)[number];

/**
 * What an endpoint accepts and answers, each part a Standard Schema (Zod, Valibot, ArkType, …).
 * Every part is optional; a part without a schema is not read nor checked.
 */
export interface EndpointContract extends OperationDescription {
  /** The route's params (`[id]` folders), as strings: coercion is the schema's job. */
  params?: StandardSchemaV1;
  /** The query string as an object; a repeated key gives an array of its values. */
  query?: StandardSchemaV1;
  /** The request headers as an object with lower-case names. */
  headers?: StandardSchemaV1;
  /**
   * The body, read by its Content-Type: JSON parsed, a form (urlencoded or multipart) as an object
   * of its fields (files as `File`s), `text/*` as a string; no body is `undefined`.
   */
  body?: StandardSchemaV1;
  /**
   * The body is a `multipart/form-data` form (an upload): it is read as it arrives, under these
   * limits (`multipart()`'s, whose defaults `true` keeps), each file into a temporary file that its
   * `File` reads from, removed once the request is over. A body of another type is refused with 415;
   * the OpenAPI document describes a form, and the typed client sends one.
   */
  multipart?: true | MultipartContract;
  /**
   * The bodies the handler answers with, by status: `{ 201: User }`. Checked in development and
   * tests (see `checkResponses`), never in production by default.
   */
  responses?: { readonly [status: number]: StandardSchemaV1 };
  /** Answers a request this contract rejects, instead of the mount's `onInvalid` or the default 400. */
  onInvalid?: InvalidInputHandler;
  /**
   * The handler answers 200 with a `text/event-stream` whose every event's `data` is JSON this
   * schema describes (OpenAPI 3.2's `itemSchema`). The handler's `eventStream` sends it, typed by
   * the schema's input; each event sent is checked where responses are (see `checkResponses`).
   */
  events?: StandardSchemaV1;
}

/**
 * How the OpenAPI document describes the operation (OpenAPI 3.1 and 3.2, section 4.8.10, the
 * Operation Object); none of it changes what the handler does.
 */
export interface OperationDescription {
  /** A short summary of what the operation does. */
  summary?: string;
  /** A longer explanation; CommonMark. */
  description?: string;
  /** Tags that group operations in documentation tools. */
  tags?: string[];
  /** The operation is deprecated and should be avoided. */
  deprecated?: boolean;
  /** A name for the operation, unique in the document: clients generated from it use it as the function's name. */
  operationId?: string;
}

/** The contract fields that only describe the operation. */
export const DESCRIPTION_FIELDS = ['summary', 'description', 'tags', 'deprecated', 'operationId'] as const;

type Output<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : never;
type Input<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferInput<S> : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The validated parts a contract declares, each typed from its schema's output. */
type Validated<C extends EndpointContract> = {
  params: C extends { params: StandardSchemaV1 } ? Output<C['params']> : Params;
} & (C extends { query: StandardSchemaV1 } ? { query: Output<C['query']> } : unknown) &
  (C extends { headers: StandardSchemaV1 } ? { headers: Output<C['headers']> } : unknown) &
  (C extends { body: StandardSchemaV1 } ? { body: Output<C['body']> } : unknown) &
  (C extends { events: StandardSchemaV1 }
    ? { eventStream: ContractEventStream<Input<C['events']>> }
    : unknown);

/**
 * `context.eventStream(run, options)` of a handler whose contract declares `events`: `eventStream(request,
 * run, options)` with every event's data typed by the schema, sent as JSON, and checked.
 */
export type ContractEventStream<Data> = (
  run: (stream: EventStream<Data>) => unknown,
  options?: Omit<EventStreamOptions, 'json'>,
) => Response;

/**
 * The second argument of a handler with a contract: the usual context (`route`, `mountPath`,
 * `after`, `node`), with `params`, `query`, `headers` and `body` validated and typed. A part the
 * contract does not declare is absent, except `params`, which stays the route's own. With `events`,
 * `eventStream(run)` answers with an event stream of that data.
 */
export type ContractContext<C extends EndpointContract> = Simplify<
  Omit<EndpointContext, 'params'> & Validated<C>
>;

/** The handler `defineHandler` is given: it runs only for a request the contract accepts. */
export type ContractHandlerFunction<C extends EndpointContract> = (
  request: Request,
  context: ContractContext<C>,
) => Response | Promise<Response>;

/**
 * Where a handler keeps its contract: a key shared by every copy of the library in a process
 * (`Symbol.for`), so an endpoint file that imports the ES module build is still understood by an
 * app that required the CommonJS one.
 */
export const CONTRACT: unique symbol = Symbol.for('express-file-endpoints.contract');

/** What a handler made by `defineHandler` carries under `CONTRACT`. */
export interface ContractRecord<C extends EndpointContract = EndpointContract> {
  readonly contract: C;
  readonly handler: ContractHandlerFunction<C>;
}

/**
 * What `defineHandler` returns: a plain endpoint handler, exported as `GET`, `POST`, … and called
 * by every host, by `.fetch`, or directly in a unit test (`context` may then be left out or be
 * just `{ params }`). It validates, then runs the handler or answers the invalid request.
 */
export interface ContractHandler<C extends EndpointContract = EndpointContract> {
  (request: Request, context?: EndpointContextInit): Promise<Response>;
  readonly [CONTRACT]: ContractRecord<C>;
}

/** The contract of a handler made by `defineHandler` (for generated types: typed routes, clients). */
export type ContractOf<H> = H extends { readonly [CONTRACT]: ContractRecord<infer C> } ? C : never;

/**
 * The types a client of an endpoint deals with: what it sends for each part the contract declares
 * (each schema's input), what it gets back for each status the contract lists (its output), and the
 * data of each event of its event stream (the `events` schema's output).
 */
export type ContractTypes<C extends EndpointContract> = Simplify<
  {
    [K in InputLocation as C extends { [P in K]: StandardSchemaV1 } ? K : never]: Input<C[K]>;
  } & {
    responses: C extends { responses: infer R }
      ? { [S in keyof R as S extends number | `${number}` ? S : never]: Output<R[S]> }
      : unknown;
  } & (C extends { events: StandardSchemaV1 } ? { events: Output<C['events']> } : unknown)
>;
