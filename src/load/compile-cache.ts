/**
 * Where compiled route files are kept between starts: one file per tree (named by the tree's path), holding each
 * compiled source under a hash of everything its output depends on (the source's text, its path, its module
 * format, the compiler options, esbuild's version, the Node major it targets). A changed file, tsconfig or esbuild
 * is a miss, so nothing is ever stale, and the file is written again with only the tree's current entries, so it
 * does not grow. One file read at start, not one per route file. The folder is the project's
 * `node_modules/.cache/express-file-endpoints`, which formatters, linters and git leave alone.
 *
 * A project without `node_modules` at its root, or a folder that cannot be written (a read-only image), has no
 * cache: every file is compiled again on every start, in memory, and nothing fails. The file is written to a
 * temporary name and renamed, off the main thread, so two processes starting at once never read half of it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Raised when what the compiler writes changes shape: every entry of an older library is then a miss. */
const FORMAT_VERSION = '2';

export interface CompileCache {
  read(key: string): string | undefined;
  /** Writes the entries given, and only them, in the background; resolves once written or given up. */
  write(entries: ReadonlyMap<string, string>): Promise<void>;
}

/** The cache of the tree at `root`. */
export function compileCache(root: string): CompileCache {
  const file = cacheFile(root);
  let stored: Record<string, string> = {};
  if (file !== undefined) {
    try {
      stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    } catch {
      stored = {};
    }
  }
  return {
    read: (key) => (Object.hasOwn(stored, key) ? stored[key] : undefined),
    async write(entries) {
      if (file === undefined) return;
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(temporary, JSON.stringify(Object.fromEntries(entries)));
        await rename(temporary, file);
      } catch {
        // Not writable: this start compiled in memory, and so will the next.
        await rm(temporary, { force: true }).catch(() => {});
      }
    },
  };
}

/** The key of one compiled file: a hash of its source and of what else decides its output (`settings`). */
export function cacheKey(source: string, settings: string): string {
  return createHash('sha256')
    .update(FORMAT_VERSION)
    .update('\0')
    .update(settings)
    .update('\0')
    .update(source)
    .digest('hex');
}

function cacheFile(root: string): string | undefined {
  const project = projectRoot(root);
  if (project === undefined) return undefined;
  const modules = path.join(project, 'node_modules');
  if (!isFolder(modules)) return undefined;
  const name = `typescript-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.json`;
  return path.join(modules, '.cache', 'express-file-endpoints', name);
}

/** The nearest folder at or above `from` with a package.json. */
function projectRoot(from: string): string | undefined {
  for (let at = from; ;) {
    if (statSync(path.join(at, 'package.json'), { throwIfNoEntry: false })?.isFile()) return at;
    const up = path.dirname(at);
    if (up === at) return undefined;
    at = up;
  }
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}
