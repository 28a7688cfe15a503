/**
 * dev: development mode and typed routes. Watching the tree and reloading changed modules with no
 * restart (dev-loop.ts, watch-tree.ts, import-graph.ts, module-versions.ts), the error page for
 * broken code (error-page.ts, error-routes.ts, locate-error.ts), and the typed-routes declaration
 * file with the `url()` helper (typegen.ts, route-types.ts, url.ts).
 */
export { resolveDevOptions, type ResolvedDevOptions } from './dev-options';
export { startDevLoop, type DevLoop } from './dev-loop';
export { typegenCommand, routeDeclarations } from './typegen';
export { url } from './url';
export { failingModule, failingRouter } from './error-routes';
export type { RouteRegistry, RoutePattern, RouteParams, RouteContext, UrlParams } from './route-types';
export type { DevOptions, DevLogger, DevProblem, DevReload, CompileTree } from './types';
