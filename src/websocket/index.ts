/**
 * websocket: the tree's WebSocket routes: `attach(server)`, which upgrades the requests
 * for the routes whose endpoint exports `websocket`, on `ws`, and serves their sockets.
 */
export { attachWebSockets, type AttachableServer, type SocketRegistry } from './attach';
export type { AttachOptions, SocketMount } from './tree-sockets';
export { loadWebSocketLibrary } from './ws-library';
