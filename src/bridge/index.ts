/** bridge: the only code that knows Node's http objects (req/res <-> Request/Response). */
export { createNodeMiddleware, type MountState } from './node-handler';
export { detachedNodeContext } from './detached-node-context';
export { finalNext, type NextFunction } from './plain-answers';
export { BodyLimitError, ClientClosedError, DEFAULT_BODY_LIMIT } from './request-body';
export { bridgeMiddleware, type BridgeOptions, type NodeMiddleware } from './bridge-middleware';
