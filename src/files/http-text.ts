/**
 * The small pieces of text send and serve-static write, ported so their answers match byte for
 * byte: a max-age as `ms` reads it (`'1d'`), a Location encoded as `encodeurl` encodes it, HTML
 * escaped as `escape-html` escapes it, and the short HTML page of a redirect.
 */

/** One year: send's upper bound for `maxAge`. */
const MAX_MAX_AGE = 60 * 60 * 24 * 365 * 1000;

const SECOND = 1000;
const MINUTE = SECOND * 60;
const HOUR = MINUTE * 60;
const DAY = HOUR * 24;
const UNITS: Record<string, number> = {
  years: DAY * 365.25,
  year: DAY * 365.25,
  yrs: DAY * 365.25,
  yr: DAY * 365.25,
  y: DAY * 365.25,
  weeks: DAY * 7,
  week: DAY * 7,
  w: DAY * 7,
  days: DAY,
  day: DAY,
  d: DAY,
  hours: HOUR,
  hour: HOUR,
  hrs: HOUR,
  hr: HOUR,
  h: HOUR,
  minutes: MINUTE,
  minute: MINUTE,
  mins: MINUTE,
  min: MINUTE,
  m: MINUTE,
  seconds: SECOND,
  second: SECOND,
  secs: SECOND,
  sec: SECOND,
  s: SECOND,
  milliseconds: 1,
  millisecond: 1,
  msecs: 1,
  msec: 1,
  ms: 1,
};
// The `ms` package's grammar: a number, optional spaces, an optional unit.
const DURATION =
  /^(-?(?:\d+)?\.?\d+) *(milliseconds?|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w|years?|yrs?|y)?$/i;

/**
 * A max-age in milliseconds as send reads its `maxAge` option: a number, or a string as `ms` reads it;
 * anything unreadable is 0, and the result is held between 0 and one year.
 */
export function maxAgeOf(value: number | string | undefined): number {
  let ms: number;
  if (typeof value === 'string') {
    const match = value.length <= 100 ? DURATION.exec(value) : null;
    ms = match ? parseFloat(match[1]!) * UNITS[(match[2] ?? 'ms').toLowerCase()]! : NaN;
  } else {
    ms = Number(value);
  }
  return Number.isNaN(ms) ? 0 : Math.min(Math.max(0, ms), MAX_MAX_AGE);
}

// encodeurl 2: what may stay as it is in a URL, and a `%` that starts no escape.
const ENCODE_CHARS =
  /(?:[^\x21\x23-\x3B\x3D\x3F-\x5F\x61-\x7A\x7C\x7E]|%(?:[^0-9A-Fa-f]|[0-9A-Fa-f][^0-9A-Fa-f]|$))+/g;
const UNMATCHED_SURROGATE_PAIR = /(^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uD800-\uDBFF]([^\uDC00-\uDFFF]|$)/g;

/** A URL with what must be percent-encoded encoded, and escapes already there left alone (encodeurl). */
export function encodeUrl(url: string): string {
  return url.replace(UNMATCHED_SURROGATE_PAIR, '$1\uFFFD$2').replace(ENCODE_CHARS, encodeURI);
}

const HTML_ESCAPES: Record<string, string> = {
  '"': '&quot;',
  '&': '&amp;',
  "'": '&#39;',
  '<': '&lt;',
  '>': '&gt;',
};

export function escapeHtml(text: string): string {
  return text.replace(/["&'<>]/g, (char) => HTML_ESCAPES[char]!);
}

/** The minimal HTML page send and serve-static answer a redirect with. */
export function htmlDocument(title: string, body: string): string {
  return (
    '<!DOCTYPE html>\n' +
    '<html lang="en">\n' +
    '<head>\n' +
    '<meta charset="utf-8">\n' +
    `<title>${title}</title>\n` +
    '</head>\n' +
    '<body>\n' +
    `<pre>${body}</pre>\n` +
    '</body>\n' +
    '</html>\n'
  );
}

/** `//a` -> `/a`: a Location that starts with two slashes would name another host. */
export function collapseLeadingSlashes(path: string): string {
  let i = 0;
  while (i < path.length && path.charCodeAt(i) === 0x2f) i++;
  return i > 1 ? '/' + path.slice(i) : path;
}
