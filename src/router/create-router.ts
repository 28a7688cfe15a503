/**
 * createRouter: the route table. Turns a raw request path into the matching route's value and
 * its params, using the segment trie of `./trie`.
 */
import type { Params } from '../types';
import { decodeSegment } from './decode-segment';
import { buildTrie, findLeaf, type ParamCapture, type TrieNode } from './trie';
import { MALFORMED_PATH, type RouteEntry, type RouteMatch, type Router, type RouterOptions } from './types';

const SLASH = 0x2f;

/** The parts of the root path `/`: no segments after the leading empty one. Shared, never written to. */
const ROOT_PARTS: readonly string[] = [''];

export function createRouter<T>(entries: readonly RouteEntry<T>[], options: RouterOptions = {}): Router<T> {
  const caseSensitive = options.caseSensitive === true;
  const strict = options.strict === true;
  const root = buildTrie(entries, caseSensitive);
  return {
    match: (pathname) => matchPath(root, pathname, caseSensitive, strict),
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
  // Split the raw path before decoding, so `a%2Fb` stays one segment.
  const parts =
    end === 1
      ? (ROOT_PARTS as string[])
      : (end === pathname.length ? pathname : pathname.slice(0, end)).split('/');

  // Decode in place (in the array `split` just made). A malformed segment is kept raw and only
  // reported when a route takes the path: a URL none of our routes matches goes on to the
  // app's other routes untouched, as Express does.
  let malformed = false;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    // Empty segments (`/a//b`, strict `/a/`) never match: not as statics, params or inside
    // catch-alls. Nothing can match, so stop before any decoding.
    if (part === '') return null;
    const decoded = decodeSegment(part);
    if (decoded === undefined) malformed = true;
    else parts[i] = decoded;
  }

  const leaf = findLeaf(root, parts, 1, caseSensitive);
  if (leaf === null) return null;
  if (malformed) return MALFORMED_PATH;
  return { value: leaf.value, params: collectParams(leaf.captures, parts) };
}

/** Only built once the match is certain. */
function collectParams(captures: readonly ParamCapture[], parts: readonly string[]): Params {
  // No prototype: a folder `[__proto__]` or `[constructor]` is just an own key.
  const params = Object.create(null) as Params;
  for (let c = 0; c < captures.length; c++) {
    const capture = captures[c]!;
    const at = capture.index + 1;
    if (!capture.rest) params[capture.name] = parts[at]!;
    // An optional catch-all that took nothing leaves its key absent.
    else if (at < parts.length) params[capture.name] = parts.slice(at);
  }
  return params;
}
