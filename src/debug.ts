/**
 * Startup errors (an invalid tree, a module that does not load, a missing folder) are read by people, not
 * debuggers: their message names the file and the fix, and a stack trace into this library's internals would
 * only bury it. `DEBUG=express-file-endpoints` (or `DEBUG=*`, as with the `debug` package) keeps the stacks and the
 * original error as `cause`, for when the message is not enough.
 */
import { environmentVariable } from './runtime';

/** True when the `DEBUG` environment variable asks for this library's details. */
export function isDebugging(): boolean {
  return (environmentVariable('DEBUG') ?? '')
    .split(/[\s,]+/)
    .some((name) => name === '*' || name === 'express-file-endpoints');
}

/** Leaves only `Name: message` as the stack, unless debugging; returns the error. */
export function withoutStack<E extends Error>(error: E): E {
  if (!isDebugging()) error.stack = `${error.name}: ${error.message}`;
  return error;
}
