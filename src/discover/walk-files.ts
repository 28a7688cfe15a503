/**
 * The files under a folder, walked with node:fs alone. Discovery needs a few exact base names in every
 * folder but dot folders, `_private` ones and node_modules; development mode needs every code file. A glob
 * library is more than either needs, and fast-glob asks the operating system for its CPU count as it is
 * imported, which Deno allows only with `--allow-sys`: mounting a tree needs read access and nothing more.
 */
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';

export interface WalkRules {
  /** Whether to walk into a folder, by its name. */
  enter(name: string): boolean;
  /** Whether to keep a file, by its name. */
  keep(name: string): boolean;
}

/**
 * The kept files under `root`, relative to it with `/`, in the order the folders list them. Symbolic links
 * are followed, as to files and folders; a link back to a folder being walked (a loop) is not, nor is a
 * broken one. A folder that cannot be read is left out.
 */
export function walkFiles(root: string, rules: WalkRules): string[] {
  const found: string[] = [];
  // `real`: the folder's real path, which a loop is told by. A folder entered by its own name, not through a
  // link, is its parent's real path and its name: only a link is asked of the file system.
  const walk = (dir: string, real: string, prefix: string, walking: ReadonlySet<string>) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const name = entry.name;
      let isFolder = entry.isDirectory();
      let isFile = entry.isFile();
      const linked = entry.isSymbolicLink();
      if (linked) {
        try {
          const target = statSync(path.join(dir, name));
          isFolder = target.isDirectory();
          isFile = target.isFile();
        } catch {
          continue;
        }
      }
      if (isFile) {
        if (rules.keep(name)) found.push(prefix + name);
      } else if (isFolder && rules.enter(name)) {
        const folder = path.join(dir, name);
        const realChild = linked ? realFolder(folder) : path.join(real, name);
        if (realChild === undefined || walking.has(realChild)) continue;
        walk(folder, realChild, `${prefix}${name}/`, new Set(walking).add(realChild));
      }
    }
  };
  const real = realFolder(root);
  if (real !== undefined) walk(root, real, '', new Set([real]));
  return found;
}

function realFolder(folder: string): string | undefined {
  try {
    return realpathSync(folder);
  } catch {
    return undefined;
  }
}
