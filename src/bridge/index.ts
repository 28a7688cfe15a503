/**
 * bridge: the endpoints' own Node I/O (req/res <-> Request/Response), and the pieces of it that
 * bridgeMiddleware (src/bridge-middleware) builds on. With it, the only code that knows Node's http
 * objects.
 */
export { createNodeMiddleware, type MountState, type NodeMiddleware } from './node-handler';
export { detachedNodeContext } from './detached-node-context';
export { failRequest, finalNext, refuse, sendAnswer, type NextFunction } from './write-answer';
export { BodyLimitError, ClientClosedError, DEFAULT_BODY_LIMIT } from './node-body';
export { hasRewrittenPath, originalTarget, requestUrl, targetPath } from './request-url';
export { mountPathOf, MountPaths, pathBelowMount, splitAtMountPath, type NotedMountPath } from './mount-path';
export { routingOf } from './host-routing';
export { toWebRequest } from './web-request';
export { pipeBody, sendWebResponse } from './send-response';
export type { ResponseWriter } from './response-writer';
export { frameKnownBody } from './body-length';
export { whenClientGone } from './client-gone';
export { sentAnswer } from './sent-answer';
