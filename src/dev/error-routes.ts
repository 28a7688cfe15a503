/**
 * What stands in for broken code in development, so that only what is broken answers with the
 * error page and the rest of the tree keeps working:
 *   - a module that failed to load is replaced by one whose handlers (or, for a folder
 *     middleware, whose middleware) answer with the error page;
 *   - an invalid tree (two routes for one URL, a bad folder name) cannot be routed as it is, so
 *     every endpoint of it answers with the error page until it is fixed.
 */
import { DEFAULT_BODY_LIMIT } from '../bridge';
import { patternsWithPage } from '../describe-routes';
import type { DiscoveredTree, RouteFile } from '../discover';
import {
  buildMethodTable,
  compileRoute,
  endpointRouter,
  HTTP_METHODS,
  logError,
  markTold,
  type CompiledRoute,
} from '../dispatch';
import type { ModuleExports } from '../load';
import type { Router } from '../router';
import type { MountOptions } from '../types';
import { errorPage } from './error-page';
import type { DevProblem } from './types';

/** Exports for a module that failed to load, in development. Beside a page, GET and HEAD stay the page's. */
export function standInModule(file: RouteFile, tree: DiscoveredTree, problems: readonly DevProblem[]) {
  return answeringModule(file, tree, showing(problems));
}

/**
 * Exports for a module that failed to load, outside development: its handlers (or its middleware)
 * throw the load error, which goes to the app's error handler like any other error.
 */
export function failingModule(file: RouteFile, tree: DiscoveredTree, error: unknown) {
  return answeringModule(file, tree, throwing(error));
}

/** A route table in which every endpoint of the tree answers with the error page. */
export function errorRouter(tree: DiscoveredTree, options: MountOptions, problems: readonly DevProblem[]) {
  return standInRouter(tree, options, showing(problems));
}

/** A route table in which every endpoint of the tree throws `error`. */
export function failingRouter(tree: DiscoveredTree, options: MountOptions, error: unknown) {
  return standInRouter(tree, options, throwing(error));
}

type Answer = (request: Request) => Response;

function showing(problems: readonly DevProblem[]): Answer {
  return (request) => errorPage(request, problems);
}

/** The mount tells `onError` about `error` once, when it loads: the requests it fails do not tell it again. */
function throwing(error: unknown): Answer {
  markTold(error);
  return () => {
    throw error;
  };
}

function answeringModule(file: RouteFile, tree: DiscoveredTree, answer: Answer): ModuleExports {
  if (file.kind === 'middleware') return { default: answer };
  if (!patternsWithPage(tree).has(file.pattern)) return { ANY: answer };
  const stand: ModuleExports = {};
  for (const method of HTTP_METHODS) if (method !== 'GET' && method !== 'HEAD') stand[method] = answer;
  return stand;
}

/** Every endpoint of the tree, each answering with `answer`. */
function standInRouter(tree: DiscoveredTree, options: MountOptions, answer: Answer): Router<CompiledRoute> {
  // No page: with the tree invalid, the stand-in answers every method.
  const pageless = { ...tree, files: [] };
  return endpointRouter(tree, options, (file) =>
    compileRoute(file, buildMethodTable(answeringModule(file, pageless, answer)), {
      middleware: [],
      middlewareNames: [],
      bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
      onError: options.onError ?? logError,
    }),
  );
}
