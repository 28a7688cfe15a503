/**
 * Watches the endpoint tree with Node's own `fs.watch(dir, { recursive: true })`: native on
 * macOS and Windows, and on Linux (Node 20+) one inotify watch per folder that follows folders
 * as they are created, removed and renamed (measured on Node 20, 22, 24 and 26: edits, new
 * folders with files, removed and renamed folders, and editors' write-then-rename saves are all
 * reported within a few milliseconds). No dependency is needed for that.
 *
 * Events come in bursts (an editor's save is two or three), so they are collected until the tree
 * has been quiet for `debounce` ms and handed over as one batch of absolute paths. Paths inside
 * `node_modules` or dot-folders are not endpoint code and are left out.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

export interface TreeWatcher {
  close(): void;
}

/** `onBatch` gets every path that changed; a `null` filename (the OS lost track) yields the root. */
export function watchTree(
  root: string,
  debounce: number,
  onBatch: (paths: string[]) => void,
  onError: (error: Error) => void,
): TreeWatcher {
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const paths = [...pending];
    pending = new Set();
    onBatch(paths);
  };
  const watcher: FSWatcher = watch(root, { recursive: true }, (_event, filename) => {
    const relative = filename === null ? '' : String(filename);
    if (isIgnored(relative)) return;
    pending.add(path.join(root, relative));
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounce);
  });
  watcher.on('error', onError);
  // A dev server stays up because it listens; the watcher alone must not keep a script alive.
  watcher.unref();
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}

function isIgnored(relative: string): boolean {
  return relative.split(/[\\/]/).some((part) => part === 'node_modules' || part.startsWith('.'));
}
