/**
 * The HTTP methods, as every part of the library knows them: which ones a file exports handlers
 * for (dispatch, validation, `.routes`, `check`, the types), which carry a body, and which no
 * `Request` can hold.
 */

/**
 * The methods a file exports handlers for, in the order `Allow` lists them. QUERY is the safe,
 * body-carrying method of the IETF draft, which Node's parser accepts.
 */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'QUERY', 'OPTIONS'] as const;
export const HANDLER_EXPORTS = [...HTTP_METHODS, 'ANY', 'default'] as const;

/** The export that serves WebSockets on an endpoint's route: an object of hooks, not a handler. */
export const WEBSOCKET_EXPORT = 'websocket';

/** A method with its own handler export. */
export type HttpMethod = (typeof HTTP_METHODS)[number];
/** Every export name dispatch looks at. */
export type HandlerExportName = (typeof HANDLER_EXPORTS)[number];

/** GET and HEAD carry no body; a Request refuses one for them. */
export function methodHasBody(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

/** Methods the Fetch standard forbids: `new Request()` throws for them, so no handler can take one. */
export function isForbiddenMethod(method: string): boolean {
  return method === 'CONNECT' || method === 'TRACE' || method === 'TRACK';
}
