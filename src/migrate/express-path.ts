/**
 * An Express route path as the tree's folders: `/users/:id` is `users/[id]`, Express 4's `/files/*` and
 * Express 5's `/files/*path` are `files/[...path]`, and an optional part (`/:id?`, `{/:id}`) is two folders,
 * one without it and one with it. A path the folders cannot say (a regular expression, `:from-:to`, a
 * folder name the tree reads otherwise) comes back with the reason.
 */

/** One URL segment of a route: its folder name, and how it matches. */
export interface PathSegment {
  kind: 'static' | 'param' | 'catchAll';
  /** The literal text, or the param's name. */
  value: string;
}

export type ParsedPath = { variants: PathSegment[][]; wildcard?: string } | { reason: string };

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
// Characters Express's path syntax gives a meaning, per version, in a segment that should be plain text.
const SPECIAL_4 = /[?+*()[\]:]/;
const SPECIAL_5 = /[?+*()[\]{}:!\\]/;

/** `path` under Express `major` (4 or 5), as folders. Express 4's `*` is named `path`, as docs/migrating.md writes it. */
export function parseExpressPath(path: string, major: number): ParsedPath {
  if (!path.startsWith('/')) return { reason: `the path "${path}" does not start with /` };
  let alternatives = [path];
  if (major >= 5) {
    // `{…}` is optional: expand every group into without and with.
    for (let guard = 0; alternatives.some((p) => p.includes('{')) && guard < 6; guard++) {
      alternatives = alternatives.flatMap((p) => {
        const group = /\{([^{}]*)\}/.exec(p);
        if (!group) return [p];
        return [p.replace(group[0], ''), p.replace(group[0], group[1]!)];
      });
    }
    if (alternatives.some((p) => p.includes('{') || p.includes('}'))) {
      return { reason: `the path "${path}" nests optional groups more deeply than the command follows` };
    }
  }
  const variants: PathSegment[][] = [];
  let wildcard: string | undefined;
  for (const alternative of alternatives) {
    const parsed = parseSegments(alternative, major);
    if ('reason' in parsed) return { reason: `the path "${path}" ${parsed.reason}` };
    for (const segments of parsed.variants) variants.push(segments);
    wildcard ??= parsed.wildcard;
  }
  return wildcard === undefined ? { variants } : { variants, wildcard };
}

function parseSegments(path: string, major: number): ParsedPath {
  let variants: PathSegment[][] = [[]];
  let wildcard: string | undefined;
  const parts = path.split('/').slice(1);
  for (const [i, part] of parts.entries()) {
    if (part === '') {
      if (i === parts.length - 1) continue; // a trailing slash: Express and the tree ignore it
      return { reason: 'has an empty segment (//)' };
    }
    let segment: PathSegment;
    let optional = false;
    if (major < 5 && part === '*') {
      if (wildcard !== undefined) return { reason: 'has more than one *' };
      wildcard = '0';
      segment = { kind: 'catchAll', value: 'path' };
    } else if (major >= 5 && part.startsWith('*')) {
      const name = unquote(part.slice(1));
      if (name === undefined)
        return { reason: `names its wildcard "${part}" in a way the command does not read` };
      segment = { kind: 'catchAll', value: name };
    } else if (part.startsWith(':')) {
      optional = major < 5 && part.endsWith('?');
      const name = unquote(part.slice(1, optional ? -1 : undefined));
      if (name === undefined) return { reason: `has the segment "${part}", a pattern folders cannot say` };
      segment = { kind: 'param', value: name };
    } else {
      if ((major < 5 ? SPECIAL_4 : SPECIAL_5).test(part)) {
        return { reason: `has the segment "${part}", a pattern folders cannot say` };
      }
      if (/^[_.(]/.test(part) || part.startsWith('[')) {
        return { reason: `has the segment "${part}", which the tree reads as a private folder or a group` };
      }
      segment = { kind: 'static', value: part };
    }
    if (
      segment.kind === 'catchAll' &&
      i !== parts.length - 1 &&
      !(i === parts.length - 2 && parts[i + 1] === '')
    ) {
      return { reason: 'has a wildcard before its last segment' };
    }
    variants = optional
      ? variants.flatMap((v) => [v, [...v, segment]])
      : variants.map((v) => [...v, segment]);
  }
  return wildcard === undefined ? { variants } : { variants, wildcard };
}

/** A param's name, `:id` or Express 5's quoted `:"user-id"`. */
function unquote(name: string): string | undefined {
  if (IDENTIFIER.test(name)) return name;
  const quoted = /^"([^"\\/]+)"$/.exec(name);
  return quoted?.[1];
}

/** The folder path of segments: `users/[id]`, `files/[...path]`. */
export function folderPath(segments: readonly PathSegment[]): string {
  return segments
    .map((s) => (s.kind === 'static' ? s.value : s.kind === 'param' ? `[${s.value}]` : `[...${s.value}]`))
    .join('/');
}

/**
 * Whether some URL matches both, where Express would take the earlier one and the tree might take the
 * other by its precedence (static before param before catch-all).
 */
export function overlaps(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const [x, y] = [a[i], b[i]];
    // A catch-all takes one segment or more (an optional one is a variant without it).
    if (x === undefined || y === undefined) return false;
    if (x.kind === 'catchAll' || y.kind === 'catchAll') return true;
    if (x.kind === 'static' && y.kind === 'static' && x.value.toLowerCase() !== y.value.toLowerCase())
      return false;
  }
  return true;
}

const RANK = { static: 0, param: 1, catchAll: 2 } as const;

/**
 * Whether the tree takes `a` wherever both match, as Express does when `a` comes first: at the first segment
 * where they differ in kind, `a`'s is the more specific (`/users/me` before `/users/:id`). Paths of the same
 * shape are not told apart here.
 */
export function precedes(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [RANK[a[i]!.kind], RANK[b[i]!.kind]];
    if (x !== y) return x < y;
    if (x === RANK.catchAll) return false;
  }
  return false;
}
