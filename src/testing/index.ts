/** `express-endpoints/testing`: helpers for unit tests that need no server. */
export { createTestRequest, type TestRequestOptions } from './create-test-request';
