/**
 * load: RouteFile -> module exports (require() at the call where it can, import() otherwise; TypeScript through
 * tsx whenever it can be found; a test runner's own `require` when one loaded the library).
 */
export { importBuild, importPackage, loadModule } from './load-module';
export { moduleExports, type ModuleExports } from './module-exports';
export { requireModule } from './require-module';
export { compileRouteFiles, filesOfBundle, forgetBundled, installRouteFileHook } from './compiled-routes';
export { realModulePath } from './real-path';
export { EndpointLoadError } from './load-error';
export { esbuildLocation, formatLocation, isParseFailure } from './source-location';
export { loadedExportInfo } from './export-info';
// For `check`: what the loader would do with a file, without loading it.
export { isCommonJsFile, isStrictlyCommonJsFile } from './module-format';
export { canFindTsx } from './tsx-loader';
export { installDevCommand, packageManagerOf, type PackageManager } from './package-manager';
export { isRelative, resolveImport } from './resolve-import';
