/**
 * The four hosts the integration suite runs against: Express 5, Express 4, Connect and a bare
 * node:http server. Each builds the same legacy app around `mountEndpoints`:
 *
 *   upstream (header, Set-Cookie, req.user) -> helmet -> [compression] -> [body parsers]
 *     -> endpoints (at `/` or under a prefix) -> legacy routes -> app 404 -> app error handler
 *
 * so one suite can assert the same behaviour everywhere. A fifth, `.fetch`, is the tree alone as
 * a Web handler, with no app and no socket around it (`hostsWithFetch`): a suite whose requests go
 * through `request()` runs on it too, and on Bun and Deno (../runtimes/runtime-hosts.ts).
 */
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import compression from 'compression';
import connect from 'connect';
import express5 from 'express';
import helmet from 'helmet';
import {
  mountEndpoints,
  type EndpointsMiddleware,
  type ErrorReporter,
  type MountOptions,
  type RouteInfo,
  type WebMiddleware,
} from '../../src';
import { listen, requestOver } from '../support/net';
import { runtimeHosts } from '../runtimes/runtime-hosts';

// The npm alias `express4` has no types of its own; the API used here is the same as 5's.
const express4 = require('express4') as typeof express5;

export interface HostOptions {
  /** Endpoint tree. */
  dir: string;
  /**
   * `express.json()` and `express.urlencoded({ extended: true })` before the endpoints; with a
   * `limit`, the parsers' own limit (`'3mb'`).
   */
  bodyParsers?: boolean | { limit: string };
  /** `compression()` before the endpoints. */
  compression?: boolean;
  /** Mount the endpoints under this path (e.g. `/v1`) instead of at the root. */
  prefix?: string;
  /** `mountEndpoints`'s `onError`. */
  onError?: ErrorReporter;
  /** `mountEndpoints`'s `middleware`. On Bun and Deno, each is sent as its source: no closures. */
  middleware?: WebMiddleware[];
  /** `mountEndpoints`'s `bodyLimit`. */
  bodyLimit?: number | false;
  /** More middleware first of all (a request logger). */
  first?: Middleware[];
  /** Any other `mountEndpoints` options. */
  mount?: MountOptions;
  /** Express's `app.set(name, value)` for each, before anything is mounted (Express hosts only). */
  settings?: Record<string, unknown>;
}

/** One request of `request()`: the method, headers and body as sent. */
export interface HostRequest {
  method?: string;
  headers?: Record<string, string>;
  /**
   * The body. Pieces (an array) are sent without a Content-Length: chunked over HTTP, and as a stream
   * to `.fetch`.
   */
  body?: string | Buffer | Buffer[];
}

/** One answer of `request()`, read to its end. */
export interface Reply {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | string[] | undefined>;
  /** The body as text: `''` when there is none. */
  text: string;
}

/** What a suite that runs on every host, `.fetch`, Bun and Deno included, uses of a running one. */
export interface Served {
  /** The origin requests go to: `http://127.0.0.1:<port>`, or `http://localhost` for `.fetch`. */
  url: string;
  /** The mount's `.routes`, once its modules are loaded. */
  routes: RouteInfo[];
  /** The mount itself, where it runs in this process (absent on Bun and Deno). */
  endpoints?: EndpointsMiddleware;
  /** `path` (from the origin) requested on a fresh connection, or handed to `.fetch`. */
  request(path: string, init?: HostRequest): Promise<Reply>;
  close(): Promise<void>;
}

export interface RunningHost extends Served {
  /** `http://127.0.0.1:<port>` */
  url: string;
  endpoints: EndpointsMiddleware;
  port: number;
  /** The Node server the app listens on. */
  server: Server;
}

export interface Host<Running extends Served = RunningHost> {
  name: string;
  /** Express's `trust proxy` is on, so `X-Forwarded-Proto` decides the protocol. */
  trustsProxy: boolean;
  /**
   * A Node server with an app around the endpoints: sockets, Node req/res and middleware, mounts
   * under a prefix, and the app's error handler, which gets a handler's error through `next(err)`.
   * False for `.fetch`, which has none of them.
   */
  node: boolean;
  /** A real HTTP connection per request, which a client can leave or keep alive: false for `.fetch` only. */
  sockets: boolean;
  /**
   * The server closes the connection of a request whose body the handler left unread, after the answer,
   * rather than draining it for the next request: Deno's does. Correct, at the cost of a new connection.
   */
  closesOnUnreadBody?: boolean;
  /**
   * `.` and `..` segments of the target are resolved before the tree sees the request: by Bun's server,
   * or for `.fetch` by the Request's own URL parser. Elsewhere the tree sees the target as sent.
   */
  resolvesDotSegments?: boolean;
  start(options: HostOptions): Promise<Running>;
}

type Req = IncomingMessage & { user?: unknown; rawBody?: Buffer; originalUrl?: string };
type Next = (error?: unknown) => void;
export type Middleware = (req: Req, res: ServerResponse, next: Next) => void;

/** What the suite expects from the upstream middleware. */
export const UPSTREAM = {
  header: ['x-upstream', 'before-endpoints'],
  cookie: 'upstream=1; Path=/',
  user: { id: 'u1', name: 'Ada' },
} as const;

/** Header, cookie and `req.user`, as a legacy app's earlier middleware (passport, cors...) would. */
const upstream: Middleware = (req, res, next) => {
  res.setHeader(UPSTREAM.header[0], UPSTREAM.header[1]);
  res.setHeader('set-cookie', UPSTREAM.cookie);
  req.user = { ...UPSTREAM.user };
  next();
};

const CONTACT_PAGE = '<!doctype html><h1>Contact us</h1>';

/** The app's own routes, after the endpoints; plain Node so Connect and node:http share it. */
const legacyRoutes: Middleware = (req, res, next) => {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') return next();
  if (path === '/contact') return send(res, 200, 'text/html; charset=utf-8', CONTACT_PAGE);
  if (path === '/legacy/health') return send(res, 200, 'text/plain; charset=utf-8', 'ok');
  next();
};

const notFound: Middleware = (_req, res) => send(res, 404, 'text/plain; charset=utf-8', 'app 404');

/** The app's error handler, in the usual shape: the error's own status (body-parser's, http-errors'), else 500. */
const errorHandler = (error: unknown, _req: Req, res: ServerResponse, _next: Next): void => {
  const message = error instanceof Error ? error.message : String(error);
  send(res, statusOf(error), 'application/json', JSON.stringify({ caught: message }));
};

/** `status` (or `statusCode`) of an error when it is an error status, as Express's final handler reads it. */
export function statusOf(error: unknown): number {
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const code = typeof status === 'number' ? status : statusCode;
  return typeof code === 'number' && code >= 400 && code < 600 ? code : 500;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.statusCode = status;
  res.setHeader('content-type', type);
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
}

/**
 * Body parsers from the host's Express (body-parser also works with plain Node req/res).
 * `verify` keeps the raw bytes as `req.rawBody` only when the client asks with `x-keep-raw`, so
 * both paths of the bridge — raw bytes, and re-encoding `req.body` — can be tested on one server.
 */
function bodyParsers(express: typeof express5, limit?: string): Middleware[] {
  const verify = (req: Req, _res: ServerResponse, buf: Buffer) => {
    if (req.headers['x-keep-raw']) req.rawBody = Buffer.from(buf);
  };
  return [
    express.json({ verify, limit }),
    express.urlencoded({ extended: true, verify, limit }),
  ] as Middleware[];
}

/** The same, the way Express apps usually set cookies: `res.cookie`. */
const expressUpstream = ((req: Req, res: express5.Response, next: Next) => {
  res.setHeader(UPSTREAM.header[0], UPSTREAM.header[1]);
  res.cookie('upstream', '1');
  req.user = { ...UPSTREAM.user };
  next();
}) as unknown as Middleware;

/** Everything before the endpoints, by option. */
function before(express: typeof express5, options: HostOptions, first = upstream): Middleware[] {
  return [
    ...(options.first ?? []),
    first,
    helmet() as Middleware,
    ...(options.compression ? [compression() as Middleware] : []),
    ...(options.bodyParsers
      ? bodyParsers(express, options.bodyParsers === true ? undefined : options.bodyParsers.limit)
      : []),
  ];
}

/** What every host passes to `mountEndpoints`. */
function mountOptions(options: HostOptions): MountOptions {
  return {
    dir: options.dir,
    onError: options.onError,
    middleware: options.middleware,
    bodyLimit: options.bodyLimit,
    ...options.mount,
  };
}

function expressHost(name: string, express: typeof express5): Host {
  return {
    name,
    trustsProxy: true,
    node: true,
    sockets: true,
    async start(options) {
      const app = express();
      app.set('trust proxy', true);
      for (const [name, value] of Object.entries(options.settings ?? {})) app.set(name, value);
      for (const mw of before(express, options, expressUpstream)) app.use(mw);
      let endpoints: EndpointsMiddleware;
      if (options.prefix) {
        // The synchronous form, as a sub-path mount.
        endpoints = mountEndpoints(mountOptions(options));
        app.use(options.prefix, endpoints);
        await endpoints.ready;
      } else {
        endpoints = await mountEndpoints(app, mountOptions(options));
      }
      app.get('/contact', (_req, res) => {
        res.type('html').send(CONTACT_PAGE);
      });
      app.get('/legacy/health', (_req, res) => {
        res.type('text').send('ok');
      });
      app.use(notFound);
      app.use(errorHandler);
      return listenWith(http.createServer(app), endpoints);
    },
  };
}

const connectHost: Host = {
  name: 'Connect',
  trustsProxy: false,
  node: true,
  sockets: true,
  async start(options) {
    const app = connect();
    for (const mw of before(express5, options)) app.use(mw as connect.NextHandleFunction);
    const endpoints = mountEndpoints(mountOptions(options));
    if (options.prefix) app.use(options.prefix, endpoints);
    else app.use(endpoints);
    await endpoints.ready;
    app.use(legacyRoutes as connect.NextHandleFunction);
    app.use(notFound as connect.NextHandleFunction);
    app.use(errorHandler as connect.ErrorHandleFunction);
    return listenWith(http.createServer(app), endpoints);
  },
};

const nodeHost: Host = {
  name: 'node:http',
  trustsProxy: false,
  node: true,
  sockets: true,
  async start(options) {
    const endpoints = mountEndpoints(mountOptions(options));
    await endpoints.ready;
    const handle = createChain(
      [
        ...before(express5, options).map((handle) => ({ handle })),
        { prefix: options.prefix, handle: endpoints as Middleware },
        { handle: legacyRoutes },
        { handle: notFound },
      ],
      errorHandler,
    );
    return listenWith(http.createServer(handle), endpoints);
  },
};

interface Layer {
  /** Run only for URLs under this path, with it stripped from `req.url` (as Connect does). */
  prefix?: string;
  handle: Middleware;
}

/** The smallest middleware chain a node:http app might write: prefixes, `next(err)`, one error handler. */
function createChain(layers: Layer[], onError: typeof errorHandler) {
  return (req: Req, res: ServerResponse) => {
    req.originalUrl ??= req.url;
    const url = req.url ?? '/';
    let index = 0;
    const next: Next = (error) => {
      req.url = url;
      if (error !== undefined) return onError(error, req, res, next);
      const layer = layers[index++];
      if (!layer) return;
      if (layer.prefix) {
        const rest = url.slice(layer.prefix.length);
        if (!url.startsWith(layer.prefix) || !/^(?:[/?]|$)/.test(rest)) return next();
        req.url = rest.startsWith('/') ? rest : `/${rest}`;
      }
      try {
        layer.handle(req, res, next);
      } catch (thrown) {
        next(thrown);
      }
    };
    next();
  };
}

async function listenWith(server: Server, endpoints: EndpointsMiddleware): Promise<RunningHost> {
  const listening = await listen(server);
  const request = (path: string, init?: HostRequest) => requestOver(listening.url, path, init);
  return { ...listening, endpoints, routes: endpoints.routes, request, server };
}

export const hosts: Host[] = [
  expressHost('Express 5', express5),
  expressHost('Express 4', express4),
  connectHost,
  nodeHost,
];

/**
 * `.fetch` of what `mountEndpoints({ dir })` returns, called directly: each request a `Request`
 * on `http://localhost`, each answer the `Response`, read to its end. Nothing of a Node app
 * exists here, so the options that need one are refused rather than ignored.
 */
export const fetchHost: Host<Served> = {
  name: '.fetch',
  trustsProxy: false,
  node: false,
  sockets: false,
  resolvesDotSegments: true,
  async start(options) {
    const needNode = (['prefix', 'first', 'bodyParsers', 'compression', 'settings'] as const).filter(
      (key) => options[key],
    );
    if (needNode.length > 0) throw new Error(`.fetch has no Node app for ${needNode.join(', ')}`);
    const endpoints = mountEndpoints(mountOptions(options));
    await endpoints.ready;
    const url = 'http://localhost';
    return {
      url,
      routes: endpoints.routes,
      endpoints,
      async request(path, { body, ...init } = {}) {
        const pieces = Array.isArray(body);
        const request = new Request(url + path, {
          ...init,
          body: pieces ? streamOf(body) : body,
          ...(pieces ? { duplex: 'half' } : {}),
        } as RequestInit);
        const response = await endpoints.fetch(request);
        const headers = Object.fromEntries(response.headers);
        return { status: response.status, headers, text: await response.text() };
      },
      close: () => endpoints.close(),
    };
  },
};

/**
 * The hosts with a server and sockets: the four Node hosts, or Bun and Deno in their place under
 * `npm run test:runtimes`.
 */
export const serverHosts: Host<Served>[] = process.env.TEST_HOSTS === 'runtimes' ? runtimeHosts : hosts;

/** Pieces as a stream, one chunk each. */
function streamOf(pieces: Buffer[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next === pieces.length) controller.close();
      else controller.enqueue(pieces[next++]!);
    },
  });
}

/**
 * The four Node hosts and `.fetch`; or, under `npm run test:runtimes` (.mocharc.runtimes.cjs sets
 * `TEST_HOSTS=runtimes`), Bun and Deno in their place: the same suites, once more, on the other runtimes.
 */
export const hostsWithFetch: Host<Served>[] =
  process.env.TEST_HOSTS === 'runtimes' ? runtimeHosts : [...hosts, fetchHost];
