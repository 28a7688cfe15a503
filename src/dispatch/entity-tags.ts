/**
 * ETags and conditional requests for bodies sent whole, the way Express's `res.send` gives them: an
 * entity tag from the body's SHA-1, in the format of Express's `etag` package (weak by default), and
 * a 304 when the request's `If-None-Match` or `If-Modified-Since` says the client's copy is fresh,
 * decided as the `fresh` package does (RFC 9110, 13.1 and 13.2.2). In Express apps the app's own
 * `etag fn` and `req.fresh` are used instead (src/bridge/express-etag.ts); these serve the hosts that
 * have neither, when the `etag` option asks for them. Pure header logic: no Node objects here.
 */
import type { MountOptions } from '../types';

/**
 * How a body sent whole gets its ETag: as the host app's `etag` setting says (`host`: Express's
 * `etag fn`; none on other hosts), always (`weak`, `strong`), or never (`off`).
 */
export type EtagMode = 'host' | 'weak' | 'strong' | 'off';

/** The mode for the mount's `etag` option: unset follows the host app. */
export function etagModeOf(option: MountOptions['etag']): EtagMode {
  if (option === undefined) return 'host';
  if (option === false) return 'off';
  return option === 'strong' ? 'strong' : 'weak';
}

/** The same for `.fetch`, which has no host app whose setting it could follow: unset is off. */
export function fetchEtagModeOf(option: MountOptions['etag']): EtagMode {
  return option === undefined ? 'off' : etagModeOf(option);
}

/**
 * The entity tag of a body of `length` bytes whose SHA-1 is `sha1` (base64), as Express's `etag`
 * package writes it: the length in hex and 27 characters of the hash, so a route that moves into the
 * tree keeps the ETags its clients hold.
 */
export function formatEntityTag(length: number, sha1: string, weak: boolean): string {
  const tag = `"${length.toString(16)}-${sha1.slice(0, 27)}"`;
  return weak ? `W/${tag}` : tag;
}

/** The entity tag of `bytes`, with the Web Crypto API: for `.fetch`. */
export async function webEntityTag(bytes: Uint8Array, weak: boolean): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', bytes as Uint8Array<ArrayBuffer>));
  return formatEntityTag(bytes.byteLength, btoa(String.fromCharCode(...digest)), weak);
}

/** `Cache-Control: no-cache` on the request: the client wants the whole answer (fresh's own test). */
const NO_CACHE = /(?:^|,)\s*?no-cache\s*?(?:,|$)/;

/**
 * Whether the client's copy is fresh, so a GET or HEAD answered `status` with these validators
 * gets a 304: the decision of Express 5's `req.fresh`. `If-None-Match` wins over `If-Modified-Since`;
 * a weak match counts.
 */
export function isFresh(
  method: string,
  status: number,
  requestHeader: (name: string) => string | null | undefined,
  etag: string | undefined,
  lastModified: string | undefined,
): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (!((status >= 200 && status < 300) || status === 304)) return false;
  const noneMatch = requestHeader('if-none-match');
  const modifiedSince = requestHeader('if-modified-since');
  if (!noneMatch && !modifiedSince) return false;
  const cacheControl = requestHeader('cache-control');
  if (cacheControl && NO_CACHE.test(cacheControl)) return false;
  if (noneMatch) {
    if (noneMatch === '*') return true;
    if (!etag) return false;
    return noneMatch
      .split(',')
      .map((token) => token.trim())
      .some((match) => match === etag || match === `W/${etag}` || `W/${match}` === etag);
  }
  if (!lastModified) return false;
  return Date.parse(lastModified) <= Date.parse(modifiedSince!);
}

/** What a 304 leaves out, as Express's `res.send` strips it: it describes a body that is not sent. */
export const NOT_MODIFIED_DROPS = ['content-type', 'content-length', 'transfer-encoding'] as const;
