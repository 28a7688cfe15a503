/**
 * check: what would make `mountEndpoints` fail at startup, found at build time — a real parse of every
 * endpoint, middleware and local module (`checkStartup`), and `check --load`'s import of each module in a
 * child process. Used by the CLI only; `mountEndpoints` never loads it.
 */
export { checkStartup, type StartupReport } from './check-startup';
export { loadInChild, runInChild, runLoadWorker, LOAD_WORKER_FLAG } from './load-in-child';
