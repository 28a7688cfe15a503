/** express-endpoints: file-based, Web-standard endpoint handlers for Express, Connect and node:http. */
export { EndpointValidationError } from './validate/endpoint-validation-error';
export type { Problem } from './validate/types';
export type {
  Params,
  ParamsOf,
  NodeContext,
  EndpointContext,
  EndpointHandler,
  WebMiddleware,
  MountOptions,
} from './types';
export type { TestRequestOptions } from './testing/create-test-request';
