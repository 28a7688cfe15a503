/**
 * The development loop: watch the tree; on a change, reload the changed modules and their
 * importers, re-discover and re-validate the tree, build a new route table and swap it in. The
 * swap is one assignment in mount.ts: a request already running keeps the table (and the module)
 * it started with, and the request path reads a variable, nothing more, with or without dev mode.
 *
 * Nothing here throws at the process: a tree that does not validate, or a module that does not
 * load, becomes an error page for the routes it breaks (see error-routes.ts), printed once to the
 * console, and the next save that fixes it brings the routes back.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { updateRoutes, type RouteInfo } from '../describe-routes';
import { discoverTree, displayPath, isCodeFile, type DiscoveredTree, type RouteFile } from '../discover';
import type { CompiledRoute, MountSettings } from '../route';
import { loadModule, type ModuleExports } from '../load';
import type { Router } from '../router';
import { routeDeclarations, writeIfChanged } from '../typed-routes';
import { plural } from '../words';
import { validateTree, type Problem, EndpointValidationError } from '../validate';
import type { ResolvedDevOptions } from './dev-options';
import { formatProblems } from './error-page';
import { errorRouter, standInModule } from './error-routes';
import { createImportGraph } from './import-graph';
import { problemOfLoadError } from './locate-error';
import { invalidateModules } from './module-versions';
import type { CompileTree } from './types';
import type { DevProblem } from '../types';
import { watchTree } from './watch-tree';

/** The mount, as the dev loop sees it. */
export interface DevLoopHost {
  readonly settings: MountSettings;
  /** `.routes`, updated in place. */
  readonly routes: RouteInfo[];
  compile: CompileTree;
  /** Makes `router` the table the next request uses. */
  swap(router: Router<CompiledRoute>): void;
}

export interface DevLoop {
  /** Resolves after the first build, whatever its problems (they are on the error page). */
  ready: Promise<void>;
  /** Stops watching, once the reload under way (if any) has finished. */
  close(): Promise<void>;
}

type Loaded = { exports: ModuleExports } | { problem: DevProblem };

export function startDevLoop(tree: DiscoveredTree, dev: ResolvedDevOptions, host: DevLoopHost): DevLoop {
  const root = tree.root;
  // Loaded modules by file; a reload drops the stale ones, so everything else is reused as is.
  const modules = new Map<string, Loaded>();
  const graph = createImportGraph(root);
  /** Whether a build has loaded the tree, or begun to. */
  let loading = false;
  let lastReport = '';

  /** `stale`, on a reload: what changed, and what imports it. */
  const build = async (current: DiscoveredTree, stale: ReadonlySet<string> = new Set()): Promise<void> => {
    const reloaded = [...stale].filter((file) => isCodeFile(file) && existsSync(file));
    // What this build loads: every file it holds no module of; all of them until a build has loaded any, which
    // is a start like any other (a tree invalid at first loads nothing).
    const loadsAgain = loading
      ? new Set(current.files.map((file) => file.file).filter((file) => !modules.has(file)))
      : undefined;
    const started = performance.now();
    const problems: DevProblem[] = validateTree(current).map(fromValidation);
    if (problems.length === 0) {
      const load = async (file: RouteFile): Promise<ModuleExports> => {
        let entry = modules.get(file.file);
        if (!entry) {
          entry = await loadForDev(file, () => graph.dependenciesOf(file.file));
          modules.set(file.file, entry);
        }
        if ('exports' in entry) return entry.exports;
        problems.push(entry.problem);
        return standInModule(file, current, [entry.problem]);
      };
      try {
        loading = true;
        const { router, loaded } = await host.compile(current, load, loadsAgain);
        host.swap(router);
        updateRoutes(host.routes, loaded);
      } catch (error) {
        problems.push(...problemsOf(error));
      }
    }
    const invalid = problems.some((p) => p.code !== 'syntax-error' && p.code !== 'load-error');
    if (invalid) {
      // The tree itself is invalid: no table can be built from it, so all of it shows the problems.
      host.swap(errorRouter(current, host.settings, problems));
      updateRoutes(host.routes, current);
    }
    writeTypes(current);
    report(problems, invalid, reloaded, performance.now() - started);
  };

  const writeTypes = (current: DiscoveredTree) => {
    if (dev.types === false) return;
    try {
      writeIfChanged(dev.types, routeDeclarations(current, dev.types));
    } catch (error) {
      dev.logger.error(`express-file-endpoints (dev): could not write ${dev.types}: ${String(error)}`);
    }
  };

  const report = (problems: DevProblem[], invalid: boolean, reloaded: readonly string[], ms: number) => {
    const text = problems.length > 0 ? formatProblems(problems, invalid) : '';
    if (text && text !== lastReport) dev.logger.error(text);
    else if (!text && (lastReport || reloaded.length > 0)) {
      // A fix is said even when it reloaded nothing: removing one of two files for a URL loads no module.
      const did = [
        ...(lastReport ? ['fixed'] : []),
        ...(reloaded.length > 0 ? [`reloaded ${plural(reloaded.length, 'module')}`] : []),
      ];
      dev.logger.info(`express-file-endpoints (dev): ${did.join('; ')} in ${Math.round(ms)} ms`);
    }
    lastReport = text;
    dev.onReload?.({ problems, reloaded: reloaded.map((file) => displayPath(file)) });
  };

  const reload = async (paths: readonly string[]): Promise<void> => {
    graph.update(paths);
    const changed = new Set(paths);
    // A removed or renamed folder is one event: everything loaded from under it changed.
    for (const file of modules.keys())
      if (paths.some((p) => file.startsWith(p + path.sep))) changed.add(file);
    const stale = graph.withImporters(changed);
    invalidateModules(stale);
    for (const file of stale) modules.delete(file);
    let current: DiscoveredTree;
    try {
      current = discoverTree(root);
    } catch (error) {
      // The folder itself is gone: nothing to serve until it is back.
      current = { root, files: [] };
      dev.logger.error(`express-file-endpoints (dev): ${String(error)}`);
    }
    await build(current, stale);
  };

  let queue = build(tree);
  const ready = queue.catch((error: unknown) =>
    dev.logger.error(`express-file-endpoints (dev): ${String(error)}`),
  );
  // Who imports whom is first needed at a save: read once the tree serves, off the way to `.ready`.
  void ready.then(() => setTimeout(() => graph.read(), 0).unref());
  const watcher = watchTree(
    root,
    dev.debounce,
    // One reload at a time, in order: a save during a reload waits for it.
    (paths) => {
      queue = queue.then(
        () => reload(paths),
        () => reload(paths),
      );
      queue.catch((error: unknown) =>
        dev.logger.error(`express-file-endpoints (dev): reload failed: ${String(error)}`),
      );
    },
    (error) => dev.logger.error(`express-file-endpoints (dev): watching ${root} failed: ${error.message}`),
  );
  return {
    ready,
    close: async () => {
      watcher.close();
      await queue.catch(() => {});
    },
  };
}

/** `dependencies`: what the file imports, the file first, asked only when it fails to load. */
async function loadForDev(file: RouteFile, dependencies: () => readonly string[]): Promise<Loaded> {
  try {
    return { exports: await loadModule(file.file, file.displayPath) };
  } catch (error) {
    return { problem: problemOfLoadError(error, file, dependencies()) };
  }
}

function problemsOf(error: unknown): DevProblem[] {
  if (error instanceof EndpointValidationError) return error.problems.map(fromValidation);
  return [{ code: 'error', message: error instanceof Error ? error.message : String(error), files: [] }];
}

function fromValidation(problem: Problem): DevProblem {
  return { code: problem.code, message: problem.message, files: problem.files };
}
