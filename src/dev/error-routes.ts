/**
 * What stands in for broken code in development, so that only what is broken answers with the
 * error page and the rest of the tree keeps working:
 *   - a module that failed to load is replaced by one whose handlers (or, for a folder
 *     middleware, whose middleware) answer with the error page;
 *   - an invalid tree (two routes for one URL, a bad folder name) cannot be routed as it is, so
 *     every endpoint of it answers with the error page until it is fixed.
 * The stand-ins themselves are the ones a mount uses outside development (src/dispatch), with the
 * error page for an answer.
 */
import { patternsWithPage } from '../describe-routes';
import type { DiscoveredTree, RouteFile } from '../discover';
import { answeringModule, answeringRouter, type StandInHandler } from '../dispatch';
import type { MountSettings } from '../route';
import { errorPage } from './error-page';
import type { DevProblem } from '../types';

/** Exports for a module that failed to load, in development. Beside a page, GET and HEAD stay the page's. */
export function standInModule(file: RouteFile, tree: DiscoveredTree, problems: readonly DevProblem[]) {
  return answeringModule(file, patternsWithPage(tree).has(file.pattern), showing(problems));
}

/** A route table in which every endpoint of the tree answers with the error page. */
export function errorRouter(tree: DiscoveredTree, settings: MountSettings, problems: readonly DevProblem[]) {
  return answeringRouter(tree, settings, showing(problems));
}

function showing(problems: readonly DevProblem[]): StandInHandler {
  return (request) => errorPage(request, problems);
}
