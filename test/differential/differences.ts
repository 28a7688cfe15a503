/**
 * What still differs between a route written the Express way and the same route moved into an
 * endpoint file. Each difference names the parts of an answer it may change; the suite allows
 * exactly those, on exactly the requests that declare it, and checks that each declared one shows.
 * Each `title` is a heading of docs/migrating.md, where the reason is given: a test keeps the two
 * lists the same.
 */

export interface Difference {
  /** The heading of its entry in docs/migrating.md. */
  title: string;
  /** The status line may differ. */
  status?: true;
  /** Headers (lower case) that may differ, be missing or be added. */
  headers?: readonly string[];
  /** The body may differ. */
  body?: true;
  /**
   * Comes of how the route was written by hand (the guide's plain `Response.json()`, a string or bytes as they
   * are, a Response's own rules); `migrate` writes what Express sent, or leaves the handler to Express's `res`
   * where it cannot, so the tree it makes must not show it.
   */
  byHand?: true;
}

export const DIFFERENCES = {
  'json-charset': {
    title: '`Response.json()` says `application/json`, without `; charset=utf-8`',
    headers: ['content-type'],
    byHand: true,
  },
  'string-type': {
    title: 'A string body is `text/plain;charset=UTF-8`, not `text/html`',
    headers: ['content-type'],
    byHand: true,
  },
  'bytes-type': {
    title: 'A byte body has no Content-Type, not `application/octet-stream`',
    headers: ['content-type'],
    byHand: true,
  },
  redirect: {
    title: 'A redirect has no body',
    headers: ['content-type', 'content-length', 'vary'],
    body: true,
  },
  'no-content-etag': {
    title: '`res.sendStatus(204)` had an ETag; a 204 has none',
    // …so a request that sends that ETag back got a 304 from Express.
    status: true,
    headers: ['etag'],
    byHand: true,
  },
  'joined-header': {
    title: 'A header set twice goes out on one line',
    headers: ['link'],
    byHand: true,
  },
  options: {
    title: 'OPTIONS is a 204 with `Allow`, not a 200 listing the methods',
    status: true,
    headers: ['allow', 'content-type', 'content-length', 'etag', 'x-content-type-options'],
    body: true,
  },
  'too-large': {
    title: 'A body over the limit: a 413 in other words, and the connection closes',
    headers: ['content-length', 'etag', 'connection', 'keep-alive'],
    body: true,
  },
  'malformed-message': {
    title: "A malformed path's 400 says so in other words",
    headers: ['content-length', 'etag'],
    body: true,
  },
  'dot-segment': {
    title: 'A `.` or `..` segment is refused with 400',
    status: true,
    headers: ['content-type', 'content-length', 'etag'],
    body: true,
  },
} as const satisfies Record<string, Difference>;

export type DifferenceId = keyof typeof DIFFERENCES;

/**
 * Differences of every answer, which the comparison leaves out rather than declares per request:
 * the `Date` header's value, the case of header names and the order of different names.
 */
export const EVERY_ANSWER: readonly Difference[] = [
  { title: 'Header names are lower case' },
  { title: 'Headers come in another order' },
];
