/**
 * The route table as users see it (`.routes`, `express-file-endpoints routes`): one row per
 * endpoint with the methods dispatch will serve, worked out from the statically read exports,
 * and, once the modules are loaded, what their contracts validate.
 */
import { middlewareFilesFor, type DiscoveredTree } from './discover';
import { methodsFor } from './route';
import { WEBSOCKET_EXPORT } from './http-methods';
import type { ContractSummary } from './types';

/** One row of the route table. */
export interface RouteInfo {
  /** URL pattern, e.g. `/api/users/[id]`. */
  pattern: string;
  /** Methods with their own handler (GET brings HEAD; OPTIONS is always answered), then `ANY` for a catch-all export. */
  methods: string[];
  /** Endpoint file, relative to cwd. */
  file: string;
  /** Folder middleware files that wrap it, outermost first. */
  middleware: string[];
  /** Exports could not all be read statically (`export *`): more methods may be served. */
  incomplete: boolean;
  /** The endpoint exports `websocket`: upgrade requests for its route open a WebSocket. */
  websocket: boolean;
  /**
   * The handlers made by `defineHandler`, by export (`POST`, `ANY`, …): what each validates and
   * the statuses its `responses` list. Present once the modules are loaded (`.routes` after
   * `.ready`, `routes --load`); static reading cannot know it.
   */
  contracts?: Record<string, ContractSummary>;
}

export function describeRoutes(tree: DiscoveredTree): RouteInfo[] {
  const pagePatterns = patternsWithPage(tree);
  return tree.files
    .filter((file) => file.kind === 'endpoint')
    .map((file) => {
      const row: RouteInfo = {
        pattern: file.pattern,
        methods: methodsFor(file.exports?.names ?? [], pagePatterns.has(file.pattern)),
        file: file.displayPath,
        middleware: middlewareFilesFor(tree, file).map((f) => f.displayPath),
        incomplete: file.exports?.namesIncomplete ?? true,
        websocket: file.exports?.names.includes(WEBSOCKET_EXPORT) ?? false,
      };
      if (file.exports?.contracts) row.contracts = file.exports.contracts;
      return row;
    });
}

/**
 * Puts the table of `tree` into `rows` in place: the row of an endpoint already there stays the same
 * object, its fields updated, so a row kept before the modules loaded (or before a reload in
 * development mode) says what the table says now.
 */
export function updateRoutes(rows: RouteInfo[], tree: DiscoveredTree): void {
  const kept = new Map(rows.map((row) => [row.file, row]));
  const updated = describeRoutes(tree).map((row) => {
    const old = kept.get(row.file);
    if (!old) return row;
    delete old.contracts;
    return Object.assign(old, row);
  });
  rows.splice(0, rows.length, ...updated);
}

/** URL patterns that a page serves; route groups collapse, so this compares URLs, not folders. */
export function patternsWithPage(tree: DiscoveredTree): Set<string> {
  return new Set(tree.files.filter((f) => f.kind === 'page').map((f) => f.pattern));
}
