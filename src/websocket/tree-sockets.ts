/**
 * One tree's WebSockets on one server: which upgrade requests the tree takes (`claims`), what it
 * does with one (middleware, the `upgrade` hook, then `ws`'s handshake), and the sockets it keeps
 * open, pinged and closed on shutdown. attach.ts puts it on the server.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import { type MountPaths, type NotedMountPath, requestUrl, splitAtMountPath, targetPath } from '../bridge';
import { admit, admitMatch, RequestRefusedError, type SocketRoute, tellOnError, UPGRADE } from '../dispatch';
import { LOADING, type MountedRoute } from '../route';
import { MALFORMED_PATH, type RouteMatch, type Router } from '../router';
import type { TopicHub } from '../topics';
import type { ErrorReporter } from '../types';
import { Connection } from './connection';
import { checkedOrigins, isAllowedOrigin } from './origin-check';
import { decideUpgrade, socketContext, upgradeWebRequest, writeRefusal } from './upgrade-request';
import { loadWebSocketLibrary } from './ws-library';

/** `attach(server, options)`. */
export interface AttachOptions {
  /**
   * Where the tree is mounted in the app (`app.use('/v1', endpoints)`): `'/v1'`. Default: where the
   * tree's middleware has been reached by HTTP requests, and the root (`''`) until it has been.
   */
  mountPath?: string;
  /** Largest message in bytes a client may send; a larger one closes the socket with 1009. Default 1 MiB. */
  maxMessageSize?: number;
  /** Milliseconds between pings; a socket that has not answered the last one is cut. `false`: none. Default 30,000. */
  pingInterval?: number | false;
  /** Milliseconds a socket has to answer the server's close with its own, before it is cut. Default 5,000. */
  closeTimeout?: number;
  /**
   * The browser pages, besides the server's own host, that may open a socket: origins as browsers send
   * them (`['https://app.example.com']`), or `'*'` for any page, for an API whose sockets authenticate
   * with a token rather than a cookie. A handshake from any other origin is refused with 403; one
   * without an Origin header (not from a browser) is not. Default: none.
   */
  allowedOrigins?: readonly string[] | '*';
}

/** What `attach` needs of a mount. */
export interface SocketMount {
  router(): Router<MountedRoute>;
  /** Settles once loading has ended. */
  loaded: Promise<void>;
  /** Some endpoint may export `websocket`, as static reading tells before the modules load. */
  mayServeSockets: boolean;
  /** Told about a handshake that failed (`ws` missing, a listener of the app's that threw). */
  onError: ErrorReporter;
  /** The mount's topics, which its sockets subscribe to. */
  topics: TopicHub;
  /** Where the mount's middleware has been reached: where its sockets are, when `mountPath` is not given. */
  mountPaths?: MountPaths;
}

/** An upgrade the tree takes: the route it matched, below which mount path, and the path as sent. */
interface Claim {
  found: RouteMatch<MountedRoute>;
  below: string;
  sent: string;
  mountPath: string;
  /** The route it is served by, once admitted: what a fault of the handshake is told about. */
  route?: SocketRoute;
}

/** A handshake from a page of an origin `allowedOrigins` does not list. */
const FORBIDDEN_ORIGIN = {
  status: 403,
  code: 'FORBIDDEN_ORIGIN',
  message: 'Forbidden: this origin may not open a WebSocket',
};

/** An upgrade request the tree took and then found it has no socket for: the app's after all. */
export type PassOn = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface TreeSockets {
  /** The request is a WebSocket upgrade for a route of the tree that serves them (or may, while loading). */
  claims(req: IncomingMessage): boolean;
  /** Serves a claimed upgrade request; never rejects. */
  serve(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void>;
  /** Closes every open socket with 1001 (going away); resolves once each has closed, or been cut. */
  closeAll(): Promise<void>;
  /** Stops pinging and taking new sockets: the server is closing. */
  stop(): void;
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

export function treeSockets(mount: SocketMount, options: AttachOptions, passOn: PassOn): TreeSockets {
  const mountPaths = socketMountPaths(options.mountPath, mount.mountPaths);
  const allowedOrigins = checkedOrigins(options.allowedOrigins);
  const connections = new Set<Connection>();
  const closeTimeout = options.closeTimeout ?? 5_000;
  const settings = { topics: mount.topics, closeTimeout };
  // Made on the first upgrade the tree accepts, from `ws`, loaded then.
  let sockets: Promise<WebSocketServer> | undefined;
  // Headers a middleware set on the acceptance (a Set-Cookie), for the 101 answer to `req`.
  const acceptHeaders = new WeakMap<IncomingMessage, Headers>();
  // Set once the server or the mount closes: an upgrade still in its middleware then gets no socket, or one
  // closed at once, so `server.close()` is not left waiting for it.
  let closing = false;

  /**
   * Whether an upgrade is the tree's to take: a route of it serves sockets (or may, while loading).
   * With the path below the mount path it was found under, as the client spelled it, and the whole
   * path as sent. Matched once, when the server asks: `serve` takes the match from here.
   */
  const claimed = new WeakMap<IncomingMessage, Claim>();
  const match = (req: IncomingMessage): Claim | undefined => {
    if (req.method !== 'GET' || req.headers.upgrade?.toLowerCase() !== 'websocket') return undefined;
    const path = targetPath(req.url ?? '/');
    const split = path === undefined ? undefined : splitAtMountPath(path, mountPaths());
    if (split === undefined) return undefined;
    const found = mount.router().match(split.below);
    if (found === null || found === MALFORMED_PATH) return undefined;
    const served = found.value === LOADING ? mount.mayServeSockets : found.value.socket !== undefined;
    if (!served) return undefined;
    const claim = { found, below: split.below, sent: path!, mountPath: split.mountPath };
    claimed.set(req, claim);
    return claim;
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

  const serve = async (req: IncomingMessage, socket: Duplex, claim: Claim, head: Buffer): Promise<void> => {
    // A client that leaves mid-handshake must not crash the process.
    socket.on('error', () => socket.destroy());
    const { below, sent, mountPath } = claim;
    // The same checks, in the same order, as for an HTTP request to the route.
    let admission = admitMatch(claim.found, sent, UPGRADE, closing);
    if (admission.kind === 'loading') {
      await mount.loaded;
      admission = admit(mount.router(), below, undefined, sent, UPGRADE, closing);
    }
    switch (admission.kind) {
      case 'closing':
        return writeRefusal(socket, new Response('Service Unavailable', { status: 503 }));
      case 'rewritten':
        return writeRefusal(socket, new Response('Bad Request', { status: 400 }));
      case 'upgrade':
        break;
      // Unmatched, malformed, or loaded and found to serve no sockets: the app's, as if never taken.
      default:
        return passOn(req, socket, head);
    }
    const { route } = admission;
    claim.route = route;
    const url = requestUrl(req);
    if (url === undefined) return writeRefusal(socket, new Response('Bad Request', { status: 400 }));
    // Before any middleware or hook runs: a page of another site gets nothing of the app.
    const refusal = isAllowedOrigin(req.headers.origin, req.headers.host, allowedOrigins)
      ? undefined
      : new RequestRefusedError(FORBIDDEN_ORIGIN);
    const context = socketContext(admission.params, route, upgradeWebRequest(req, url), mountPath);
    let endHandshake!: (status: number) => void;
    const handshakeOver = new Promise<number>((resolve) => (endHandshake = resolve));
    const refuse = (response: Response) =>
      writeRefusal(socket, response).finally(() => endHandshake(response.status));
    const decision = await decideUpgrade(route, context, socket, handshakeOver, refusal);
    if (!decision.accepted) return refuse(decision.response);
    if (closing) return refuse(new Response('Service Unavailable', { status: 503 }));
    const wss = await (sockets ??= webSocketServer());
    acceptHeaders.set(req, decision.headers);
    wss.handleUpgrade(req, socket, head as Parameters<WebSocketServer['handleUpgrade']>[2], (ws) => {
      endHandshake(101);
      const connection = new Connection(ws, socket, route, context, settings);
      connections.add(connection);
      connection.start(() => connections.delete(connection));
      if (closing) ws.close(GOING_AWAY, 'Server shutting down');
    });
  };

  const keepAlive = startKeepAlive(connections, options.pingInterval ?? 30_000);
  return {
    // Once closing, no new upgrade is the tree's: it goes where it would without the tree.
    claims: (req) => !closing && match(req) !== undefined,
    serve: (req, socket, head) => {
      const claim = claimed.get(req) ?? match(req);
      if (claim === undefined) return Promise.resolve(passOn(req, socket, head));
      return serve(req, socket, claim, head).catch((error: unknown) => {
        socket.destroy();
        tellOnError(mount.onError, error, {
          route: claim.route?.pattern ?? req.url ?? '/',
          file: claim.route?.displayPath ?? 'attach',
          export: 'websocket',
          passedToNext: false,
        });
      });
    },
    async closeAll() {
      closing = true;
      clearInterval(keepAlive);
      const open = [...connections];
      const ended = open.map((c) => new Promise((resolve) => c.ws.once('close', resolve)));
      for (const connection of open) connection.ws.close(GOING_AWAY, 'Server shutting down');
      const cut = setTimeout(() => open.forEach((c) => c.ws.terminate()), closeTimeout);
      await Promise.all(ended);
      clearTimeout(cut);
    },
    stop() {
      closing = true;
      clearInterval(keepAlive);
    },
  };
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

/**
 * Where the tree's sockets are: at the `mountPath` given to `attach`, or else under the mount paths
 * its middleware has been reached under, and at the root until it has been reached.
 */
function socketMountPaths(
  given: string | undefined,
  reached: MountPaths | undefined,
): () => readonly NotedMountPath[] {
  if (given !== undefined || reached === undefined) {
    const fixed = [{ path: checkedMountPath(given), caseSensitive: true }];
    return () => fixed;
  }
  return () => (reached.known.length > 0 ? reached.known : ROOT);
}

const ROOT: readonly NotedMountPath[] = [{ path: '', caseSensitive: true }];

function checkedMountPath(mountPath: string | undefined): string {
  if (mountPath === undefined || mountPath === '' || mountPath === '/') return '';
  if (!mountPath.startsWith('/')) {
    throw new TypeError(`attach(server, { mountPath }): "${mountPath}" must start with "/", e.g. "/v1".`);
  }
  return mountPath.endsWith('/') ? mountPath.slice(0, -1) : mountPath;
}
