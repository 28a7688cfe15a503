/** load: RouteFile -> module exports (import(); TypeScript through tsx when needed). */
export { loadModule, EndpointLoadError, type ModuleExports } from './load-module';
