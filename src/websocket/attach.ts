/**
 * `middleware.attach(server)`: serves trees' WebSocket routes on a Node server.
 *
 * Only upgrade requests for a route that declares `websocket` are taken; every other one is left,
 * untouched, to the app's own `upgrade` listeners (a `ws` or socket.io server, a proxy), or, when
 * the app has none, to its request handler as a plain request. The trees listen for `upgrade`
 * beside the app, and tell Node which requests are upgrades through the server's
 * `shouldUpgradeCallback` where Node has it (24.9+ and 22.21+). Two things cannot be done by
 * listening, and are done by taking the server's method over: keeping the requests a tree takes
 * from the app's own `upgrade` listeners (only once the app has one), and hearing `server.close()`
 * while sockets are open. The app's listeners are never removed or wrapped. The server is prepared
 * once, however many trees are attached to it.
 */
import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Server as HttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { treeSockets, type AttachOptions, type SocketMount, type TreeSockets } from './tree-sockets';

/**
 * The Node server `attach` serves WebSockets on: what `http.createServer()`, `https.createServer()`
 * and `app.listen()` return.
 */
export type AttachableServer = Server | HttpsServer;

/** The mount's side of an attached server: closes every socket the tree serves on it. */
export interface SocketRegistry {
  /** Closes them with 1001 (going away); resolves once each has closed, or been cut after `closeTimeout`. */
  closeAll(): Promise<void>;
}

/** The trees attached to each server, in the order they were attached. */
const attached = new WeakMap<Server, TreeSockets[]>();

/** Attaches a tree's WebSocket routes to `server`; returns what closes their sockets. */
export function attachWebSockets(
  to: AttachableServer,
  mount: SocketMount,
  options: AttachOptions = {},
): SocketRegistry {
  // An HTTPS server upgrades as an HTTP one does: the same events, the same `shouldUpgradeCallback`.
  const server = to as Server;
  let trees = attached.get(server);
  if (!trees) {
    trees = [];
    attached.set(server, trees);
    takeTreeUpgrades(server, trees);
  }
  const tree = treeSockets(mount, options, (req, socket, head) => appUpgrade(server, req, socket, head));
  trees.push(tree);
  return tree;
}

type Emit = (this: Server, event: string | symbol, ...args: unknown[]) => boolean;

/** The server's `emit` before the trees' (once they need one), which the app's listeners hear. */
const appEmits = new WeakMap<Server, Emit>();

function takeTreeUpgrades(server: Server, trees: TreeSockets[]): void {
  const treeFor = (req: IncomingMessage) => trees.find((tree) => tree.claims(req));

  // Without an `upgrade` listener, a Node without `shouldUpgradeCallback` would not emit `upgrade`
  // at all. While the app has none of its own, this one serves the trees' requests; a request no
  // tree takes (an `Upgrade: h2c`, a WebSocket for a route without one) reaches it only on such a
  // Node, and is the app's, as a plain one.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (appListens(server)) return;
    const tree = treeFor(req);
    if (tree) void tree.serve(req, socket, head);
    else if (!socket.destroyed) asPlainRequest(server, req, socket, head);
  });

  // Every listener hears every event, and none can keep the others from it: the app's own `upgrade`
  // listeners would hear the requests a tree takes too (a `ws` server with a `path` answers them
  // 400). From the moment the app listens for upgrades, the server's `emit` hands those to the tree
  // alone; until then, it is left as it is, and requests pay nothing for the trees.
  if (appListens(server)) keepFromAppListeners(server, treeFor);
  else {
    server.on('newListener', function watch(event: string | symbol) {
      if (event !== 'upgrade') return;
      server.off('newListener', watch);
      keepFromAppListeners(server, treeFor);
    });
  }

  type UpgradeCallback = (req: IncomingMessage) => boolean;
  const withCallback = server as { shouldUpgradeCallback?: UpgradeCallback };
  const appCallback = withCallback.shouldUpgradeCallback;
  if (typeof appCallback === 'function') {
    // Node's own default counts listeners, the trees' one included: the app's answer counts only
    // when the app listens for upgrades itself.
    withCallback.shouldUpgradeCallback = (req) =>
      treeFor(req) !== undefined || (appListens(server) && appCallback.call(server, req));
  }

  // `server.close()` stops new connections and waits for open ones: the sockets are told it is going
  // away. Node emits `close` only once every connection has ended, the sockets' too, so listening
  // for it would wait for the very sockets it is to close: `close()` itself is where to hear it.
  const close = server.close;
  server.close = function (this: Server, ...args: Parameters<Server['close']>) {
    for (const tree of trees) {
      tree.stop();
      void tree.closeAll();
    }
    return close.apply(this, args);
  } as Server['close'];
}

/** Hands the upgrade requests a tree takes to that tree, before the server's listeners hear them. */
function keepFromAppListeners(
  server: Server,
  treeFor: (req: IncomingMessage) => TreeSockets | undefined,
): void {
  const emit = server.emit as Emit;
  appEmits.set(server, emit);
  // Every event of the server passes here, each request and connection included: only `upgrade` is looked at,
  // and the others go on with their arguments as they came.
  /* eslint-disable prefer-rest-params -- `arguments` as it came: no array is built for the other events */
  server.emit = function (this: Server, event: string | symbol): boolean {
    if (event !== 'upgrade') return Reflect.apply(emit, this, arguments);
    const [, req, socket, head] = arguments as unknown as [string, IncomingMessage, Duplex, Buffer];
    const tree = treeFor(req);
    if (!tree) return Reflect.apply(emit, this, arguments);
    void tree.serve(req, socket, head);
    return true;
  } as Server['emit'];
  /* eslint-enable prefer-rest-params */
}

/** Whether the app has `upgrade` listeners of its own: every one but the trees' single listener. */
function appListens(server: Server): boolean {
  return server.listenerCount('upgrade') > 1;
}

/** Hands an upgrade request to the app's listeners, or to its request handler when it has none. */
function appUpgrade(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  if (appListens(server)) appEmit(server).call(server, 'upgrade', req, socket, head);
  else asPlainRequest(server, req, socket, head);
}

/** What emits the server's events to the app's listeners: its `emit`, as it was before the trees'. */
function appEmit(server: Server): Emit {
  return appEmits.get(server) ?? (server.emit as Emit);
}

/**
 * An upgrade request Node has already handed over as one, answered by the app's request handler as a plain
 * request on its socket, which then closes (Node no longer parses it: no second request can follow).
 */
function asPlainRequest(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  // Node took its own error listener off the socket before handing it over: a client that resets must not
  // crash the process.
  socket.on('error', () => socket.destroy());
  if (head.length > 0) socket.unshift(head);
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Socket);
  res.once('finish', () => {
    res.detachSocket(socket as Socket);
    socket.end();
  });
  appEmit(server).call(server, 'request', req, res);
}
