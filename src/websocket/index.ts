/**
 * websocket: the tree's WebSocket routes (issue 28): an endpoint's `websocket` hooks, checked when
 * its module loads, and `attach(server)`, which upgrades the requests for those routes, on `ws`.
 */
export {
  attachWebSockets,
  type AttachableServer,
  type AttachOptions,
  type SocketMount,
  type SocketRegistry,
} from './attach';
export { socketHandlerOf } from './socket-handler';
export { loadWebSocketLibrary } from './ws-library';
