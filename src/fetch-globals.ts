/**
 * The Fetch API's Request, Response and Headers, which the library is built on, checked as soon as the package is
 * imported: an environment without them fails there, naming the cause and the fix, rather than with "Request is
 * not defined" from the first line that uses one. Node has had them as globals since 18. Jest before 28 runs tests
 * without them (its "node" environment copied only some of Node's globals), and so does a browser-like test
 * environment (jsdom).
 *
 * Called at the top of each module that needs them as it loads (`class … extends Request`), and of the test
 * helpers: both entry points that need them fail as they are imported. A call, not a bare import: the package
 * is marked free of side effects, so a bundler (esbuild, building this package) drops an import whose names go
 * unused.
 *
 * This module also checks as it is evaluated, and src/index.ts imports it first: a bundle evaluates its modules
 * in import order, so the check comes before any module-level `new TextEncoder()` or `new TextDecoder()` of the
 * modules after it. Jest's jsdom environment lacks those too, and their ReferenceError would otherwise be what
 * the user sees (Jest 26's default environment; `--env=jsdom` on later ones).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const NEEDED = ['Request', 'Response', 'Headers'] as const;

/** The error that says what is missing and how to get it; `undefined` when nothing is. */
export function missingFetchGlobals(
  globals: object,
  env: NodeJS.ProcessEnv,
  jestVersion: () => string | undefined,
): Error | undefined {
  const missing = NEEDED.filter((name) => typeof (globals as Record<string, unknown>)[name] !== 'function');
  if (missing.length === 0) return undefined;
  const what =
    'express-file-endpoints needs the Fetch API (Request, Response, Headers), which Node gives every module as ' +
    `globals, but here ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not defined.`;
  return new Error(`${what}\n${env.JEST_WORKER_ID === undefined ? outsideJest() : underJest(jestVersion())}`);
}

function outsideJest(): string {
  return (
    'Run it on Node 22.15 or later, without --no-experimental-fetch, and outside a test environment that ' +
    "replaces Node's globals (jsdom)."
  );
}

function underJest(version: string | undefined): string {
  const major = version === undefined ? undefined : Number.parseInt(version, 10);
  if (major !== undefined && major >= 28) {
    return (
      `Jest ${version} is running this test file in an environment without them, such as jsdom: run the tests ` +
      "that use express-file-endpoints in Jest's \"node\" environment (testEnvironment: 'node' in " +
      'jest.config.js, or a `/** @jest-environment node */` comment at the top of the test file).'
    );
  }
  return (
    `${version === undefined ? 'Jest before 28' : `Jest ${version}`} runs tests without them: Jest 28 and ` +
    'later give its "node" test environment every global Node has. Upgrade Jest (`npm install -D jest@latest`), ' +
    "or set a testEnvironment that copies Node's Request, Response and Headers into its global."
  );
}

/** The version of the `jest` package installed for the folder the tests run from, when there is one. */
export function installedJestVersion(from = process.cwd()): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const manifest = readFileSync(path.join(dir, 'node_modules', 'jest', 'package.json'), 'utf8');
      const version = (JSON.parse(manifest) as { version?: unknown }).version;
      return typeof version === 'string' ? version : undefined;
    } catch {
      if (path.dirname(dir) === dir) return undefined;
    }
  }
}

/** Throws when the globals are missing; its stack is left out, as the message is the whole story. */
export function assertFetchGlobals(): void {
  const problem = missingFetchGlobals(globalThis, process.env, installedJestVersion);
  if (!problem) return;
  problem.stack = `${problem.name}: ${problem.message}`;
  throw problem;
}

assertFetchGlobals();
