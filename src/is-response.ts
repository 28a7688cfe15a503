/**
 * The one test of "is this a Response" that the library applies to what handlers, middleware and
 * hooks return or throw: `instanceof` first, then the shape, which accepts Responses of other realms
 * and of other copies of undici (a `fetch()` polyfill, a test runner's sandbox) that fail it.
 */
export function isResponse(value: unknown): value is Response {
  if (value instanceof Response) return true;
  const candidate = value as Partial<Response> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.status === 'number' &&
    typeof candidate.headers?.forEach === 'function' &&
    'body' in candidate
  );
}
