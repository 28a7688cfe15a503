/**
 * Where on disk a requested path is, checked as send checks it before it looks: no NUL byte (400);
 * no `..` part that could climb out (403), looked for after the path is normalized under `root`, so
 * `a/../../x` and `..\x` are caught as `../x` is; no part starting with a dot unless `dotfiles` lets
 * it through. The path here is already decoded, once: by the router for a catch-all's segments, or
 * as given to sendFile. A path that passes is joined under `root` and cannot be outside it.
 */
import { isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { FileError } from './file-error';
import type { FileSettings } from './options';

const UP_PATH = /(?:^|[\\/])\.\.(?:[\\/]|$)/;

export type Located = { path: string } | { refused: FileError };

export function locate(path: string, settings: FileSettings): Located {
  if (path.includes('\0')) return { refused: new FileError(400, 'NULL_BYTE') };
  const root = settings.root;
  let parts: string[];
  let full: string;
  if (root !== null) {
    const relative = path ? normalize('.' + sep + path) : path;
    if (UP_PATH.test(relative)) return { refused: new FileError(403, 'PATH_TRAVERSAL') };
    parts = relative.split(sep);
    full = normalize(join(root, relative));
    // What the checks above already make sure of, checked once more where it matters.
    if (!isInside(full, root)) return { refused: new FileError(403, 'PATH_TRAVERSAL') };
  } else {
    // `..` is refused outright without a root: nothing says how far up it may go.
    if (UP_PATH.test(path)) return { refused: new FileError(403, 'PATH_TRAVERSAL') };
    parts = normalize(path).split(sep);
    full = resolve(path);
  }
  if (settings.dotfiles !== 'allow' && parts.some(isDotfile)) {
    // `ignore`: answered as if it were not there.
    return {
      refused: settings.dotfiles === 'deny' ? new FileError(403, 'DOTFILE') : new FileError(404, 'ENOENT'),
    };
  }
  return { path: full };
}

function isDotfile(part: string): boolean {
  return part.length > 1 && part[0] === '.';
}

function isInside(full: string, root: string): boolean {
  if (full === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return full.startsWith(prefix) && isAbsolute(full);
}
