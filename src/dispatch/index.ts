/**
 * dispatch: module exports + method -> the handler to run, or 405 / automatic OPTIONS / pass; the
 * route's middleware chain and handler, in Request/Response terms, and the one way every host
 * (the Node bridge, `.fetch`, a WebSocket upgrade) enters a route; the library's own answers; and
 * the whole table as `.fetch`; an endpoint's `websocket` hooks, checked; the stand-ins that answer
 * for a module that failed to load. No Node objects here.
 */
export { buildMethodTable, dispatch, methodsFor } from './method-table';
export type { MethodTable, HandlerEntry, Dispatch } from './method-table';
export {
  HTTP_METHODS,
  HANDLER_EXPORTS,
  WEBSOCKET_EXPORT,
  methodHasBody,
  isForbiddenMethod,
} from './http-methods';
export type { HttpMethod, HandlerExportName } from './http-methods';
export {
  answerFor,
  BAD_ORIGIN,
  BODY_TOO_DEEP,
  INTERNAL_ERROR,
  isNullBodyStatus,
  MALFORMED_PATH_ANSWER,
  METHOD_WITHOUT_REQUEST,
  REWRITTEN_PATH_ANSWER,
  NOT_FOUND,
  PAYLOAD_TOO_LARGE,
  PLAIN_TEXT,
  RequestRefusedError,
  RouteTimeoutError,
  answerForError,
  isClientError,
  SHUTTING_DOWN,
  type Answer,
} from './answers';
export { compileRoute, endpointRouter, LOADING, middlewareOptionNames } from './route';
export type { CompiledRoute, ExpressStyleRoute, MountedRoute, MountSettings, TopicAccess } from './route';
export {
  answeringModule,
  answeringRouter,
  failingModule,
  failingRouter,
  type StandInHandler,
} from './stand-ins';
export { EndpointCall, emptyLocals, whenRequestOver, type CallHost } from './endpoint-call';
export { Failure, type Outcome } from './run-route';
export {
  dispatchRequest,
  serveHandler,
  serveRoute,
  traceRoute,
  type HandlerHost,
  type OwnAnswer,
  type RouteHost,
  type Served,
} from './serve-route';
export { NextCalledTwiceError, NextGuard } from './run-chain';
export { handleFetch, type FetchSettings } from './handle-fetch';
export { closeTimeout, Lifecycle, ShutdownError, type CloseOptions, type InFlight } from './lifecycle';
export { bodyChunk, HEAD_CHUNKS, joinChunks, readAvailable, type Available } from './read-available';
export {
  etagModeOf,
  fetchEtagModeOf,
  formatEntityTag,
  isFresh,
  NOT_MODIFIED_DROPS,
  webEntityTag,
  type EtagMode,
} from './conditional';
export {
  BodyLimitError,
  ClientClosedError,
  DEFAULT_BODY_LIMIT,
  declaresMoreThan,
  isBodyLimitError,
  isClientClosedError,
} from './request-body';
export { socketHandlerOf, withUpgradeRequired } from './socket-handler';
export { logError, markTold, tellOnError } from './report-error';
export { defineMiddleware } from './define-middleware';
export { getContext } from './async-context';
export type { LocalsOf, MiddlewareContext, MiddlewareWithLocals } from './define-middleware';
export { admit, type Admission, type Admitted } from './admit';
export { byteSize, routeLimits, type RouteLimits } from './route-limits';
