/**
 * Discovery: finds the endpoint, page and middleware files of a tree and describes each as a RouteFile.
 * Synchronous on purpose, so `mountEndpoints(options)` can validate the whole tree before it returns.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withoutStack } from '../debug';
import { formatPattern, parseFolder } from './parse-segment';
import { readExports } from './read-exports';
import type { DiscoveredTree, MisnamedFile, RouteFile, RouteFileKind, Segment } from './types';
import { walkFiles } from './walk-files';

// Exact base names, so `endpoint.d.ts`, `endpoint.test.ts` or `endpoint.spec.js` can never match.
const ROUTE_FILE = /^(?:(?:endpoint|middleware)\.(?:ts|js|mts|mjs|cts|cjs)|page\.(?:tsx|jsx|ts|js))$/;
// Not route files: found only so validation can report one meant as an endpoint.
const MISNAMED_FILE = /^(?:route|index)\.(?:ts|js|mts|mjs|cts|cjs)$/;
// Never walked into: dot folders, node_modules, and `_private` folders (which covers `__tests__` too).
const enterFolder = (name: string) =>
  !name.startsWith('.') && !name.startsWith('_') && name !== 'node_modules';
const keepFile = (name: string) => ROUTE_FILE.test(name) || MISNAMED_FILE.test(name);

/**
 * Every route file under `dir` (default `app`: an absolute path, a path relative to the working folder, or a file
 * URL, object or string), sorted by path, with exports read for endpoints and middleware.
 */
export function discoverTree(dir: string | URL = 'app'): DiscoveredTree {
  const root = treeRoot(dir);
  if (!isDirectory(root)) throw withoutStack(new Error(missingFolderMessage(dir, root)));

  const relativePaths = routeFilePaths(root);

  const cwd = process.cwd();
  const isMisnamed = (relative: string) => MISNAMED_FILE.test(relative.slice(relative.lastIndexOf('/') + 1));
  const files = relativePaths
    .filter((r) => !isMisnamed(r))
    .map((relative) => describeRouteFile(root, relative, cwd));
  // Pages belong to the host app; only endpoints and middleware have exports we need.
  for (const file of files) if (file.kind !== 'page') file.exports = readExports(file.file);
  const misnamed = relativePaths.filter(isMisnamed).map((relative): MisnamedFile => {
    const { file, displayPath, pattern } = describeRouteFile(root, relative, cwd);
    return { file, displayPath, pattern, exports: readExports(file) };
  });
  return { root, files, misnamed };
}

/** The absolute path of `dir`: a path (relative to the working folder) or a file URL. */
export function treeRoot(dir: string | URL): string {
  return dir instanceof URL || dir.startsWith('file:') ? fileURLToPath(dir) : path.resolve(dir);
}

/**
 * The route files (and misnamed ones) under `root`, relative to it with `/`, sorted. Also what tells a build that
 * files were added or removed after it was made.
 */
export function routeFilePaths(root: string): string[] {
  return (
    walkFiles(root, { enter: enterFolder, keep: keepFile })
      // Plain code-unit order: the same on every machine, whatever the locale.
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  );
}

/**
 * A relative `dir` is resolved from the working folder, which is wherever the app was started: the usual
 * cause of a missing folder, so the message says where it looked and how to anchor it to the app's file.
 */
function missingFolderMessage(dir: string | URL, root: string): string {
  const what = `express-file-endpoints: the endpoint folder ${root} does not exist (or is not a folder).`;
  if (dir instanceof URL || dir.startsWith('file:') || path.isAbsolute(dir)) return what;
  const rel = dir.replace(/^\.\//, '').replace(/\\/g, '/');
  return (
    `${what}\nA relative dir ('${dir}') is resolved from the folder the app was started in (${process.cwd()}). ` +
    `To find it from your app's own file instead, pass dir: path.join(__dirname, '${rel}') in CommonJS, ` +
    `or dir: fileURLToPath(new URL('./${rel}', import.meta.url)) in an ES module.`
  );
}

/**
 * A route file from its path relative to the tree's root (with `/`): what its name and folders mean. `cwd` is
 * what its displayPath is relative to. Also how a build's table is read back (src/manifest).
 */
export function describeRouteFile(root: string, relative: string, cwd: string): RouteFile {
  const parts = relative.split('/');
  const baseName = parts.pop() as string;
  const file = path.join(root, ...parts, baseName);
  const segments: Segment[] = [];
  const parsedFolders = parts.map(parseFolder);
  for (const parsed of parsedFolders) {
    if (parsed.kind === 'group' || parsed.kind === 'private') continue;
    // Kept as static so the file still has a URL; validation reports the folder.
    segments.push(parsed.kind === 'malformed' ? { kind: 'static', value: parsed.value } : parsed);
  }
  return {
    kind: kindOf(baseName),
    file,
    displayPath: displayPath(file, cwd),
    folders: parts,
    parsedFolders,
    segments,
    pattern: formatPattern(segments),
  };
}

function kindOf(baseName: string): RouteFileKind {
  if (baseName.startsWith('endpoint.')) return 'endpoint';
  if (baseName.startsWith('page.')) return 'page';
  return 'middleware';
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A file as messages name it: relative to the working directory (or to `from`), with `/`; `.` for the
 * directory itself. Every path the library prints is made here.
 */
export function displayPath(file: string, from = process.cwd()): string {
  return path.relative(from, file).split(path.sep).join('/') || '.';
}
