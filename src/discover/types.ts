/** What discovery produces: every route-relevant file under the tree, with its parsed URL segments. */
import type { ContractSummary } from '../types';

/** One URL segment of a route pattern. */
export type Segment =
  | { kind: 'static'; value: string }
  /** `[name]`: exactly one segment. */
  | { kind: 'param'; name: string }
  /** `[...name]`: one or more segments. */
  | { kind: 'catchAll'; name: string }
  /** `[[...name]]`: zero or more segments. */
  | { kind: 'optionalCatchAll'; name: string };

/** What static reading of a module found, without running it. */
export interface ExportInfo {
  /** Export names, `default` included. */
  names: string[];
  /**
   * `names` may be incomplete until the module is imported: `export * from '…'`, a CommonJS re-export,
   * `module.exports = <something not readable statically>` (for the lexers, anything but a function), or a file
   * the lexers could not read.
   */
  namesIncomplete: boolean;
  /**
   * Exports that are certainly not functions (`export const GET = 42`), when that can be told: from the syntax
   * tree, every literal export; from the lexers, none, unless a handler export looked like a literal and the
   * module was read from its syntax tree for it.
   */
  nonFunctions: string[];
  /** Why the lexers could not read the file (not necessarily a syntax error: load time decides). */
  parseError?: string;
  /**
   * The handlers made by `defineHandler`, by export (`POST`, `ANY`, …). Known once the module is
   * loaded (`{}` when none has a contract); static reading cannot tell, and leaves it out.
   */
  contracts?: Record<string, ContractSummary>;
}

export type RouteFileKind = 'endpoint' | 'page' | 'middleware';

export interface RouteFile {
  kind: RouteFileKind;
  /** Absolute path on disk. */
  file: string;
  /** Path relative to `process.cwd()` with `/` separators: what messages show. */
  displayPath: string;
  /** Folder names from the tree root to the file's folder, groups included (`['(admin)', 'users', '[id]']`). */
  folders: string[];
  /** What each of `folders` means, parsed once here (validation reads it rather than parsing again). */
  parsedFolders: ParsedFolder[];
  /** URL segments (groups removed). Malformed folder names are kept as static and reported by validation. */
  segments: Segment[];
  /** The URL pattern, e.g. `/api/users/[id]`; `/` for the root. */
  pattern: string;
  /** Export names read statically (endpoint and middleware files only). */
  exports?: ExportInfo;
}

export interface DiscoveredTree {
  /** Absolute path of the tree root. */
  root: string;
  files: RouteFile[];
  /**
   * `route.*` and `index.*` files (Next.js's name, and the usual one for a folder's module), with their exports:
   * never served, but validation reports one that exports handlers, since it was surely meant as an endpoint.
   */
  misnamed?: MisnamedFile[];
}

/** A `route.*` or `index.*` file of the tree: where it is, the URL its folder has, and what it exports. */
export type MisnamedFile = Pick<RouteFile, 'file' | 'displayPath' | 'pattern'> & { exports: ExportInfo };

/** What a folder name means: a URL segment, a group, a private folder, or a malformed name. */
export type ParsedFolder =
  | Segment
  /** `(name)`: organises files without adding a URL segment. */
  | { kind: 'group'; name: string }
  /** `_name`: ignored by discovery, with everything below it. */
  | { kind: 'private'; name: string }
  /** Looks dynamic or grouped but is not written correctly; `reason` completes "is not a valid segment: …". */
  | { kind: 'malformed'; value: string; reason: string };
