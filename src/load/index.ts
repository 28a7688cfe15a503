/** load: RouteFile -> module exports (import(); TypeScript through tsx whenever it can be found). */
export { loadModule, type ModuleExports } from './load-module';
export { EndpointLoadError } from './load-error';
