/**
 * Paths as the client sent them, before a URL parser resolved anything: the path part of a request
 * target, and whether the URL parser would give it another pathname. The Node bridge routes the
 * target as sent; `.fetch` routes `request.url` as the runtime made it, which Deno leaves as sent.
 * Either refuses a path that a Request's `new URL(request.url)` would see as another.
 */

/**
 * The path part of a request target, raw (still percent-encoded). Handles absolute-form
 * targets (`GET http://host/path`); `undefined` for targets that name no path (`*`).
 */
export function targetPath(target: string): string | undefined {
  let from = target;
  if (target.charCodeAt(0) !== 47 /* / */) {
    const parts = absoluteForm(target);
    if (parts === undefined) return undefined;
    from = parts.rest;
  }
  const query = from.indexOf('?');
  const hash = from.indexOf('#');
  let end = from.length;
  if (query !== -1) end = query;
  if (hash !== -1 && hash < end) end = hash;
  return end === from.length ? from : from.slice(0, end);
}

/**
 * An absolute-form target's parts as sent: its authority, and the rest from its path on (`/` first,
 * added when it names no path). `undefined` for a target that is not of that form.
 */
export function absoluteForm(target: string): { authority: string; rest: string } | undefined {
  const scheme = target.indexOf('://');
  if (scheme <= 0) return undefined;
  const start = scheme + 3;
  let end = start;
  while (end < target.length && !'/?#'.includes(target[end]!)) end++;
  const rest = target.slice(end);
  return { authority: target.slice(start, end), rest: rest.charCodeAt(0) === 47 ? rest : `/${rest}` };
}

// A path in which the URL parser may change something: a character outside those it keeps as
// they are, or a segment of dots (`.`, `..`, `%2e` in either case). Most paths have neither and
// skip the parse.
const MAY_BE_REWRITTEN = /[^A-Za-z0-9\-._~!$&'()*+,;=:@%|[\]/]|\/(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * Whether `new URL()` would give this raw path another pathname: it resolves `.` and `..`
 * segments (percent-encoded ones too), reads `\` as `/`, and percent-encodes what a path may not
 * hold. Such a path is refused rather than routed, so a handler or a Web guard never sees another
 * path than the one routed. Browsers and HTTP clients resolve dot segments before sending, so no
 * real client sends one.
 */
export function isRewrittenPath(path: string): boolean {
  if (!MAY_BE_REWRITTEN.test(path)) return false;
  const full = `http://h${path}`;
  return !URL.canParse(full) || new URL(full).pathname !== path;
}
