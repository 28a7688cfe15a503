/**
 * observe: what tracing tools see of a request the tree answers (issue 27): the public
 * `node:diagnostics_channel` tracing channels. Below dispatch, which publishes; knows no Node http
 * objects.
 */
export {
  MIDDLEWARE_CHANNEL,
  REQUEST_CHANNEL,
  type MiddlewareTraceContext,
  type RequestTraceContext,
} from './channels';
export { requestObserved, traceRequest, RequestTrace, type TracedRoute } from './request-trace';
export { runMiddleware, settleMiddleware, traceMiddleware } from './middleware-trace';
