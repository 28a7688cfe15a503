/**
 * The conditional requests of a file, decided as send decides them: `If-Match` and
 * `If-Unmodified-Since` (412), `If-None-Match` and `If-Modified-Since` (304, the `fresh` package's
 * rules), and `If-Range`. Ported rather than shared with src/dispatch's freshness of bodies sent
 * whole: send parses token lists its own way and compares `If-Match` weakly, and a moved route keeps
 * those answers.
 */

type RequestHeaders = Pick<Headers, 'get'>;

/** Whether the request is conditional at all: send looks no further when it is not. */
export function isConditional(headers: RequestHeaders): boolean {
  return Boolean(
    headers.get('if-match') ||
    headers.get('if-unmodified-since') ||
    headers.get('if-none-match') ||
    headers.get('if-modified-since'),
  );
}

/** `If-Match` or `If-Unmodified-Since` does not hold for the file: 412. */
export function preconditionFails(
  headers: RequestHeaders,
  etag: string | null,
  lastModified: string | null,
): boolean {
  const match = headers.get('if-match');
  if (match) {
    return (
      !etag ||
      (match !== '*' &&
        tokenList(match).every((token) => token !== etag && token !== `W/${etag}` && `W/${token}` !== etag))
    );
  }
  const unmodifiedSince = httpDate(headers.get('if-unmodified-since'));
  if (!Number.isNaN(unmodifiedSince)) {
    const modified = httpDate(lastModified);
    return Number.isNaN(modified) || modified > unmodifiedSince;
  }
  return false;
}

const NO_CACHE = /(?:^|,)\s*?no-cache\s*?(?:,|$)/;

/** The client's copy is current: 304 (the `fresh` package). */
export function isFresh(headers: RequestHeaders, etag: string | null, lastModified: string | null): boolean {
  const modifiedSince = headers.get('if-modified-since');
  const noneMatch = headers.get('if-none-match');
  if (!modifiedSince && !noneMatch) return false;
  // An end-to-end reload: always the whole answer.
  const cacheControl = headers.get('cache-control');
  if (cacheControl && NO_CACHE.test(cacheControl)) return false;
  if (noneMatch) {
    if (noneMatch === '*') return true;
    if (!etag) return false;
    return tokenList(noneMatch, true).some(
      (token) => token === etag || token === `W/${etag}` || `W/${token}` === etag,
    );
  }
  return Boolean(lastModified) && httpDate(lastModified) <= httpDate(modifiedSince);
}

/**
 * Whether a Range may be answered with part of the file: no `If-Range`, or one that names this
 * version (an entity tag it contains, or a date no older than its Last-Modified).
 */
export function isRangeFresh(
  headers: RequestHeaders,
  etag: string | null,
  lastModified: string | null,
): boolean {
  const ifRange = headers.get('if-range');
  if (!ifRange) return true;
  if (ifRange.includes('"')) return Boolean(etag && ifRange.includes(etag));
  return httpDate(lastModified) <= httpDate(ifRange);
}

function httpDate(date: string | null): number {
  return date ? Date.parse(date) : NaN;
}

/**
 * A comma-separated header's tokens, spaces before each skipped: send's reading leaves empty tokens
 * out, fresh's (`keepEmpty`) keeps them, where they match nothing.
 */
function tokenList(text: string, keepEmpty = false): string[] {
  const list: string[] = [];
  let start = 0;
  let end = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x20) {
      if (start === end) start = end = i + 1;
    } else if (code === 0x2c) {
      if (keepEmpty || start !== end) list.push(text.substring(start, end));
      start = end = i + 1;
    } else {
      end = i + 1;
    }
  }
  if (keepEmpty || start !== end) list.push(text.substring(start, end));
  return list;
}
