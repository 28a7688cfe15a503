/**
 * Whether development mode is on: `dev: true` or an options object turns it on, `dev: false`
 * turns it off, and without either `NODE_ENV=development` decides — so production, where
 * NODE_ENV is unset or `production`, never watches anything.
 *
 * It reloads modules through Node's module hooks (module-versions.ts). A runtime without them
 * (Bun) cannot have it: asked for with `dev`, the mount is refused, saying why and what reloads
 * there instead; implied by NODE_ENV alone, the tree is served without it, and a warning says so.
 */
import { existsSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { defaultTypesFile } from '../typed-routes';
import { environmentVariable, runtime } from '../runtime';
import type { DevLogger, DevOptions, DevReload } from '../types';

export interface ResolvedDevOptions {
  debounce: number;
  /** Absolute path of the declaration file, or `false`. */
  types: string | false;
  logger: DevLogger;
  onReload: ((reload: DevReload) => void) | undefined;
  /** Where the inspector is served, or `false`. */
  inspector: string | false;
}

const consoleLogger: DevLogger = {
  info: (message) => console.log(message),
  error: (message) => console.error(message),
};

export function resolveDevOptions(
  dev: boolean | DevOptions | undefined,
  root: string,
): ResolvedDevOptions | undefined {
  if (dev === false) return undefined;
  if (dev === undefined && environmentVariable('NODE_ENV') !== 'development') return undefined;
  if (!hasModuleHooks()) {
    const why =
      `express-file-endpoints: development mode reloads endpoint modules through Node's module hooks ` +
      `(module.registerHooks), which ${runtime.label} does not have. ${RELOAD_ADVICE[runtime.name]}`;
    if (dev !== undefined) throw new Error(why);
    console.warn(`${why} NODE_ENV is development: the endpoints are served without development mode.`);
    return undefined;
  }
  const given: DevOptions = typeof dev === 'object' ? dev : {};
  return {
    debounce: given.debounce ?? 30,
    types: given.types === false ? false : path.resolve(given.types ?? devTypesFile(root)),
    logger: given.logger ?? consoleLogger,
    onReload: given.onReload,
    inspector: given.inspector ?? '/__endpoints',
  };
}

/**
 * Where development mode keeps the typed-routes declaration when not told: the file `typegen` writes
 * beside the tree, once the app has one (it chose to have it there), else the project's
 * `node_modules/.cache`, which formatters and linters leave alone: development mode writes nothing
 * into the app's sources unasked. docs/development-mode.md says how tsconfig includes either.
 */
export function devTypesFile(root: string): string {
  const beside = defaultTypesFile(root);
  if (existsSync(beside)) return beside;
  return path.join(projectRoot(root), 'node_modules', '.cache', 'express-file-endpoints', 'env.d.ts');
}

/** The nearest folder at or above `from` with a package.json; the tree's parent when none has one. */
function projectRoot(from: string): string {
  for (let at = from; ;) {
    if (isFile(path.join(at, 'package.json'))) return at;
    const up = path.dirname(at);
    if (up === at) return path.dirname(from);
    at = up;
  }
}

/** A folder the runtime may not read (Deno without `--allow-read` there) has no package.json for us. */
function isFile(file: string): boolean {
  try {
    return existsSync(file);
  } catch {
    return false;
  }
}

function hasModuleHooks(): boolean {
  return typeof (Module as { registerHooks?: unknown }).registerHooks === 'function';
}

/** What restarts the app on save where development mode cannot run. */
const RELOAD_ADVICE: Record<typeof runtime.name, string> = {
  Bun: 'Run the app with `bun --hot`, which reloads it on save, and leave `dev` unset.',
  Deno: 'Run the app with `deno run --watch`, which restarts it on save, and leave `dev` unset.',
  Node: 'Use Node 22.15 or later.',
};
