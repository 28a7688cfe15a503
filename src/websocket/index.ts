/**
 * websocket: the tree's WebSocket routes (issue 28): `attach(server)`, which upgrades the requests
 * for the routes whose endpoint exports `websocket`, on `ws`, and serves their sockets.
 */
export {
  attachWebSockets,
  type AttachableServer,
  type AttachOptions,
  type SocketMount,
  type SocketRegistry,
} from './attach';
export { loadWebSocketLibrary } from './ws-library';
