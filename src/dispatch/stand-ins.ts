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
import { HTTP_METHODS } from './http-methods';
import { buildMethodTable } from './method-table';
import { markTold } from './report-error';
import { DEFAULT_BODY_LIMIT } from './request-body';
import { compileRoute, endpointRouter, type CompiledRoute, type MountSettings } from './route';

/** What every handler of a stand-in answers with. */
export type StandInAnswer = (request: Request) => Response;

/** Exports for a module that failed to load: its handlers (or its middleware) throw the load error. */
export function failingModule(file: RouteFile, pageServesGet: boolean, error: unknown) {
  return answeringModule(file, pageServesGet, throwing(error));
}

/** A route table in which every endpoint of the tree throws `error`. */
export function failingRouter(tree: DiscoveredTree, settings: MountSettings, error: unknown) {
  return answeringRouter(tree, settings, throwing(error));
}

/** The mount tells `onError` about `error` once, when it loads: the requests it fails do not tell it again. */
function throwing(error: unknown): StandInAnswer {
  markTold(error);
  return () => {
    throw error;
  };
}

/** Exports that answer every request with `answer`. Beside a page, GET and HEAD stay the page's. */
export function answeringModule(
  file: RouteFile,
  pageServesGet: boolean,
  answer: StandInAnswer,
): Record<string, unknown> {
  if (file.kind === 'middleware') return { default: answer };
  if (!pageServesGet) return { ANY: answer };
  const stand: Record<string, unknown> = {};
  for (const method of HTTP_METHODS) if (method !== 'GET' && method !== 'HEAD') stand[method] = answer;
  return stand;
}

/** Every endpoint of the tree, each answering with `answer`. */
export function answeringRouter(
  tree: DiscoveredTree,
  settings: MountSettings,
  answer: StandInAnswer,
): Router<CompiledRoute> {
  // No page: with the tree invalid, the stand-in answers every method.
  return endpointRouter(tree, settings, (file) =>
    compileRoute(file, buildMethodTable(answeringModule(file, false, answer)), {
      middleware: [],
      middlewareNames: [],
      bodyLimit: settings.bodyLimit ?? DEFAULT_BODY_LIMIT,
      onError: settings.onError,
    }),
  );
}
