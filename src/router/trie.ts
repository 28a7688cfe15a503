/**
 * The segment trie behind the route table: built once from the route entries, then walked on
 * every request to find the best route for a path's segments.
 *
 * Precedence at every depth, whatever the insertion order: static > `[x]` > `[...x]` > `[[...x]]`,
 * and a route that ends at a depth beats an optional catch-all that would take zero segments
 * there. The walk tries children in that order and backtracks when a deeper level fails, so
 * the first complete match it finds is the best one.
 */
import type { Segment } from '../discover';
import type { RouteEntry } from './types';
import { urlSegment } from './url-segment';

/** Where one param's value comes from in a matched path. */
export interface ParamCapture {
  name: string;
  /** Depth of the route segment, which is also the index of the path segment it takes. */
  index: number;
  /** A catch-all: takes every path segment from `index` on, as an array. */
  rest: boolean;
}

/** A route at the end of a trie path. */
export interface Leaf<T> {
  value: T;
  captures: ParamCapture[];
}

/**
 * One depth of the trie. Every field is set at creation so all nodes share one shape, which
 * keeps property reads in the walk monomorphic.
 */
export interface TrieNode<T> {
  /**
   * Static children by the folder name's canonical URL encoding (`urlSegment`), lower-cased unless
   * case-sensitive. Keys are ASCII, so lower-casing one folds letters and hex digits only, as
   * Express's case-insensitive routes do.
   */
  statics: Map<string, TrieNode<T>> | null;
  /** The `[x]` child; routes with different param names at this depth share it. */
  param: TrieNode<T> | null;
  /** A route whose segments end at this depth. */
  end: Leaf<T> | null;
  /** `[...x]` as the last segment at this depth: takes one or more path segments. */
  catchAll: Leaf<T> | null;
  /** `[[...x]]` as the last segment at this depth: takes zero or more path segments. */
  optionalCatchAll: Leaf<T> | null;
}

function createNode<T>(): TrieNode<T> {
  return { statics: null, param: null, end: null, catchAll: null, optionalCatchAll: null };
}

/**
 * Builds the trie. When two entries have the same shape (`/a/[x]` and `/a/[y]`), the first one
 * wins; validation reports duplicates. An entry with a catch-all before its last segment is
 * left out: it could never match in a defined way, and validation reports it too.
 */
export function buildTrie<T>(entries: readonly RouteEntry<T>[], caseSensitive: boolean): TrieNode<T> {
  const root = createNode<T>();
  for (const entry of entries) {
    if (hasCatchAllBeforeEnd(entry.segments)) continue;
    insertRoute(root, entry, caseSensitive);
  }
  return root;
}

function hasCatchAllBeforeEnd(segments: readonly Segment[]): boolean {
  for (let i = 0; i < segments.length - 1; i++) {
    const kind = segments[i]!.kind;
    if (kind === 'catchAll' || kind === 'optionalCatchAll') return true;
  }
  return false;
}

function insertRoute<T>(root: TrieNode<T>, entry: RouteEntry<T>, caseSensitive: boolean): void {
  const captures: ParamCapture[] = [];
  const leaf: Leaf<T> = { value: entry.value, captures };
  let node = root;
  for (let index = 0; index < entry.segments.length; index++) {
    const segment = entry.segments[index]!;
    switch (segment.kind) {
      case 'static': {
        const encoded = urlSegment(segment.value);
        const key = caseSensitive ? encoded : encoded.toLowerCase();
        node.statics ??= new Map();
        let child = node.statics.get(key);
        if (child === undefined) {
          child = createNode<T>();
          node.statics.set(key, child);
        }
        node = child;
        break;
      }
      case 'param':
        captures.push({ name: segment.name, index, rest: false });
        node = node.param ??= createNode<T>();
        break;
      case 'catchAll':
        captures.push({ name: segment.name, index, rest: true });
        node.catchAll ??= leaf;
        return;
      case 'optionalCatchAll':
        captures.push({ name: segment.name, index, rest: true });
        node.optionalCatchAll ??= leaf;
        return;
    }
  }
  node.end ??= leaf;
}

/**
 * Finds the best route for `parts[i..]` below `node`, or `null`. `parts` holds raw path
 * segments, as sent; depth `d` of the trie matches `parts[d + 1]` (`parts[0]` is the empty string before
 * the leading `/`). Each trie node is visited at most once per walk, so backtracking costs at
 * most the size of the trie, and usually just the depth of the path.
 */
export function findLeaf<T>(
  node: TrieNode<T>,
  parts: readonly string[],
  i: number,
  caseSensitive: boolean,
): Leaf<T> | null {
  if (i === parts.length) return node.end ?? node.optionalCatchAll;
  const statics = node.statics;
  if (statics !== null) {
    const part = parts[i]!;
    // Keys are lower-cased when case-insensitive, so an exact hit is already right; most paths
    // are typed in lower case, which spares a `toLowerCase()` string per segment.
    let child = statics.get(part);
    if (child === undefined && !caseSensitive) child = statics.get(part.toLowerCase());
    if (child !== undefined) {
      const leaf = findLeaf(child, parts, i + 1, caseSensitive);
      if (leaf !== null) return leaf;
    }
  }
  if (node.param !== null) {
    const leaf = findLeaf(node.param, parts, i + 1, caseSensitive);
    if (leaf !== null) return leaf;
  }
  return node.catchAll ?? node.optionalCatchAll;
}
