/**
 * The path Node names a module by (its module map, `require.cache`): the file's real path, unless Node was told to
 * keep symlinks. Asked of the file system once per file until `forgetRealPaths`: a start asks it of each route file
 * several times (to compile it, to bundle it, to put its exports in `require.cache`).
 */
import { realpathSync } from 'node:fs';
import { runtime } from '../runtime';

/**
 * `--preserve-symlinks`, given on the command line or in NODE_OPTIONS, or NODE_PRESERVE_SYMLINKS=1. Read on first
 * use, and on Node only: Deno refuses a read of the environment it was not allowed, and development mode asks for
 * real paths there too.
 */
let keepsSymlinks: boolean | undefined;
const known = new Map<string, string>();

export function realModulePath(file: string): string {
  keepsSymlinks ??=
    runtime.name === 'Node' &&
    (/(?:^|\s)--preserve-symlinks(?:\s|$)/.test(
      `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`,
    ) ||
      process.env.NODE_PRESERVE_SYMLINKS === '1');
  if (keepsSymlinks) return file;
  let real = known.get(file);
  if (real === undefined) {
    try {
      // The system's realpath, where it gives what Node's own gives: on Windows it resolves mapped drives, which
      // Node's keeps.
      real = process.platform === 'win32' ? realpathSync(file) : realpathSync.native(file);
    } catch {
      return file; // not there (yet): asked again next time
    }
    known.set(file, real);
  }
  return real;
}

/** Files come and go, and links change, between the compilations of development mode. */
export function forgetRealPaths(): void {
  known.clear();
}
