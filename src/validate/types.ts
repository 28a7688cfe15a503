/** A problem found in an endpoint tree. Every problem names the files involved. */
export interface Problem {
  /** Stable machine-readable kind, e.g. `page-conflict`, `duplicate-route`. */
  code: string;
  /** One sentence, naming the file(s) and what to do. */
  message: string;
  /** Files involved, relative to `process.cwd()` with `/` separators. */
  files: string[];
  /** The URL pattern involved, when there is one. */
  url?: string;
}
