/**
 * body: reading a request's body as the Express parsers a moved route relied on read it, with their
 * rules and their errors.
 */
export { jsonBody, type JsonBodyOptions } from './json-body';
