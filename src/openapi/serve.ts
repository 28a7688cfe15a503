/**
 * The `openapi` mount option: the document served as JSON at a path below the mount, by the Node
 * middleware and by `.fetch`. Its `servers` default to where the tree is mounted, so a client that
 * reads the document at `/v1/openapi.json` calls `/v1/api/users`. The document is built once per
 * loaded tree and mount path; a mount without the option is not wrapped at all.
 *
 * The document describes every endpoint, so what guards every endpoint guards it too: the
 * `middleware` option and the tree root's `middleware` file run around it. It is served as a route of
 * its own, through the same dispatch as the endpoints: the middleware's answers, its errors (to
 * `onError` and the app's error handler), HEAD and ETags behave as they do for any endpoint.
 */
import {
  createNodeMiddleware,
  DEFAULT_BODY_LIMIT,
  pathBelowMount,
  routingOf,
  type NodeMiddleware,
} from '../bridge';
import { displayPath, type DiscoveredTree, type RouteFile } from '../discover';
import {
  buildMethodTable,
  compileRoute,
  etagModeOf,
  fetchEtagModeOf,
  handleFetch,
  Lifecycle,
  LOADING,
  middlewareOptionNames,
  type CompiledRoute,
  type MountedRoute,
} from '../dispatch';
import { createRouter, type Router } from '../router';
import type {
  EndpointContext,
  ErrorReporter,
  MountOptions,
  OpenAPIOptions,
  ServeOpenAPIOptions,
  WebMiddleware,
} from '../types';
import type { LoadedModules } from './document';
import type { OpenAPIDocument } from './types';

/** What `mountEndpoints` knows of its tree: when it is loaded, which load is current, its document. */
export interface DescribedTree {
  loaded: Promise<void>;
  /** The tree as last loaded, with its modules: a new object after each reload in development mode. */
  current(): { tree: DiscoveredTree; modules?: LoadedModules };
  document(options: OpenAPIOptions): OpenAPIDocument;
  /** The mount's `middleware` option. */
  middleware: readonly WebMiddleware[];
  onError: ErrorReporter;
  /** The mount's `locals` and `asyncContext`: the middleware around the document see what they see elsewhere. */
  locals?: MountOptions['locals'];
  asyncContext?: boolean;
  /** The mount's `etag`: the document gets its ETag and 304s as the endpoints do. */
  etag?: MountOptions['etag'];
}

export interface ServedDocument {
  middleware: NodeMiddleware;
  fetch(request: Request): Promise<Response>;
}

export function serveOpenAPI(
  options: ServeOpenAPIOptions,
  tree: DescribedTree,
  inner: { middleware: NodeMiddleware; fetch(request: Request): Promise<Response> },
): ServedDocument {
  if (typeof options.path !== 'string' || !options.path.startsWith('/')) {
    throw new TypeError(
      `openapi.path must be a path that starts with "/", not ${JSON.stringify(options.path)}`,
    );
  }
  const { path: servedAt, ...documentOptions } = options;
  // The document is made once per tree (its warnings told once); only `servers` follows the mount path a
  // request came through, which the client spells (`/:tenant` mounts, case): a few texts are kept, no more.
  let cached: { current: object; document: OpenAPIDocument; texts: Map<string, string> } | undefined;

  const documentText = (mountPath: string): string => {
    const current = tree.current();
    // Development mode swaps the tree on a change: the document is rebuilt for the new one only.
    if (cached?.current !== current) {
      cached = { current, document: tree.document(documentOptions), texts: new Map() };
    }
    let text = cached.texts.get(mountPath);
    if (text === undefined) {
      if (cached.texts.size >= MOUNT_PATHS_KEPT) cached.texts.clear();
      text = JSON.stringify(withServers(cached.document, documentOptions.servers, mountPath));
      cached.texts.set(mountPath, text);
    }
    return text;
  };
  const GET = (_request: Request, context: EndpointContext) =>
    new Response(documentText(context.mountPath ?? ''), {
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });

  const segments = servedAt.split('/').slice(1).map(staticSegment);
  // Matched as the raw path was compared above: the router only serves the document's own route.
  const routerOf = <T extends MountedRoute>(value: T): Router<T> =>
    createRouter<T>([{ segments, value }], { caseSensitive: true, strict: true });
  const loading = routerOf<MountedRoute>(LOADING);
  let loaded = false;
  void tree.loaded.then(() => (loaded = true));
  let served: { current: object; router: Router<CompiledRoute> } | undefined;
  const router = (): Router<CompiledRoute> | undefined => {
    if (!loaded) return undefined;
    const current = tree.current();
    if (served?.current !== current) {
      served = { current, router: routerOf(documentRoute(current, servedAt, GET, tree)) };
    }
    return served.router;
  };
  // The document's path is compared exactly above, so its router matches it as it is spelled.
  const node = createNodeMiddleware({
    router: () => router() ?? loading,
    loaded: tree.loaded,
    routing: routingOf(true, true),
    // Only GET and HEAD come here.
    passUnservedMethods: true,
    etag: etagModeOf(tree.etag),
    // The document is no request of the tree's for `close()` to wait for or refuse.
    lifecycle: new Lifecycle(),
  });
  const isRead = (method: string | undefined) => method === 'GET' || method === 'HEAD';

  return {
    middleware: (req, res, next) => {
      if (!isRead(req.method) || pathBelowMount(req) !== servedAt) return inner.middleware(req, res, next);
      node(req, res, next);
    },
    fetch: async (request) => {
      if (!isRead(request.method) || new URL(request.url).pathname !== servedAt) return inner.fetch(request);
      await tree.loaded;
      return handleFetch(router()!, request, { etag: fetchEtagModeOf(tree.etag) });
    },
  };
}

const MOUNT_PATHS_KEPT = 16;

/**
 * The document as a route: GET (HEAD too) at the served path, inside the middleware that wraps every
 * endpoint of the tree. A root `middleware` file that did not load fails the request, as it fails every
 * endpoint: the document is never served unguarded.
 */
function documentRoute(
  { tree, modules }: ReturnType<DescribedTree['current']>,
  servedAt: string,
  GET: (request: Request, context: EndpointContext) => Response,
  described: DescribedTree,
): CompiledRoute {
  const rootMiddleware = tree.files.filter((file) => file.kind === 'middleware' && file.folders.length === 0);
  const folderMiddleware = rootMiddleware.map((file): WebMiddleware => {
    const loaded = modules?.get(file.file)?.default;
    if (typeof loaded === 'function') return loaded as WebMiddleware;
    return () => {
      throw new Error(`${file.displayPath} did not load, and it guards the OpenAPI document`);
    };
  });
  const file: RouteFile = {
    kind: 'endpoint',
    file: tree.root,
    displayPath: displayPath(tree.root),
    folders: [],
    parsedFolders: [],
    segments: [],
    pattern: servedAt,
  };
  return compileRoute(file, buildMethodTable({ GET }), {
    middleware: [...described.middleware, ...folderMiddleware],
    middlewareNames: [
      ...middlewareOptionNames(described.middleware),
      ...rootMiddleware.map((f) => f.displayPath),
    ],
    bodyLimit: DEFAULT_BODY_LIMIT,
    onError: described.onError,
    localsFromNode: described.locals,
    asyncContext: described.asyncContext,
  });
}

/** A segment of the served path, as the router holds a folder's name: decoded, matched as sent. */
function staticSegment(raw: string) {
  let value = raw;
  try {
    value = decodeURIComponent(raw);
  } catch {
    // Not valid percent-encoding: kept as written, and never matched.
  }
  return { kind: 'static' as const, value };
}

/** The document with the servers the options give, or else the mount path it was reached through. */
function withServers(
  document: OpenAPIDocument,
  servers: ServeOpenAPIOptions['servers'],
  mountPath: string,
): OpenAPIDocument {
  if (servers !== undefined || mountPath === '') return document;
  const { openapi, info, ...rest } = document;
  return { openapi, info, servers: [{ url: mountPath }], ...rest } as OpenAPIDocument;
}
