/** csrf: csrf(), a Web middleware that refuses state-changing requests from other sites by Fetch Metadata and Origin. */
export { csrf, CrossSiteRequestError, type CsrfOptions } from './csrf';
