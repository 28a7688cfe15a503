/**
 * When response contracts are checked: in development and tests, never in production by default.
 *   - a mount's `checkResponses` option, when given, decides;
 *   - otherwise a mount never checks when `NODE_ENV` is `production`; it checks every response
 *     when development mode is on or `NODE_ENV` is `development` or `test`; and else only the
 *     answers to requests built by `createTestRequest` (`endpoints.fetch(createTestRequest(…))`
 *     in a test runner that sets no NODE_ENV);
 *   - a handler called directly, outside any mount, is being tested: it checks unless
 *     `NODE_ENV` is `production`.
 */
import type { MountOptions } from '../types';
import { environmentVariable } from '../runtime';

/**
 * Marks a Request built by `createTestRequest`. `Symbol.for`, like the contract's key, so the
 * testing entry point and the main one agree whichever module format each was loaded in.
 */
export const TEST_REQUEST: unique symbol = Symbol.for('express-file-endpoints.test-request');

export function isTestRequest(request: Request): boolean {
  return (request as Request & { [TEST_REQUEST]?: boolean })[TEST_REQUEST] === true;
}

/** For `createTestRequest`: marks `request` without changing anything else about it. */
export function markTestRequest(request: Request): Request {
  return Object.defineProperty(request, TEST_REQUEST, { value: true });
}

/** A mount's rule, decided once when it loads its modules. */
export function mountChecksResponses(
  options: Pick<MountOptions, 'checkResponses' | 'dev'>,
): (request: Request) => boolean {
  const chosen = options.checkResponses;
  if (chosen !== undefined) return () => chosen;
  const env = environmentVariable('NODE_ENV');
  if (env === 'production') return () => false;
  if (options.dev || env === 'development' || env === 'test') return () => true;
  return isTestRequest;
}

/** The rule of a handler called directly. */
export function directCallChecksResponses(): boolean {
  return environmentVariable('NODE_ENV') !== 'production';
}
