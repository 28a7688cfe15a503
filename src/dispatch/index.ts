/** dispatch: module exports + method -> the handler to run, or 405 / automatic OPTIONS / pass. */
export { buildMethodTable, dispatch, methodsFor } from './method-table';
export type { MethodTable, HandlerEntry, Dispatch } from './method-table';
export { HTTP_METHODS, HANDLER_EXPORTS, methodHasBody, isForbiddenMethod } from './http-methods';
export type { HttpMethod, HandlerExportName } from './http-methods';
