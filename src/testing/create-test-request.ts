/**
 * createTestRequest: builds a standard `Request` for unit-testing endpoint handlers and
 * `(req, next)` middleware without a server: a leading `/` added, resolved against
 * http://localhost, GET by default, the body dropped for GET and HEAD, and `application/json` for a
 * string body starting with `{` when no Content-Type is given (docs/testing.md lists each rule).
 */
import { markTestRequest } from '../contract';
import { methodHasBody } from '../http-methods';
import { assertFetchGlobals } from '../fetch-globals';

// At import, not at the first call: a test environment without Request fails before any test runs.
assertFetchGlobals();

/**
 * Options of {@link createTestRequest}.
 *
 * `headers` and `body` are typed through the global `RequestInit` rather than `HeadersInit` /
 * `BodyInit`: those two names exist only in TypeScript's DOM lib, so a Node project type-checking
 * our .d.ts without `"lib": ["DOM"]` would fail on them, while `RequestInit` is global in both the
 * DOM lib and `@types/node`.
 */
export interface TestRequestOptions {
  /** HTTP method in any letter case; defaults to `GET`. */
  method?: string;
  /** Request headers: a record, a `Headers`, or `[name, value]` pairs. */
  headers?: Record<string, string> | RequestInit['headers'];
  /**
   * Request body. A string starting with `{` gets `Content-Type: application/json` unless a
   * Content-Type is given. Dropped for GET and HEAD, which cannot carry a body.
   */
  body?: RequestInit['body'];
}

/** Every test request lives on this origin, whatever the path string holds. */
const BASE = 'http://localhost';

/**
 * Builds a `Request` for `path` on `http://localhost` (a leading `/` is added when missing).
 * The method defaults to `GET` and is upper-cased; the body is dropped for GET and HEAD.
 *
 * @example
 * const res = await GET(createTestRequest('/api/users/1'), { params: { id: '1' } });
 */
export function createTestRequest(path: string, opts: TestRequestOptions = {}): Request {
  const method = (opts.method ?? 'GET').toUpperCase();
  // Concatenating (rather than `new URL(path, BASE)`) keeps the host fixed: `//evil.test/x`
  // or `http://other/x` become paths on localhost instead of changing the origin.
  const url = BASE + (path.startsWith('/') ? path : `/${path}`);
  const headers = new Headers(opts.headers);

  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  const body = opts.body;
  if (body != null && methodHasBody(method)) {
    if (typeof body === 'string' && body.startsWith('{') && !headers.has('content-type')) {
      headers.set('content-type', 'application/json');
    }
    init.body = body;
    // Node's fetch requires `duplex` for stream bodies (a `ReadableStream`, or an async iterable
    // such as a Node `Readable` at runtime) and accepts it for every other body, so always set it.
    init.duplex = 'half';
  }
  // Marked, so that a mount checks the response contracts of its answer as in development.
  return markTestRequest(new Request(url, init));
}
