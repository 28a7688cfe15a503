/**
 * dispatch: one request through a route, for every front (the Node bridge, `.fetch`, a WebSocket
 * upgrade): the checks before a route runs (admit.ts), the one way in (serveRoute), the endpoint's
 * call, the middleware chain and handler in Request/Response terms, the library's own answers and
 * error reports, the body and ETag rules, requests in flight and `close()`, and the stand-ins that
 * answer for a module that failed to load. What a route is lives in src/route. No Node objects here.
 */
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
  answerResponse,
  isClientError,
  SHUTTING_DOWN,
  type Answer,
} from './answers';
export { endpointRouter } from './route-table';
export {
  answeringModule,
  answeringRouter,
  failingModule,
  failingRouter,
  type StandInHandler,
} from './stand-ins';
export {
  EndpointCall,
  emptyLocals,
  renewRequest,
  requestFor,
  requestIfBuilt,
  whenRequestOver,
  isServedRequest,
  type CallFront,
} from './endpoint-call';
export { Failure, type Outcome } from './run-route';
export {
  dispatchRequest,
  serveHandler,
  serveRoute,
  traceRoute,
  type HandlerFront,
  type OwnAnswer,
  type RouteFront,
  type Served,
} from './serve-route';
export { NextCalledTwiceError, NextGuard, WITHOUT_REQUEST } from './run-chain';
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
} from './entity-tags';
export {
  BodyLimitError,
  ClientClosedError,
  DEFAULT_BODY_LIMIT,
  countedBody,
  declaresMoreThan,
  isBodyLimitError,
  isClientClosedError,
} from './body-rules';
export { socketHandlerOf, withUpgradeRequired } from './socket-handler';
export { logError, markTold, tellOnError } from './report-error';
export { defineMiddleware } from './define-middleware';
export { getContext } from './async-context';
export type { LocalsOf, MiddlewareContext, MiddlewareWithLocals } from './define-middleware';
export {
  admit,
  admitMatch,
  UPGRADE,
  type Admission,
  type Admitted,
  type AdmittedUpgrade,
  type SocketRoute,
} from './admit';
export { byteSize, routeLimits, type RouteLimits } from './route-limits';
