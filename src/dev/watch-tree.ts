/**
 * Watches the endpoint tree. On macOS and Windows, Node's `fs.watch(dir, { recursive: true })` is
 * native and used as is. On Linux it is not: Node 22 and 24 emulate it with one watch per file, and a
 * file replaced by rename — how `sed -i`, vim and many editors save — is never heard from again
 * (measured: the second save of a file goes unseen on Node 22 and 24; Node 26 fixed it). So on
 * Linux every folder gets its own non-recursive `fs.watch` (one inotify watch, which names the
 * entry that changed whatever its inode), and folders are added and dropped as they come and go —
 * what chokidar does, in a few lines and with no dependency.
 *
 * Events come in bursts (an editor's save is two or three), so they are collected until the tree
 * has been quiet for `debounce` ms and handed over as one batch of absolute paths. `node_modules`
 * and dot-folders are not endpoint code and are left out.
 */
import { readdirSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

export interface TreeWatcher {
  close(): void;
}

export function watchTree(
  root: string,
  debounce: number,
  onBatch: (paths: string[]) => void,
  onError: (error: Error) => void,
): TreeWatcher {
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const changed = (file: string) => {
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      const paths = [...pending];
      pending = new Set();
      onBatch(paths);
    }, debounce);
  };
  const folders = new Map<string, FSWatcher>();
  const recursive = process.platform === 'darwin' || process.platform === 'win32';

  const watchFolder = (dir: string): void => {
    if (folders.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { recursive }, (_event, filename) => {
        const relative = filename === null ? '' : String(filename);
        if (isIgnored(relative)) return;
        const file = path.join(dir, relative);
        if (!recursive) watchFolders(file); // a folder that appeared (a file is skipped)
        changed(file);
      });
    } catch {
      return; // gone already, or not a folder
    }
    watcher.on('error', (error) => {
      // A removed folder's watch ends with an error on some platforms: that is not a failure.
      watcher.close();
      folders.delete(dir);
      if (dir === root) onError(error);
    });
    // A dev server stays up because it listens; the watcher alone must not keep a script alive.
    watcher.unref();
    folders.set(dir, watcher);
  };
  const watchFolders = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      // Removed: forget its watches, so a folder created again under that name is watched anew.
      for (const [folder, watcher] of folders) {
        if (folder === dir || folder.startsWith(dir + path.sep)) {
          watcher.close();
          folders.delete(folder);
        }
      }
      return;
    }
    watchFolder(dir);
    if (recursive) return;
    for (const entry of entries) {
      if (entry.isDirectory() && !isIgnored(entry.name)) watchFolders(path.join(dir, entry.name));
    }
  };
  watchFolders(root);

  return {
    close() {
      if (timer) clearTimeout(timer);
      for (const watcher of folders.values()) watcher.close();
      folders.clear();
    },
  };
}

function isIgnored(relative: string): boolean {
  return relative.split(/[\\/]/).some((part) => part === 'node_modules' || part.startsWith('.'));
}
