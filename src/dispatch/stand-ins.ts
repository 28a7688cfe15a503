/**
 * What stands in for code that cannot serve, so that only what is broken fails and the rest of the
 * tree keeps working:
 *   - a module that failed to load is replaced by one whose handlers (or, for a folder middleware,
 *     whose middleware) give one answer;
 *   - a tree that cannot be routed as it is (two routes for one URL) gets a table in which every
 *     endpoint gives it.
 * Outside development the answer throws the error, which goes to the app's error handler like any
 * other (`failingModule`, `failingRouter`); development mode answers with its error page (src/dev).
 */
import type { RouteFile, DiscoveredTree } from '../discover';
import type { Router } from '../router';
import { HTTP_METHODS } from '../http-methods';
import { markTold } from './report-error';
import { DEFAULT_BODY_LIMIT } from './body-rules';
import { buildMethodTable, compileRoute, type CompiledRoute, type MountSettings } from '../route';
import { endpointRouter } from './route-table';

/** What every handler of a stand-in answers with. */
export type StandInHandler = (request: Request) => Response;

/** Exports for a module that failed to load: its handlers (or its middleware) throw the load error. */
export function failingModule(file: RouteFile, pageServesGet: boolean, error: unknown) {
  return answeringModule(file, pageServesGet, throwing(error));
}

/** A route table in which every endpoint of the tree throws `error`. */
export function failingRouter(tree: DiscoveredTree, settings: MountSettings, error: unknown) {
  return answeringRouter(tree, settings, throwing(error));
}

/** The mount tells `onError` about `error` once, when it loads: the requests it fails do not tell it again. */
function throwing(error: unknown): StandInHandler {
  markTold(error);
  return () => {
    throw error;
  };
}

/** Exports that answer every request with `handler`. Beside a page, GET and HEAD stay the page's. */
export function answeringModule(
  file: RouteFile,
  pageServesGet: boolean,
  handler: StandInHandler,
): Record<string, unknown> {
  if (file.kind === 'middleware') return { default: handler };
  if (!pageServesGet) return { ANY: handler };
  const stand: Record<string, unknown> = {};
  for (const method of HTTP_METHODS) if (method !== 'GET' && method !== 'HEAD') stand[method] = handler;
  return stand;
}

/** Every endpoint of the tree, each answering with `handler`. */
export function answeringRouter(
  tree: DiscoveredTree,
  settings: MountSettings,
  handler: StandInHandler,
): Router<CompiledRoute> {
  // No page: with the tree invalid, the stand-in answers every method.
  return endpointRouter(tree, settings, (file) =>
    compileRoute(file, buildMethodTable(answeringModule(file, false, handler)), {
      middleware: [],
      middlewareNames: [],
      bodyLimit: settings.bodyLimit ?? DEFAULT_BODY_LIMIT,
      onError: settings.onError,
    }),
  );
}
