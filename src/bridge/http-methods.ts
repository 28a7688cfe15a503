/** What HTTP methods allow, as the bridge needs to know it. */

/** GET and HEAD carry no body; a Request refuses one for them. */
export function methodHasBody(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

/** Methods the Fetch standard forbids: `new Request()` throws for them, so no handler can take one. */
export function isForbiddenMethod(method: string): boolean {
  return method === 'CONNECT' || method === 'TRACE' || method === 'TRACK';
}
