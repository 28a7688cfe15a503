/**
 * route: what a route is, with no I/O: its method table (which export answers which method), the
 * compiled route every front serves, Express's path syntax for `req.route`, and routes no file
 * declares (generated routes).
 */
export { buildMethodTable, dispatch, methodsFor } from './method-table';
export type { MethodTable, HandlerEntry, Dispatch } from './method-table';
export { compileRoute, generatedRoute, LOADING, middlewareOptionNames, pagePath } from './route';
export type {
  CompiledRoute,
  ExpressStyleRoute,
  GeneratedRoute,
  MountedRoute,
  MountSettings,
  RouteParts,
  TopicAccess,
} from './route';
