/** `express-file-endpoints/testing`: helpers for unit tests that need no server. */
export { createTestRequest, type TestRequestOptions } from './create-test-request';
export { createTestContext, type TestContext, type TestContextOptions } from './create-test-context';
