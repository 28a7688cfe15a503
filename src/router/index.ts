/**
 * router: the route table. Entries (URL segments + a value) -> `match(rawPath)` giving the best
 * route's value and its decoded params; precedence static > `[x]` > `[...x]` > `[[...x]]`.
 */
export { MALFORMED_PATH } from './types';
export type { RouteEntry, RouteMatch, Router, RouterOptions } from './types';
export { createRouter } from './create-router';
export { urlSegment } from './url-segment';
export { absoluteForm, isRewrittenPath, targetPath } from './raw-path';
