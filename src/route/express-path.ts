/**
 * A route pattern in Express 5's own syntax (path-to-regexp 8), for `req.route.path`, which
 * request loggers and metrics read to name a request by its route rather than its URL:
 *   [id] -> :id,   [...path] -> *path,   [[...path]] -> {/*path} (optional),
 * and characters path-to-regexp reserves in static segments escaped with a backslash. Route
 * groups add nothing. Paths are relative to the mount, as Express's own `req.route.path` is.
 * Express knowledge, so it lives with the route it names rather than in the host-free router.
 */
import type { Segment } from '../discover';

const RESERVED = /[()[\]?+!{}*:\\]/g;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function expressPath(segments: readonly Segment[]): string {
  let path = '';
  for (const segment of segments) {
    switch (segment.kind) {
      case 'static':
        path += `/${segment.value.replace(RESERVED, '\\$&')}`;
        break;
      case 'param':
        path += `/:${name(segment.name)}`;
        break;
      case 'catchAll':
        path += `/*${name(segment.name)}`;
        break;
      case 'optionalCatchAll':
        // At the root there is no `/` to make optional: `/{*path}`.
        path += path === '' ? `/{*${name(segment.name)}}` : `{/*${name(segment.name)}}`;
        break;
    }
  }
  return path === '' ? '/' : path;
}

/** path-to-regexp quotes names that are not identifiers: `[user-id]` -> `:"user-id"`. */
function name(value: string): string {
  return IDENTIFIER.test(value) ? value : JSON.stringify(value);
}
