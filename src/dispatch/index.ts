/** dispatch: module exports + method -> the handler to run, or 405 / automatic OPTIONS / pass. */
export { buildMethodTable, dispatch, HTTP_METHODS, HANDLER_EXPORTS } from './method-table';
export type { MethodTable, HandlerEntry, Dispatch, HttpMethod, HandlerExportName } from './method-table';
