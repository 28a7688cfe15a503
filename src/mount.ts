/**
 * mountEndpoints: discover -> validate -> (async) load -> route table -> Connect middleware.
 *
 * Discovery and validation run synchronously so an invalid tree throws at the call; loading
 * modules is asynchronous, and requests that arrive before it ends wait for it.
 */
import { createNodeMiddleware, DEFAULT_BODY_LIMIT, routingOf, type NodeMiddleware } from './bridge';
import {
  discoverTree,
  displayPath,
  middlewareFilesFor,
  type DiscoveredTree,
  type RouteFile,
} from './discover';
import { resolveDevOptions, startDevLoop } from './dev';
import { describeRoutes, patternsWithPage, updateRoutes, type RouteInfo } from './describe-routes';
import {
  buildMethodTable,
  compileRoute,
  endpointRouter,
  etagModeOf,
  failingModule,
  failingRouter,
  fetchEtagModeOf,
  handleFetch,
  Lifecycle,
  type CloseOptions,
  logError,
  tellOnError,
  type CompiledRoute,
  LOADING,
  middlewareOptionNames,
  type MountedRoute,
  type MountSettings,
  socketHandlerOf,
  type TopicAccess,
  WEBSOCKET_EXPORT,
  withUpgradeRequired,
} from './dispatch';
import { mountChecksResponses, withContractSettings } from './contract';
import { loadedExportInfo, loadModule, type ModuleExports } from './load';
import {
  generateOpenAPI,
  serveOpenAPI,
  type LoadedModules,
  type OpenAPIDocument,
  type OpenAPIOptions,
} from './openapi';
import { openBuild, type OpenedBuild } from './manifest';
import type { Router } from './router';
import { runtime } from './runtime';
import { TopicHub, TopicStream } from './topics';
import type { MountOptions, PublishTopic, SubscribeTopics, TopicStats, WebMiddleware } from './types';
import { assertValidTree } from './validate';
import {
  attachWebSockets,
  loadWebSocketLibrary,
  type AttachableServer,
  type AttachOptions,
  type SocketRegistry,
} from './websocket';

/** The Connect middleware `mountEndpoints` returns. */
export interface EndpointsMiddleware extends NodeMiddleware {
  /** Resolves once every module is loaded; rejects on a module that fails to load. */
  readonly ready: Promise<void>;
  /** The route table. */
  readonly routes: RouteInfo[];
  /** The whole tree as a Web handler: 404 when nothing matches. */
  fetch(request: Request): Promise<Response>;
  /**
   * Shuts the tree down, for a deploy or a SIGTERM: new requests for the tree get 503 (with
   * `Connection: close`), open event streams end with their final event, the WebSockets of attached
   * servers close with 1001 (going away), the topic subscriptions of streams end and the topics'
   * backplane disconnects, and development mode's watcher stops. Then it waits for the requests in
   * flight and their `after()` callbacks, up to `timeout` milliseconds (default 10,000), and aborts
   * what still runs: the handler's `request.signal` aborts with a `ShutdownError`. Resolves once all
   * is done; calling it again returns the same promise.
   */
  close(options?: CloseOptions): Promise<void>;
  /**
   * Sends `data` to every subscriber of `topic`, sockets and streams, in every process of the app
   * that the mount's backplane reaches (see docs/websockets.md).
   */
  publish: PublishTopic;
  /** The publications to `topics` from now on, as an async iterator; ends with `options.signal`. */
  subscribe: SubscribeTopics;
  /** What the mount's topics did so far: publications, deliveries, what was lost. */
  topicStats(): TopicStats;
  /**
   * The tree's OpenAPI 3.1 (or 3.2) document, once every module is loaded: every endpoint, and
   * what its contract says (see docs/openapi.md).
   */
  openapi(options?: OpenAPIOptions): Promise<OpenAPIDocument>;
  /**
   * Serves the tree's WebSocket routes (endpoints that `export const websocket`) on `server`; every
   * other upgrade request stays the app's. `server.close()` closes their sockets with 1001.
   */
  attach(server: AttachableServer, options?: AttachOptions): void;
}

/** What `mountEndpoints(app)` needs of an Express or Connect app, or an Express Router. */
export interface AppLike {
  use(middleware: EndpointsMiddleware): unknown;
  /** An Express app's settings. */
  enabled?(setting: string): boolean;
  /** An Express Router's own `caseSensitive` and `strict` (`express.Router({ caseSensitive: true })`). */
  caseSensitive?: boolean;
  strict?: boolean;
}

export function mountEndpoints(options?: MountOptions): EndpointsMiddleware;
export function mountEndpoints(app: AppLike, options?: MountOptions): Promise<EndpointsMiddleware>;
export function mountEndpoints(
  appOrOptions?: AppLike | MountOptions,
  maybeOptions?: MountOptions,
): EndpointsMiddleware | Promise<EndpointsMiddleware> {
  if (!isApp(appOrOptions)) return createEndpoints(appOrOptions ?? {});
  const app = appOrOptions;
  // An invalid tree (or a missing folder) throws here, synchronously, rather than rejecting: discovery and
  // validation are synchronous, and an app that forgot `await` must stop before it listens, not crash later
  // on an unhandled rejection. Under `await` the two are the same.
  // The host's settings make the tree stricter, never looser: its guards must cover every spelling the
  // tree serves. An app's are read again per request (src/bridge/host-routing.ts); a Router's only here,
  // since a request does not say which Router it came through. Sockets, which no app sees, use these.
  const middleware = createEndpoints({
    ...maybeOptions,
    caseSensitive:
      maybeOptions?.caseSensitive === true ||
      app.enabled?.('case sensitive routing') === true ||
      app.caseSensitive === true,
    strict: maybeOptions?.strict === true || app.enabled?.('strict routing') === true || app.strict === true,
  });
  app.use(middleware);
  const loaded = middleware.ready.then(() => middleware);
  // A module that fails to load rejects `loaded` for whoever awaits it; a caller who ignores the promise must
  // not crash on an unhandled rejection: requests then reach the app's error handler with that error.
  loaded.catch(() => {});
  return loaded;
}

/** What compiling a loaded tree gives: its router, the tree as loaded, its modules by file. */
interface Compiled {
  router: Router<CompiledRoute>;
  loaded: DiscoveredTree;
  modules: LoadedModules;
}

/** The compile step as the dev loop and loadTree call it. */
type CompileStep = (
  tree: DiscoveredTree,
  options: MountOptions,
  load: (file: RouteFile) => Promise<ModuleExports>,
  validated?: boolean,
) => Promise<Compiled>;

function createEndpoints(options: MountOptions): EndpointsMiddleware {
  const settings: MountSettings = { ...options, onError: options.onError ?? logError };
  // A build (docs/build.md) holds a table validated when it was made: nothing to glob, read or validate.
  const build = openBuild(options);
  if (build && options.dev) throw devFromBuildError(build);
  const tree = build?.tree ?? discoverTree(options.dir ?? 'app');
  // Development mode reports an invalid tree on an error page instead (src/dev).
  const dev = build ? undefined : resolveDevOptions(options.dev, tree.root);
  if (!dev && !build) assertValidTree(tree);

  // Rows are updated in place once the modules are loaded, so a reference kept earlier stays current.
  const routes = describeRoutes(tree);
  // One per mount, made here rather than per request: a mount whose code never publishes pays nothing more.
  const { onError } = settings;
  const topics = new TopicHub({
    backplane: options.topics?.backplane,
    backpressureLimit: options.topics?.backpressureLimit,
    report: (error, what, file, topic) =>
      tellOnError(onError, error, { route: '', file, export: what, topic, passedToNext: false }),
  });
  const publish: PublishTopic = (topic, data) => topics.publish(topic, data);
  const subscribe = ((names, subscribeOptions) =>
    new TopicStream(topics, names, subscribeOptions)) as SubscribeTopics;
  const topicAccess: TopicAccess = {
    publish,
    subscribe: (names, subscribeOptions, signal) =>
      new TopicStream(topics, names, {
        ...subscribeOptions,
        signal: subscribeOptions?.signal ? AbortSignal.any([subscribeOptions.signal, signal]) : signal,
      }),
  };
  // The table is known before any module loads: a request no endpoint matches need not wait.
  let router: Router<MountedRoute> = loadingRouter(tree, options);
  // The tree as last loaded, with its modules: what `.openapi()` describes.
  let described: { tree: DiscoveredTree; modules?: LoadedModules } = { tree };
  // The dev loop hands back the options it was given; the resolved settings are what compile reads.
  const keep: CompileStep = (loadedTree, _options, load, validated) =>
    compile(loadedTree, settings, load, validated, topicAccess).then(
      (result) => ((described = { tree: result.loaded, modules: result.modules }), result),
    );
  const swap = (next: Router<CompiledRoute>) => void (router = next);
  const devLoop = dev ? startDevLoop(tree, { settings, dev, routes, compile: keep, swap }) : undefined;
  const ready = devLoop?.ready ?? loadTree({ tree, build, settings, routes, compile: keep, swap });
  // The error reaches whoever awaits `.ready`; it must not also crash the process as an unhandled
  // rejection when nobody awaits it (onError has been told).
  const loaded = ready.then(noop, noop);

  const document = (openapiOptions: OpenAPIOptions) => {
    const { document, warnings } = generateOpenAPI(described.tree, described.modules, openapiOptions);
    const warn =
      openapiOptions.onWarning ?? ((warning) => console.warn(`express-file-endpoints: ${warning}`));
    for (const warning of warnings) warn(warning);
    return document;
  };
  // The requests in flight, for `close()` to wait for.
  const lifecycle = new Lifecycle();
  let middleware = createNodeMiddleware({
    router: () => router,
    loaded,
    routing: routingOf(options.caseSensitive === true, options.strict === true),
    passUnservedMethods: options.unservedMethods !== '405',
    etag: etagModeOf(options.etag),
    lifecycle,
  });
  const fetchSettings = { etag: fetchEtagModeOf(options.etag), lifecycle };
  let fetch = async (request: Request) => {
    await loaded;
    return handleFetch(router as Router<CompiledRoute>, request, fetchSettings);
  };
  if (options.openapi) {
    // Only a mount with the option is wrapped: the others' requests pay nothing for it.
    // The tree's middleware (an auth check around every endpoint) guards the document too.
    ({ middleware, fetch } = serveOpenAPI(
      options.openapi,
      {
        loaded,
        current: () => described,
        document,
        middleware: options.middleware ?? [],
        onError,
        locals: options.locals,
        asyncContext: options.asyncContext === true,
        etag: options.etag,
      },
      {
        middleware,
        fetch,
      },
    ));
  }
  const socketServers: SocketRegistry[] = [];
  // Until the modules load, static reading tells which routes serve sockets; a file it could not
  // read completely might.
  const mayServeSockets = tree.files.some(
    (file) =>
      file.kind === 'endpoint' &&
      (file.exports?.namesIncomplete !== false || file.exports.names.includes(WEBSOCKET_EXPORT)),
  );
  return Object.assign(middleware, {
    ready,
    routes,
    fetch,
    close: async (closeOptions?: CloseOptions) => {
      await Promise.all([
        lifecycle.close(closeOptions),
        devLoop?.close(),
        ...socketServers.map((sockets) => sockets.closeAll()),
        topics.close(),
      ]);
    },
    publish,
    subscribe,
    topicStats: () => topics.stats(),
    openapi: async (openapiOptions: OpenAPIOptions = {}) => {
      await loaded;
      return document(openapiOptions);
    },
    attach(server: AttachableServer, attachOptions?: AttachOptions) {
      const socketMount = {
        router: () => router,
        loaded,
        mayServeSockets,
        onError,
        topics,
      };
      socketServers.push(attachWebSockets(server, socketMount, attachOptions));
    },
  });
}

const noop = () => {};

/** Every endpoint of the tree, `LOADING`. */
function loadingRouter(tree: DiscoveredTree, options: MountOptions): Router<MountedRoute> {
  return endpointRouter<MountedRoute>(tree, options, () => LOADING);
}

/** What loadTree needs of the mount: the tree (or the build) to load, and where the result goes. */
interface TreeLoad {
  tree: DiscoveredTree;
  build: OpenedBuild | undefined;
  settings: MountSettings;
  /** `.routes`, updated in place. */
  routes: RouteInfo[];
  compile: CompileStep;
  /** Makes `router` the table the next request uses. */
  swap(router: Router<CompiledRoute>): void;
}

/**
 * Loads the tree and swaps its table in. A module that fails to load is told to `onError` once,
 * here, and the routes it serves (as endpoint or folder middleware) answer with its error, through
 * the app's error handler; every other route works. The returned promise rejects with the first
 * such error, for a caller that awaits `mountEndpoints(app)` and wants to stop.
 */
async function loadTree({ tree, build, settings, routes, compile, swap }: TreeLoad): Promise<void> {
  const { onError } = settings;
  const failures: { file: RouteFile; error: unknown }[] = [];
  const load = async (file: RouteFile): Promise<ModuleExports> => {
    // A build's modules come from one import: if it fails, the whole tree fails, told once below.
    if (build) return (await build.modules).get(file.file)!;
    try {
      return await loadModule(file.file, file.displayPath);
    } catch (error) {
      failures.push({ file, error });
      return failingModule(file, patternsWithPage(tree).has(file.pattern), error);
    }
  };
  let compiled: Compiled;
  try {
    compiled = await compile(tree, settings, load, build !== undefined);
  } catch (error) {
    // The tree as loaded is invalid (`export * from` brought a conflict): no route can be trusted.
    swap(failingRouter(tree, settings, error));
    tellOnError(onError, error, {
      file: displayPath(tree.root),
      route: '/',
      export: '',
      passedToNext: false,
    });
    throw error;
  }
  swap(compiled.router);
  updateRoutes(routes, compiled.loaded);
  for (const { file, error } of failures) {
    tellOnError(onError, error, {
      file: file.displayPath,
      route: file.pattern,
      export: '',
      passedToNext: false,
    });
  }
  if (failures.length > 0) throw failures[0]!.error;
}

/** Loads every module, confirms the exports static reading could not see, builds the router. */
async function compile(
  tree: DiscoveredTree,
  options: MountSettings,
  load: (file: RouteFile) => Promise<ModuleExports>,
  validated = false,
  topics?: TopicAccess,
): Promise<Compiled> {
  const modules = new Map<RouteFile, ModuleExports>();
  await Promise.all(
    tree.files.filter((f) => f.kind !== 'page').map(async (file) => modules.set(file, await load(file))),
  );
  // Validate again against what the modules really export (`export * from`, computed exports, contracts).
  // The exports go along, for `.routes` to show which handlers have a contract.
  const loaded: DiscoveredTree = {
    ...tree,
    files: tree.files.map((file) => {
      const mod = modules.get(file);
      return mod ? { ...file, exports: loadedExportInfo(mod) } : file;
    }),
  };
  if (!validated) assertValidTree(loaded);
  // `ws` is loaded only for a tree that serves WebSockets, and its absence is told at startup. Not on Bun
  // and Deno, where `attach` cannot serve them (it takes a Node server) and where importing `ws` asks Deno
  // for a permission to read the environment that the app has no other need of.
  const needsWs = [...modules].find(
    ([file, mod]) => file.kind === 'endpoint' && socketHandlerOf(mod, file.displayPath),
  );
  if (needsWs && runtime.name === 'Node') await loadWebSocketLibrary(needsWs[0].displayPath);

  const pages = patternsWithPage(tree);
  const optionMiddleware = options.middleware ?? [];
  const optionNames = middlewareOptionNames(optionMiddleware);
  const { onError } = options;
  const checksResponses = mountChecksResponses(options);
  const routeFor = (file: RouteFile): CompiledRoute => {
    const mod = modules.get(file)!;
    const folders = middlewareFilesFor(tree, file);
    // Handlers made by defineHandler get this mount's settings; no other export changes.
    const handlers = withContractSettings(mod, (exportName) => ({
      onInvalid: options.onInvalid,
      checksResponses,
      report: (error, request) =>
        tellOnError(onError, error, {
          request,
          route: file.pattern,
          file: file.displayPath,
          export: exportName,
          passedToNext: false,
        }),
    }));
    return compileRoute(file, buildMethodTable(withUpgradeRequired(handlers), pages.has(file.pattern)), {
      socket: socketHandlerOf(mod, file.displayPath),
      middleware: [...optionMiddleware, ...folders.map((f) => modules.get(f)!.default as WebMiddleware)],
      middlewareNames: [...optionNames, ...folders.map((f) => f.displayPath)],
      ...bodyLimitsOf(mod, options),
      onError,
      localsFromNode: options.locals,
      asyncContext: options.asyncContext === true,
      topics,
    });
  };
  // The modules by file, for `.openapi()`: it reads the contracts themselves.
  const byFile = new Map([...modules].map(([file, mod]) => [file.file, mod]));
  return { router: endpointRouter(tree, options, routeFor), loaded, modules: byFile };
}

/**
 * The endpoint's limit (its own `config.bodyLimit`, else the mount's, else the default), and the one
 * a body the app's parser already read is held to: a limit the app stated, never the default.
 */
function bodyLimitsOf(
  mod: ModuleExports,
  options: MountOptions,
): { bodyLimit: number | false; parsedBodyLimit: number | false } {
  const config = mod.config as { bodyLimit?: unknown } | undefined;
  const own = config?.bodyLimit;
  if (own === false || typeof own === 'number') return { bodyLimit: own, parsedBodyLimit: own };
  const mounted = options.bodyLimit;
  if (mounted !== undefined) return { bodyLimit: mounted, parsedBodyLimit: mounted };
  return { bodyLimit: DEFAULT_BODY_LIMIT, parsedBodyLimit: false };
}

function devFromBuildError(build: OpenedBuild): Error {
  const source = displayPath(build.tree.root);
  return new Error(
    `express-file-endpoints: development mode reads the endpoint tree, not a build: mount dir: '${source}' with dev.`,
  );
}

function isApp(value: unknown): value is AppLike {
  return typeof value === 'function' && typeof (value as unknown as AppLike).use === 'function';
}
