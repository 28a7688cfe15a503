/** The options of development mode, and what it reports. */

/** `mountEndpoints({ dev: { … } })`: development mode with settings. */
export interface DevOptions {
  /** Milliseconds to wait after the last file event before reloading (editors write in bursts). Default 30. */
  debounce?: number;
  /**
   * Where the typed-routes declaration is written on every change, or `false` to write none.
   * Default: `express-file-endpoints-env.d.ts` beside `dir` (in its parent folder) when that file
   * exists (`typegen` wrote it), else `node_modules/.cache/express-file-endpoints/env.d.ts` in the
   * project, so nothing is written among the app's sources unasked.
   */
  types?: string | false;
  /** Where reloads and problems are reported. Default `console`. */
  logger?: DevLogger;
  /** Called after every reload (and the first load), once the new route table is in use. */
  onReload?: (reload: DevReload) => void;
  /**
   * Where the development inspector is served, below the mount: a page of the route table and the last
   * requests of each route, live (docs/development-mode.md). `false`: none. Default `'/__endpoints'`.
   */
  inspector?: string | false;
}

export interface DevLogger {
  info(message: string): void;
  error(message: string): void;
}

/** One thing wrong with the tree as the development error page shows it. */
export interface DevProblem {
  /** What kind of problem: `syntax-error`, `load-error`, `duplicate-route`, … */
  code: string;
  message: string;
  /** Files involved, relative to the working directory. */
  files: string[];
  /** `file:line:column` of the error, when known. */
  location?: string;
}

/** What `onReload` is told after each build of the tree. */
export interface DevReload {
  /** Empty when the whole tree serves its current code. */
  problems: DevProblem[];
  /** Modules loaded afresh (changed, or importing a changed one), relative to the working directory. */
  reloaded: string[];
}
