/**
 * observe: what tracing tools see of a request the tree answers. The public
 * `node:diagnostics_channel` tracing channels, and the OpenTelemetry server span named by the
 * endpoint's route when an SDK runs; and the topics' publish, deliver and drop events. Below dispatch, which
 * publishes; knows no Node http objects.
 */
export { requestChannel, type MiddlewareTraceContext, type RequestTraceContext } from './channels';
export { requestObserved, traceRequest, RequestTrace } from './request-trace';
export { runMiddleware, settleMiddleware, traceMiddleware } from './middleware-trace';
export type { DeliverTraceContext, DropMessage, PublishTraceContext } from './channels';
export { traceDeliver, traceDrop, tracePublish } from './topic-trace';
