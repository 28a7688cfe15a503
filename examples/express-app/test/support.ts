/**
 * What the example's tests share: the built package, the app, a silent logger.
 *
 * server.js requires `express-file-endpoints` by name, which resolves to this repository's built
 * dist/ — exactly what `npm start` and a user's app run. A fresh clone has no dist/ yet (`npm
 * test` builds only later, in test:package), so we build here when dist/ is missing or older
 * than src/: about 10 s, once. We chose this over mapping the name to src/ with a resolver hook:
 * the example then proves the real package works, and needs no test-only magic.
 *
 * Types come from src/ (same code), so `tsc --noEmit` passes before anything is built.
 */
import { execSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Express } from 'express';
import { chromium, type Browser } from 'playwright-core';
import type * as Client from '../../../src/client';
import type * as Testing from '../../../src/testing';
import type { EndpointsMiddleware } from '../../../src';

const ROOT = path.resolve(__dirname, '../../..');

ensureBuilt();

/** `import { createTestRequest } from 'express-file-endpoints/testing'`, in a user's test. */
export const { createTestRequest } = require('express-file-endpoints/testing') as typeof Testing;

/** `import { createClient } from 'express-file-endpoints/client'`, in a user's test. */
export const { createClient } = require('express-file-endpoints/client') as typeof Client;

export interface ExampleServer {
  createApp(options?: { token?: string; logger?: Logger; dir?: string }): Promise<Express>;
  DEFAULT_TOKEN: string;
}
export interface Logger {
  error(...args: unknown[]): void;
}

const server = require('../server.js') as ExampleServer;
export const { DEFAULT_TOKEN } = server;

/**
 * The environment variable naming a build of the example's endpoints: test/from-build.test.ts runs the
 * example's tests once more with it, mounted from the build.
 */
export const EXAMPLE_BUILD_DIR = 'EXAMPLE_BUILD_DIR';

/** server.js's createApp, mounting the build EXAMPLE_BUILD_DIR names when it is set. */
export const createApp: ExampleServer['createApp'] = (options) =>
  server.createApp({ dir: process.env[EXAMPLE_BUILD_DIR], ...options });

/** The endpoints middleware server.js keeps in `app.locals`. */
export function endpointsOf(app: Express): EndpointsMiddleware {
  return app.locals.endpoints as EndpointsMiddleware;
}

/** A logger that remembers instead of printing, so expected errors do not clutter the output. */
export function silentLogger(): Logger & { errors: unknown[] } {
  const errors: unknown[] = [];
  return { errors, error: (...args) => errors.push(...args) };
}

function ensureBuilt(): void {
  const built = ['dist/index.js', 'dist/testing.js', 'dist/client.js'].map((file) =>
    mtimeOf(path.join(ROOT, file)),
  );
  if (built.every((time) => time > newestIn(path.join(ROOT, 'src')))) return;
  console.log(
    '  (building express-file-endpoints for the example tests: dist/ is missing or older than src/)',
  );
  execSync('npm run build', { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(full) : mtimeOf(full));
  }
  return newest;
}

function mtimeOf(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Where the browser tests find Debian's Chromium (`CHROMIUM_PATH` to point elsewhere). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium, headless, through playwright-core. Playwright gives the browser a fresh profile of
 * its own (a --user-data-dir here would clash with it); the networking flags stop Chromium calling
 * outside hosts, which fails here.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
