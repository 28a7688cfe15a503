/**
 * createRouter: the route table. Turns a raw request path into the matching route's value and
 * its params, using the segment trie of `./trie`.
 *
 * The invariant every host relies on: the tree compares the path as it was sent, the
 * way Express's router and Connect compare it. A static folder matches only its canonical
 * encoding (`urlSegment`), letter case aside when case-insensitive; only what a param or catch-all
 * captures is percent-decoded. So whatever path a guard mounted on a prefix in front of the tree
 * (`app.use('/admin', guard)`) does not see, the tree does not serve under that prefix either:
 * `/%61dmin/secret` is not `/admin/secret`.
 */
import type { Params } from '../types';
import { decodeSegment } from './decode-segment';
import { buildTrie, findLeaf, type ParamCapture, type TrieNode } from './trie';
import { MALFORMED_PATH, type RouteEntry, type RouteMatch, type Router, type RouterOptions } from './types';

const SLASH = 0x2f;

/** The parts of the root path `/`: no segments after the leading empty one. Shared, never written to. */
const ROOT_PARTS: readonly string[] = [''];

export function createRouter<T>(entries: readonly RouteEntry<T>[], options: RouterOptions = {}): Router<T> {
  const own = { caseSensitive: options.caseSensitive === true, strict: options.strict === true };
  // One trie per letter-case rule: the router's own is built now, the other the first time a
  // request's host asks for it (most mounts only ever see one setting).
  let sensitive = own.caseSensitive ? buildTrie(entries, true) : undefined;
  let insensitive = own.caseSensitive ? undefined : buildTrie(entries, false);
  return {
    match: (pathname, routing = own) => {
      const caseSensitive = routing.caseSensitive === true;
      const root = caseSensitive
        ? (sensitive ??= buildTrie(entries, true))
        : (insensitive ??= buildTrie(entries, false));
      return matchPath(root, pathname, caseSensitive, routing.strict === true);
    },
  };
}

function matchPath<T>(
  root: TrieNode<T>,
  pathname: string,
  caseSensitive: boolean,
  strict: boolean,
): RouteMatch<T> | null | typeof MALFORMED_PATH {
  // `*` (OPTIONS *) or an absolute-form URL is no path of ours.
  if (pathname.charCodeAt(0) !== SLASH) return null;

  // Non-strict: one trailing slash is ignored (`//` is the root; `/a//` keeps an empty segment).
  let end = pathname.length;
  if (!strict && end > 1 && pathname.charCodeAt(end - 1) === SLASH) end--;
  // Split the raw path: `a%2Fb` is one segment, as it is for Express.
  const parts =
    end === 1
      ? (ROOT_PARTS as string[])
      : (end === pathname.length ? pathname : pathname.slice(0, end)).split('/');
  // Empty segments (`/a//b`, strict `/a/`) never match: not as statics, params or inside
  // catch-alls.
  for (let i = 1; i < parts.length; i++) if (parts[i] === '') return null;

  const leaf = findLeaf(root, parts, 1, caseSensitive);
  if (leaf === null) return null;
  const params = collectParams(leaf.captures, parts);
  return params === undefined ? MALFORMED_PATH : { value: leaf.value, params };
}

/**
 * Decodes what the route captures, once the match is certain. `undefined` when a captured
 * segment is not valid percent-encoding: the caller answers 400, as Express does for a param. A
 * malformed segment no route takes never gets here, so the path goes on to the app untouched.
 */
function collectParams(captures: readonly ParamCapture[], parts: readonly string[]): Params | undefined {
  // No prototype: a folder `[__proto__]` or `[constructor]` is just an own key.
  const params = Object.create(null) as Params;
  for (let c = 0; c < captures.length; c++) {
    const capture = captures[c]!;
    const at = capture.index + 1;
    if (!capture.rest) {
      const value = decodeSegment(parts[at]!);
      if (value === undefined) return undefined;
      params[capture.name] = value;
    } else if (at < parts.length) {
      // An optional catch-all that took nothing leaves its key absent.
      const values: string[] = [];
      for (let i = at; i < parts.length; i++) {
        const value = decodeSegment(parts[i]!);
        if (value === undefined) return undefined;
        values.push(value);
      }
      params[capture.name] = values;
    }
  }
  return params;
}
