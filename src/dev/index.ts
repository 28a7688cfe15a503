/**
 * dev: development mode. Watching the tree and reloading changed modules with no restart
 * (dev-loop.ts, watch-tree.ts, import-graph.ts, module-versions.ts), the error page for broken code
 * (error-page.ts, error-routes.ts, locate-error.ts), and the typed-routes file rewritten on every
 * change (through src/typed-routes).
 */
export { resolveDevOptions } from './dev-options';
export { startDevLoop, type DevLoop, type DevLoopHost } from './dev-loop';
export { createInspector, type Inspector } from './inspector';
