/**
 * typed-routes: route patterns as types. The `RouteRegistry` that the generated declaration file
 * fills in (route-types.ts), `url()` that builds a URL from a pattern and its params (url.ts), and
 * that file's text (route-declarations.ts), written by `typegen` and by development mode.
 */
export { url } from './url';
export { defaultTypesFile, routeDeclarations, writeIfChanged } from './route-declarations';
export type {
  RouteRegistry,
  RoutePattern,
  RouteParams,
  RouteContext,
  RouteLocals,
  EndpointMethods,
  HandlerTypes,
  WebSocketRouteRegistry,
  WebSocketRoute,
  TopicsOf,
} from './route-types';
