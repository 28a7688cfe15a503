/**
 * `middleware.attach(server)`: serves the tree's WebSocket routes on a Node server (issue 28).
 *
 * Only upgrade requests for a route that declares `websocket` are taken; every other one is left,
 * untouched, to the app's own `upgrade` listeners (a `ws` or socket.io server, a proxy), or, when
 * the app has none, to its request handler as a plain request. Where Node has the server's
 * `shouldUpgradeCallback` (22.21+, 24.9+), that is how; elsewhere the `upgrade` event is used.
 * The app's listeners are never removed or wrapped: the server's `emit` hands the requests the
 * tree takes to the tree alone, so a `ws` server with a `path` beside it never answers them 400.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import { hasRewrittenPath, requestUrl, targetPath } from '../bridge';
import { LOADING, type MountedRoute } from '../dispatch';
import { MALFORMED_PATH, type RouteMatch, type Router } from '../router';
import { Connection } from './connection';
import {
  decideUpgrade,
  socketContext,
  type SocketRoute,
  upgradeWebRequest,
  writeRefusal,
} from './upgrade-request';
import { loadWebSocketLibrary } from './ws-library';

/** The Node server `attach` serves WebSockets on: what `http.createServer()` and `app.listen()` return. */
export type AttachableServer = Server;

/** `attach(server, options)`. */
export interface AttachOptions {
  /** Where the tree is mounted in the app (`app.use('/v1', endpoints)`): `'/v1'`. Default `''`. */
  mountPath?: string;
  /** Largest message in bytes a client may send; a larger one closes the socket with 1009. Default 1 MiB. */
  maxMessageSize?: number;
  /** Milliseconds between pings; a socket that has not answered the last one is cut. `false`: none. Default 30,000. */
  pingInterval?: number | false;
  /** Milliseconds a socket has to answer the server's close with its own, before it is cut. Default 5,000. */
  closeTimeout?: number;
}

/** What `attach` needs of a mount. */
export interface SocketMount {
  router(): Router<MountedRoute>;
  /** Settles once loading has ended. */
  loaded: Promise<void>;
  /** Some endpoint may export `websocket`, as static reading tells before the modules load. */
  mayServeSockets: boolean;
}

/** The mount's side of an attached server: closes every socket the tree serves on it. */
export interface SocketRegistry {
  /** Closes them with 1001 (going away); resolves once each has closed, or been cut after `closeTimeout`. */
  closeAll(): Promise<void>;
}

/** Close code 1001: the server is going away. */
const GOING_AWAY = 1001;

/** What `ws` writes in the 101 answer itself; a middleware's copy of one would contradict it. */
const HANDSHAKE_HEADERS = new Set([
  'upgrade',
  'connection',
  'sec-websocket-accept',
  'sec-websocket-protocol',
  'sec-websocket-extensions',
  'content-length',
  'transfer-encoding',
]);

/** Attaches the tree's WebSocket routes to `server`; returns what closes their sockets. */
export function attachWebSockets(
  server: Server,
  mount: SocketMount,
  options: AttachOptions = {},
): SocketRegistry {
  const mountPath = checkedMountPath(options.mountPath);
  const connections = new Set<Connection>();
  // Made on the first upgrade the tree accepts, from `ws`, loaded then.
  let sockets: Promise<WebSocketServer> | undefined;
  // Headers a middleware set on the acceptance (a Set-Cookie), for the 101 answer to `req`.
  const acceptHeaders = new WeakMap<IncomingMessage, Headers>();

  const claim = (req: IncomingMessage): RouteMatch<MountedRoute> | undefined => {
    if (req.method !== 'GET' || req.headers.upgrade?.toLowerCase() !== 'websocket') return undefined;
    const path = pathBelow(req.url ?? '/', mountPath);
    if (path === undefined) return undefined;
    const match = mount.router().match(path);
    if (match === null || match === MALFORMED_PATH) return undefined;
    if (match.value === LOADING) return mount.mayServeSockets ? match : undefined;
    return match.value.socket ? match : undefined;
  };

  type Emit = (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  const emit = server.emit as Emit;
  const serve = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    // A client that leaves mid-handshake must not crash the process.
    socket.on('error', () => socket.destroy());
    let match = claim(req)!;
    if (match.value === LOADING) {
      await mount.loaded;
      const loaded = claim(req);
      // Loaded, the route turned out to serve no sockets: the app's, as if never taken.
      if (!loaded || loaded.value === LOADING) return passOn(req, socket, head);
      match = loaded;
    }
    const route = match.value as SocketRoute;
    const url = requestUrl(req);
    if (url === undefined || hasRewrittenPath(req)) {
      return writeRefusal(socket, new Response('Bad Request', { status: 400 }));
    }
    const context = socketContext(match.params, route, upgradeWebRequest(req, url), mountPath);
    const decision = await decideUpgrade(route, context, socket);
    if (!decision.accepted) return writeRefusal(socket, decision.response);
    const wss = await (sockets ??= webSocketServer());
    acceptHeaders.set(req, decision.headers);
    wss.handleUpgrade(req, socket, head as Parameters<WebSocketServer['handleUpgrade']>[2], (ws) => {
      const connection = new Connection(ws, socket, route, context);
      connections.add(connection);
      connection.start(() => connections.delete(connection));
    });
  };

  const webSocketServer = async (): Promise<WebSocketServer> => {
    const { WebSocketServer } = await loadWebSocketLibrary('an endpoint');
    const created = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      maxPayload: options.maxMessageSize ?? 1024 * 1024,
    });
    created.on('headers', (lines, req) => {
      const headers = acceptHeaders.get(req);
      acceptHeaders.delete(req);
      headers?.forEach((value, name) => {
        if (!HANDSHAKE_HEADERS.has(name) && name !== 'set-cookie') lines.push(`${name}: ${value}`);
      });
      for (const cookie of headers?.getSetCookie() ?? []) lines.push(`set-cookie: ${cookie}`);
    });
    return created;
  };

  // Without a listener of its own the server would not emit `upgrade` at all.
  const listener = (req: IncomingMessage, socket: Duplex) => {
    // Reached only where Node lacks `shouldUpgradeCallback` and the app listens for no upgrade:
    // such a request would have been a plain request, which can no longer be had.
    if (server.listenerCount('upgrade') === 1 && !socket.destroyed) {
      void writeRefusal(socket, new Response('Not Found', { status: 404 }));
    }
  };
  server.on('upgrade', listener);
  server.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'upgrade' || !claim(args[0] as IncomingMessage)) return emit.call(this, event, ...args);
    const [req, socket, head] = args as [IncomingMessage, Duplex, Buffer];
    serve(req, socket, head).catch(() => socket.destroy());
    return true;
  } as Server['emit'];

  const appCallback = (server as { shouldUpgradeCallback?: (req: IncomingMessage) => boolean })
    .shouldUpgradeCallback;
  if (typeof appCallback === 'function') {
    (server as { shouldUpgradeCallback?: (req: IncomingMessage) => boolean }).shouldUpgradeCallback = (req) =>
      // The app's own answer counts the tree's listener; with no listener of its own it takes none.
      claim(req) !== undefined || (server.listenerCount('upgrade') > 1 && appCallback.call(server, req));
  }

  function passOn(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (server.listenerCount('upgrade') > 1) emit.call(server, 'upgrade', req, socket, head);
    else void writeRefusal(socket, new Response('Not Found', { status: 404 }));
  }

  const keepAlive = startKeepAlive(connections, options.pingInterval ?? 30_000);
  const closeTimeout = options.closeTimeout ?? 5_000;
  const registry: SocketRegistry = {
    async closeAll() {
      const open = [...connections];
      const ended = open.map((c) => new Promise((resolve) => c.ws.once('close', resolve)));
      for (const connection of open) connection.ws.close(GOING_AWAY, 'Server shutting down');
      const cut = setTimeout(() => open.forEach((c) => c.ws.terminate()), closeTimeout);
      await Promise.all(ended);
      clearTimeout(cut);
    },
  };
  // `server.close()` stops new connections and waits for open ones: the sockets are told it is going away.
  const close = server.close;
  server.close = function (this: Server, ...args: Parameters<Server['close']>) {
    clearInterval(keepAlive);
    void registry.closeAll();
    return close.apply(this, args);
  } as Server['close'];
  return registry;
}

function startKeepAlive(connections: Set<Connection>, interval: number | false): NodeJS.Timeout | undefined {
  if (interval === false) return undefined;
  const timer = setInterval(() => {
    for (const connection of connections) {
      if (!connection.alive) {
        connection.ws.terminate();
        continue;
      }
      connection.alive = false;
      connection.ws.ping();
    }
  }, interval);
  timer.unref();
  return timer;
}

/** The raw path below the mount path, or `undefined` when the request is not under it. */
function pathBelow(url: string, mountPath: string): string | undefined {
  const path = targetPath(url);
  if (path === undefined || mountPath === '') return path;
  if (path === mountPath) return '/';
  return path.startsWith(`${mountPath}/`) ? path.slice(mountPath.length) : undefined;
}

function checkedMountPath(mountPath: string | undefined): string {
  if (mountPath === undefined || mountPath === '' || mountPath === '/') return '';
  if (!mountPath.startsWith('/')) {
    throw new TypeError(`attach(server, { mountPath }): "${mountPath}" must start with "/", e.g. "/v1".`);
  }
  return mountPath.endsWith('/') ? mountPath.slice(0, -1) : mountPath;
}
