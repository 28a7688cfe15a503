/**
 * mountEndpoints: discover -> validate -> load -> route table -> Connect middleware.
 *
 * Discovery and validation run synchronously so an invalid tree throws at the call. The modules that can be
 * required synchronously are, at the call too, as an app's routers are (src/load/require-module.ts); the rest
 * load asynchronously, and requests that arrive before loading ends wait for it.
 */
import { createNodeMiddleware, MountPaths, routingOf, type NodeMiddleware } from './bridge';
import {
  discoverTree,
  displayPath,
  isTypeScriptFile,
  middlewareFilesFor,
  type DiscoveredTree,
  type RouteFile,
} from './discover';
import {
  createInspector,
  resolveDevOptions,
  startDevLoop,
  type DevLoop,
  type DevLoopHost,
  type Inspector,
} from './dev';
import { describeRoutes, patternsWithPage, updateRoutes, type RouteInfo } from './describe-routes';
import {
  buildMethodTable,
  compileRoute,
  type CompiledRoute,
  type GeneratedRoute,
  LOADING,
  middlewareOptionNames,
  type MountedRoute,
  type MountSettings,
  type TopicAccess,
} from './route';
import {
  closeTimeout,
  routeLimits,
  endpointRouter,
  etagModeOf,
  failingModule,
  failingRouter,
  fetchEtagModeOf,
  Lifecycle,
  type CloseOptions,
  logError,
  tellOnError,
  socketHandlerOf,
  withUpgradeRequired,
} from './dispatch';
import { handleFetch } from './fetch';
import { WEBSOCKET_EXPORT } from './http-methods';
import { mountChecksResponses } from './contract';
import { withContractSettings } from './define-handler';
import {
  expressMiddlewareAroundSocket,
  expressMiddlewareRefused,
  isExpressMiddleware,
} from './express-middleware';
import { compileRouteFiles, loadedExportInfo, loadModule, requireModule, type ModuleExports } from './load';
import {
  documentRoute,
  generateOpenAPI,
  referenceRoutes,
  type LoadedModules,
  type OpenAPIDocument,
} from './openapi';
import { openBuild, type OpenedBuild } from './manifest';
import type { Router } from './router';
import { runtime } from './runtime';
import { cacheSettingsOf, cacheStep, memoryCache } from './cache';
import { TopicHub, TopicStream } from './topics';
import type {
  CacheStore,
  MountOptions,
  OpenAPIOptions,
  PublishTopic,
  SubscribeTopics,
  TopicStats,
  WebMiddleware,
} from './types';
import { assertValidTree } from './validate';
import {
  attachWebSockets,
  loadWebSocketLibrary,
  type AttachableServer,
  type AttachOptions,
  type SocketMount,
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
  /**
   * Drops the answers the mount's cache keeps for a route pattern (`'/api/users/[id]'`) or a tag of a
   * route's `cache` export; resolves to how many (docs/caching.md). Without the `cache` option, 0.
   */
  invalidate(patternOrTag: string): Promise<number>;
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
  if (!isApp(appOrOptions)) return new Mount(appOrOptions ?? {}).endpoints();
  const app = appOrOptions;
  // An invalid tree (or a missing folder) throws here, synchronously, rather than rejecting: discovery and
  // validation are synchronous, and an app that forgot `await` must stop before it listens, not crash later
  // on an unhandled rejection. Under `await` the two are the same.
  // The host's settings make the tree stricter, never looser: its guards must cover every spelling the
  // tree serves. An app's are read again per request (src/bridge/host-routing.ts); a Router's only here,
  // since a request does not say which Router it came through. Sockets, which no app sees, use these.
  const middleware = new Mount({
    ...maybeOptions,
    caseSensitive:
      maybeOptions?.caseSensitive === true ||
      app.enabled?.('case sensitive routing') === true ||
      app.caseSensitive === true,
    strict: maybeOptions?.strict === true || app.enabled?.('strict routing') === true || app.strict === true,
  }).endpoints();
  app.use(middleware);
  const loaded = middleware.ready.then(() => middleware);
  // A module that fails to load rejects `loaded` for whoever awaits it; a caller who ignores the promise must
  // not crash on an unhandled rejection: requests then reach the app's error handler with that error.
  loaded.catch(() => {});
  return loaded;
}

/** What compiling a loaded tree gives: its router, and the tree as loaded (its exports as the modules have them). */
interface Compiled {
  router: Router<CompiledRoute>;
  loaded: DiscoveredTree;
}

/**
 * One mount: its settings, its tree, the route table requests read, the modules as last loaded, its
 * topics and the requests in flight. The constructor discovers and validates the tree, synchronously,
 * and starts loading the modules: once, or in development mode on every change (src/dev, which calls
 * `compile` and `swap`). `endpoints()` is what `mountEndpoints` returns.
 */
class Mount implements DevLoopHost {
  /** The options, with what every part of the mount reads resolved once. */
  readonly settings: MountSettings;
  /** A build (docs/build.md) holds a table validated when it was made: nothing to glob, read or validate. */
  readonly #build: OpenedBuild | undefined;
  /** The tree as discovered, or as the build holds it. */
  readonly #tree: DiscoveredTree;
  /** `.routes`: rows are updated in place once the modules are loaded, so a reference kept earlier stays current. */
  readonly routes: RouteInfo[];
  /**
   * The table requests read. It is known before any module loads (every endpoint `LOADING`): a request
   * no endpoint matches need not wait. Loading swaps in the real one; development mode a new one per change.
   */
  #router: Router<MountedRoute>;
  /** The tree as last loaded, with its modules: what `.openapi()` describes. */
  #described: { tree: DiscoveredTree; modules?: LoadedModules };
  /** One per mount, made here rather than per request: a mount whose code never publishes pays nothing more. */
  readonly #topics: TopicHub;
  /** What handlers reach of the topics: a stream's subscription ends with its request. */
  readonly #topicAccess: TopicAccess;
  /** Where cached answers are kept, when the mount's `cache` option asks for a store. */
  readonly #cacheStore: CacheStore | undefined;
  /** The requests in flight, for `close()` to wait for. */
  readonly #lifecycle = new Lifecycle();
  /** What the first `close()` returned: every later call returns it too. */
  #closing: Promise<void> | undefined;
  /** Where the middleware was reached, which tells `attach` where the tree's sockets are. */
  readonly #mountPaths = new MountPaths();
  /** The servers `attach` serves WebSockets on, whose sockets `close()` closes. */
  readonly #socketServers: SocketRegistry[] = [];
  /** Development mode's page of the route table and its requests, when it is on. */
  #inspector: Inspector | undefined;
  /**
   * Where the loaded tree uses `expressMiddleware`, which needs Node's `req` and `res`: `.fetch` refuses
   * such a tree, and so does the mount on Bun and Deno.
   */
  #expressMiddlewareIn: string[] = [];
  /** Development mode's watching and reloading, when it is on. */
  readonly #devLoop: DevLoop | undefined;
  /** `.ready`: resolves once every module is loaded; rejects on a module that fails to load. */
  readonly ready: Promise<void>;
  /**
   * Settles, never rejects, once loading has ended: what requests wait for. The error reaches whoever
   * awaits `.ready`; it must not also crash the process as an unhandled rejection (onError has been told).
   */
  readonly #loaded: Promise<void>;

  constructor(options: MountOptions) {
    this.settings = {
      ...options,
      onError: options.onError ?? logError,
      middleware: options.middleware ?? [],
      asyncContext: options.asyncContext === true,
      generated: [],
    };
    this.#cacheStore = options.cache ? (options.cache.store ?? memoryCache()) : undefined;
    this.#build = openBuild(options);
    if (this.#build && options.dev) throw devFromBuildError(this.#build);
    this.#tree = this.#build?.tree ?? discoverTree(options.dir ?? 'app');
    // Development mode reports an invalid tree on an error page instead (src/dev).
    const dev = this.#build ? undefined : resolveDevOptions(options.dev, this.#tree.root);
    if (!dev && !this.#build) assertValidTree(this.#tree);
    if (dev && dev.inspector !== false) {
      this.#inspector = createInspector(dev.inspector, {
        routes: () => this.routes,
        moduleOf: (file) => this.#moduleOf(file),
        middlewareOption: middlewareOptionNames(this.settings.middleware),
      });
      const onReload = dev.onReload;
      const inspector = this.#inspector;
      dev.onReload = (reload) => {
        inspector.reloaded();
        onReload?.(reload);
      };
    }
    this.settings.generated = [...this.#generatedRoutes(options), ...(this.#inspector?.routes ?? [])];
    assertGeneratedRoutesFree(this.#tree, this.settings);

    this.routes = describeRoutes(this.#tree);
    this.#router = endpointRouter<MountedRoute>(this.#tree, this.settings, () => LOADING);
    this.#described = { tree: this.#tree };
    const { onError } = this.settings;
    this.#topics = new TopicHub({
      backplane: options.topics?.backplane,
      backpressureLimit: options.topics?.backpressureLimit,
      report: (error, what, file, topic) =>
        tellOnError(onError, error, { route: '', file, export: what, topic, passedToNext: false }),
    });
    this.#topicAccess = {
      publish: (topic, data) => this.#topics.publish(topic, data),
      subscribe: (names, subscribeOptions, signal) =>
        new TopicStream(this.#topics, names, {
          ...subscribeOptions,
          signal: subscribeOptions?.signal ? AbortSignal.any([subscribeOptions.signal, signal]) : signal,
        }),
    };
    // Loading starts last: what it reads of the mount is all set by now.
    this.#devLoop = dev ? startDevLoop(this.#tree, dev, this) : undefined;
    this.ready = this.#devLoop?.ready ?? this.#loadTree();
    this.#loaded = this.ready.then(noop, noop);
  }

  /** The routes no file declares: the OpenAPI document and its reference page, when asked for. */
  #generatedRoutes(options: MountOptions): GeneratedRoute[] {
    const openapi = options.openapi;
    if (!openapi) return [];
    // The document is described anew for the tree each load makes current.
    const document = documentRoute(
      openapi,
      () => this.#described,
      (o) => this.#document(o),
    );
    return [document, ...(openapi.ui === undefined ? [] : referenceRoutes(openapi, this.#tree.root))];
  }

  /** The loaded module of the file `.routes` names, for the inspector: looked up by a map made once per load. */
  #moduleOf(file: string): ModuleExports | undefined {
    const described = this.#described;
    let byName = modulesByName.get(described);
    if (!byName) {
      byName = new Map(described.tree.files.map((f) => [f.displayPath, described.modules?.get(f.file)]));
      modulesByName.set(described, byName);
    }
    return byName.get(file);
  }

  /** The route's cache step, innermost, when it or a folder above it exports `cache`; none otherwise. */
  #cacheStepOf(file: RouteFile, mod: ModuleExports, folders: readonly ModuleExports[]): WebMiddleware[] {
    const settings = cacheSettingsOf(mod, folders, file.displayPath);
    if (!settings) return [];
    return [cacheStep(settings, this.#cacheStore, file.pattern)];
  }

  /** Makes `router` the table the next request uses. */
  swap(router: Router<CompiledRoute>): void {
    this.#router = router;
  }

  /**
   * Loads the tree, outside development mode, and swaps its table in. A module that fails to load is
   * told to `onError` once, here, and the routes it serves (as endpoint or folder middleware) answer
   * with its error, through the app's error handler; every other route works. The returned promise
   * rejects with the first such error, for a caller that awaits `mountEndpoints(app)` and wants to stop.
   */
  async #loadTree(): Promise<void> {
    const tree = this.#tree;
    const build = this.#build;
    const { onError } = this.settings;
    const failures: { file: RouteFile; error: unknown }[] = [];
    const load = async (file: RouteFile): Promise<ModuleExports> => {
      // A build's modules come from one import: if it fails, the whole tree fails, told once below.
      if (build) return (await build.modules).get(file.file)!;
      try {
        // Called for every file as the mount is made: what can be required is, before mountEndpoints returns. A
        // failure is caught here all the same, and becomes what a failed `import()` becomes.
        return requireModule(file.file, file.displayPath) ?? (await loadModule(file.file, file.displayPath));
      } catch (error) {
        failures.push({ file, error });
        return failingModule(file, patternsWithPage(tree).has(file.pattern), error);
      }
    };
    let compiled: Compiled;
    try {
      compiled = await this.compile(tree, load);
    } catch (error) {
      // The tree as loaded is invalid (`export * from` brought a conflict): no route can be trusted.
      this.swap(failingRouter(tree, this.settings, error));
      tellOnError(onError, error, {
        file: displayPath(tree.root),
        route: '/',
        export: '',
        passedToNext: false,
      });
      throw error;
    }
    this.swap(compiled.router);
    updateRoutes(this.routes, compiled.loaded);
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

  /**
   * Loads every module, confirms the exports static reading could not see, builds the router. The
   * tree as loaded becomes what `.openapi()` describes; the caller swaps the router in. `loadsAgain`: the files
   * development mode's reload loads afresh, the others' modules being those it loaded before.
   */
  async compile(
    tree: DiscoveredTree,
    load: (file: RouteFile) => Promise<ModuleExports>,
    loadsAgain?: ReadonlySet<string>,
  ): Promise<Compiled> {
    const { settings } = this;
    const modules = new Map<RouteFile, ModuleExports>();
    // JavaScript first: the first CommonJS TypeScript file registers tsx's require hook, which would compile an
    // ES module required after it to CommonJS, so such a module could then only load later, through import().
    // The TypeScript files are compiled ahead where they can be (src/load/compiled-routes.ts), once the JavaScript
    // ones have started loading, for the same reason.
    const files = tree.files.filter((f) => f.kind !== 'page');
    const typescript = files.filter((f) => isTypeScriptFile(f.file));
    const loading = files
      .filter((f) => !isTypeScriptFile(f.file))
      .map(async (file) => modules.set(file, await load(file)));
    if (!this.#build)
      compileRouteFiles(
        tree.root,
        typescript.map((f) => f.file).filter((file) => !loadsAgain || loadsAgain.has(file)),
        { reloading: loadsAgain !== undefined },
      );
    loading.push(...typescript.map(async (file) => modules.set(file, await load(file))));
    await Promise.all(loading);
    // Validate again against what the modules really export (`export * from`, computed exports, contracts).
    // The exports go along, for `.routes` to show which handlers have a contract.
    const loaded: DiscoveredTree = {
      ...tree,
      files: tree.files.map((file) => {
        const mod = modules.get(file);
        return mod ? { ...file, exports: loadedExportInfo(mod) } : file;
      }),
    };
    // A build's table was validated when it was made (and development mode never reads a build).
    if (!this.#build) assertValidTree(loaded);
    // `ws` is loaded only for a tree that serves WebSockets, and its absence is told at startup. Not on Bun
    // and Deno, where `attach` cannot serve them (it takes a Node server) and where importing `ws` asks Deno
    // for a permission to read the environment that the app has no other need of.
    const needsWs = [...modules].find(
      ([file, mod]) => file.kind === 'endpoint' && socketHandlerOf(mod, file.displayPath),
    );
    if (needsWs && runtime.name === 'Node') await loadWebSocketLibrary(needsWs[0].displayPath);

    const expressIn = [
      ...middlewareOptionNames(settings.middleware).filter((_, i) =>
        isExpressMiddleware(settings.middleware[i]),
      ),
      ...files
        .filter((f) => f.kind === 'middleware' && isExpressMiddleware(modules.get(f)!.default))
        .map((f) => f.displayPath),
    ];
    if (expressIn.length > 0 && runtime.name !== 'Node')
      throw expressMiddlewareRefused(expressIn, runtime.label);
    const pages = patternsWithPage(tree);
    const optionNames = middlewareOptionNames(settings.middleware);
    const checksResponses = mountChecksResponses(settings);
    const routeFor = (file: RouteFile): CompiledRoute => {
      const mod = modules.get(file)!;
      const folders = middlewareFilesFor(tree, file);
      // Handlers made by defineHandler get this mount's settings; no other export changes.
      const handlers = withContractSettings(mod, (exportName) => ({
        onInvalid: settings.onInvalid,
        checksResponses,
        report: (error, request) =>
          tellOnError(settings.onError, error, {
            request,
            route: file.pattern,
            file: file.displayPath,
            export: exportName,
            passedToNext: false,
          }),
      }));
      const socket = socketHandlerOf(mod, file.displayPath);
      if (socket && expressIn.length > 0) {
        const around = [
          ...optionNames.filter((_, i) => isExpressMiddleware(settings.middleware[i])),
          ...folders.filter((f) => isExpressMiddleware(modules.get(f)!.default)).map((f) => f.displayPath),
        ];
        if (around.length > 0) throw expressMiddlewareAroundSocket(file.displayPath, around);
      }
      return compileRoute(file, buildMethodTable(withUpgradeRequired(handlers), pages.has(file.pattern)), {
        socket,
        middleware: [
          ...settings.middleware,
          ...folders.map((f) => modules.get(f)!.default as WebMiddleware),
          ...this.#cacheStepOf(
            file,
            mod,
            folders.map((f) => modules.get(f)!),
          ),
        ],
        middlewareNames: [...optionNames, ...folders.map((f) => f.displayPath)],
        ...routeLimits(
          mod,
          folders.map((f) => modules.get(f)!),
          settings,
          file.displayPath,
        ),
        onError: settings.onError,
        localsFromNode: settings.locals,
        asyncContext: settings.asyncContext,
        topics: this.#topicAccess,
      });
    };
    // The modules by file, for `.openapi()`: it reads the contracts themselves.
    const byFile = new Map([...modules].map(([file, mod]) => [file.file, mod]));
    for (const route of settings.generated) modules.set(route.file, route.exports());
    const router = endpointRouter(tree, settings, routeFor);
    this.#described = { tree: loaded, modules: byFile };
    this.#expressMiddlewareIn = expressIn;
    return { router, loaded };
  }

  /** What `mountEndpoints` returns: the Connect middleware, with the rest of the mount's API on it. */
  endpoints(): EndpointsMiddleware {
    const { middleware, fetch } = this.#serve();
    return Object.assign(middleware, {
      ready: this.ready,
      routes: this.routes,
      fetch,
      close: (closeOptions?: CloseOptions) => this.#close(closeOptions),
      publish: this.#topicAccess.publish,
      subscribe: ((names, subscribeOptions) =>
        new TopicStream(this.#topics, names, subscribeOptions)) as SubscribeTopics,
      topicStats: () => this.#topics.stats(),
      openapi: async (openapiOptions: OpenAPIOptions = {}) => {
        await this.#loaded;
        return this.#document(openapiOptions);
      },
      attach: (server: AttachableServer, attachOptions?: AttachOptions) =>
        this.#attach(server, attachOptions),
      invalidate: async (patternOrTag: string) => (await this.#cacheStore?.invalidate(patternOrTag)) ?? 0,
    });
  }

  /** The Connect middleware and `.fetch` over the current table. */
  #serve(): { middleware: NodeMiddleware; fetch(request: Request): Promise<Response> } {
    const { settings } = this;
    const middleware = createNodeMiddleware({
      router: () => this.#router,
      loaded: this.#loaded,
      routing: routingOf(settings.caseSensitive === true, settings.strict === true),
      passUnservedMethods: settings.unservedMethods !== '405',
      etag: etagModeOf(settings.etag),
      lifecycle: this.#lifecycle,
      mountPaths: this.#mountPaths,
    });
    const fetchSettings = { etag: fetchEtagModeOf(settings.etag), lifecycle: this.#lifecycle };
    const fetch = async (request: Request) => {
      await this.#loaded;
      const expressIn = this.#expressMiddlewareIn;
      if (expressIn.length > 0) throw expressMiddlewareRefused(expressIn, '.fetch');
      return handleFetch(this.#router as Router<CompiledRoute>, request, fetchSettings);
    };
    return { middleware, fetch };
  }

  #document(openapiOptions: OpenAPIOptions): OpenAPIDocument {
    const { tree, modules } = this.#described;
    const { document, warnings } = generateOpenAPI(tree, modules, openapiOptions);
    const warn =
      openapiOptions.onWarning ?? ((warning) => console.warn(`express-file-endpoints: ${warning}`));
    for (const warning of warnings) warn(warning);
    return document;
  }

  #attach(server: AttachableServer, attachOptions?: AttachOptions): void {
    const sockets: SocketMount = {
      router: () => this.#router,
      loaded: this.#loaded,
      mayServeSockets: mayServeSockets(this.#tree),
      onError: this.settings.onError,
      topics: this.#topics,
      mountPaths: this.#mountPaths,
    };
    this.#socketServers.push(attachWebSockets(server, sockets, attachOptions));
  }

  /** Closes once: a second call gets the first call's promise, which waits for everything. */
  #close(closeOptions?: CloseOptions): Promise<void> {
    if (this.#closing) return this.#closing;
    let timeout: number;
    try {
      timeout = closeTimeout(closeOptions);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return (this.#closing = this.#closeAll(timeout));
  }

  async #closeAll(timeout: number): Promise<void> {
    await Promise.all([
      this.#lifecycle.close(timeout),
      this.#devLoop?.close(),
      this.#inspector?.close(),
      ...this.#socketServers.map((sockets) => sockets.closeAll()),
      this.#topics.close(),
    ]);
    await this.#cacheStore?.close?.();
  }
}

const noop = () => {};

const modulesByName = new WeakMap<object, Map<string, ModuleExports | undefined>>();

/**
 * Whether some endpoint may serve WebSockets before the modules load: static reading tells, and a
 * file it could not read completely might.
 */
function mayServeSockets(tree: DiscoveredTree): boolean {
  return tree.files.some(
    (file) =>
      file.kind === 'endpoint' &&
      (file.exports?.namesIncomplete !== false || file.exports.names.includes(WEBSOCKET_EXPORT)),
  );
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

/**
 * A generated route may not take the URL of an endpoint: one of the two would never be reached.
 * Routes with params or catch-alls still match other URLs, so only a route of the same static path conflicts.
 */
function assertGeneratedRoutesFree(tree: DiscoveredTree, settings: MountSettings): void {
  const spelled = (pattern: string) => (settings.caseSensitive ? pattern : pattern.toLowerCase());
  for (const route of settings.generated) {
    const taken = tree.files.find(
      (file) =>
        file.kind === 'endpoint' &&
        file.segments.every((segment) => segment.kind === 'static') &&
        spelled(file.pattern) === spelled(route.file.pattern),
    );
    if (taken) {
      throw new Error(
        `express-file-endpoints: ${route.file.displayPath} serves ${route.file.pattern}, which ${taken.displayPath} serves too: move one of them.`,
      );
    }
  }
}
