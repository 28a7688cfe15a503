/** Percent-decoding of one raw path segment, without throwing. */

/**
 * Decodes `raw` (`a%2Fb` -> `a/b`), or returns `undefined` when its encoding is malformed.
 * Segments without `%` come back as they are: no decoding work and no new string.
 */
export function decodeSegment(raw: string): string | undefined {
  if (raw.indexOf('%') === -1) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    // URIError: `%zz`, a lone `%`, or bytes that are not UTF-8.
    return undefined;
  }
}
