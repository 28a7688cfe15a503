/** fetch: the Web front, `endpoints.fetch(request)`: the whole table as one Web handler. */
export { handleFetch, type FetchSettings } from './handle-fetch';
