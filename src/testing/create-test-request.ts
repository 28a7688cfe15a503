/**
 * createTestRequest: builds a standard `Request` for unit-testing endpoint handlers and
 * `(req, next)` middleware without a server (the spec's test helper, rules 1-8).
 */

/** Options of {@link createTestRequest}. */
export interface TestRequestOptions {
  /** HTTP method in any letter case; defaults to `GET`. */
  method?: string;
  /** Request headers. */
  headers?: Record<string, string> | HeadersInit;
  /**
   * Request body. A string starting with `{` gets `Content-Type: application/json` unless a
   * Content-Type is given. Dropped for GET and HEAD, which cannot carry a body.
   */
  body?: BodyInit | null;
}

/** Every test request lives on this origin, whatever the path string holds. */
const BASE = 'http://localhost';

const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD']);

export function createTestRequest(path: string, opts: TestRequestOptions = {}): Request {
  const method = (opts.method ?? 'GET').toUpperCase();
  // Concatenating (rather than `new URL(path, BASE)`) keeps the host fixed: `//evil.test/x`
  // or `http://other/x` become paths on localhost instead of changing the origin.
  const url = BASE + (path.startsWith('/') ? path : `/${path}`);
  const headers = new Headers(opts.headers);

  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  const body = opts.body;
  if (body != null && !METHODS_WITHOUT_BODY.has(method)) {
    if (typeof body === 'string' && body.startsWith('{') && !headers.has('content-type')) {
      headers.set('content-type', 'application/json');
    }
    init.body = body;
    // Node's fetch requires `duplex` for stream bodies; it is harmless for the others.
    if (body instanceof ReadableStream) init.duplex = 'half';
  }
  return new Request(url, init);
}
