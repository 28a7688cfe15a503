/**
 * The library's version, which a build records and a mount from a build compares: a manifest written by another
 * version may hold a table this one reads differently. The package build writes it in (tsup's `define`); run from
 * the sources, it is read from package.json.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

declare const __LIBRARY_VERSION__: string | undefined;

let version: string | undefined;

export function libraryVersion(): string {
  if (typeof __LIBRARY_VERSION__ === 'string') return __LIBRARY_VERSION__;
  // src/manifest/version.ts sits two folders below package.json.
  version ??= (
    JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { version: string }
  ).version;
  return version;
}
