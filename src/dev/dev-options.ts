/**
 * Whether development mode is on: `dev: true` or an options object turns it on, `dev: false`
 * turns it off, and without either `NODE_ENV=development` decides — so production, where
 * NODE_ENV is unset or `production`, never watches anything.
 */
import path from 'node:path';
import { defaultTypesFile } from '../typed-routes';
import { environmentVariable } from '../runtime';
import type { DevLogger, DevOptions, DevReload } from './types';

export interface ResolvedDevOptions {
  debounce: number;
  /** Absolute path of the declaration file, or `false`. */
  types: string | false;
  logger: DevLogger;
  onReload: ((reload: DevReload) => void) | undefined;
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
  const given: DevOptions = typeof dev === 'object' ? dev : {};
  return {
    debounce: given.debounce ?? 30,
    types: given.types === false ? false : path.resolve(given.types ?? defaultTypesFile(root)),
    logger: given.logger ?? consoleLogger,
    onReload: given.onReload,
  };
}
