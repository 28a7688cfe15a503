/**
 * What a build holds besides compiled code: the validated route table, the library version that wrote it, and a
 * hash of the tree it was made from. The build writes it twice, as JSON in the marker file (what a `dir` mount
 * reads, synchronously, before any module loads) and inside the manifest module (what a bundled app has).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  describeRouteFile,
  routeFilePaths,
  type DiscoveredTree,
  type ExportInfo,
  type RouteFile,
} from '../discover';

/** The file that makes a folder a build: `mountEndpoints({ dir })` looks for it before globbing. */
export const BUILD_MARKER = 'express-file-endpoints-build.json';
export const BUILD_KIND = 'express-file-endpoints build';
/** The manifest module's name, by the module format of the tree's package. */
export const MODULE_NAMES = { esm: 'manifest.mjs', cjs: 'manifest.cjs' } as const;

export interface BuildTable {
  kind: typeof BUILD_KIND;
  /** The version of the library that wrote the build. */
  version: string;
  /** The manifest module's file name, in the build folder. */
  module: string;
  /** The tree the build was made from: its absolute path when built, and as messages named it. */
  source: string;
  sourceDisplay: string;
  /** The working folder of the build, which messages name files relative to, as a mount of the tree would. */
  cwd: string;
  /** See treeHash. */
  hash: string;
  /** The local files the build compiled (route files and what they import), relative to `source`, with `/`. */
  inputs: string[];
  /**
   * The validated route files, pages too, in the tree's order: each file's path relative to `source` (with `/`)
   * and the exports validation saw. The rest of a RouteFile follows from the path (tableTree), which keeps
   * the table small: it is parsed on every start.
   */
  files: { file: string; exports?: ExportInfo }[];
}

/** The table's route files, as discovering the tree gave them when the build was made. */
export function tableTree(table: BuildTable): DiscoveredTree {
  const files = table.files.map(({ file, exports }) => {
    const routeFile = describeRouteFile(table.source, file, table.cwd);
    return exports ? { ...routeFile, exports } : routeFile;
  });
  return { root: table.source, files };
}

/**
 * The route files that are modules (endpoints and middleware; a page is the app's to render), in the order the
 * manifest module lists them.
 */
export function moduleFiles<File extends Pick<RouteFile, 'kind'>>(files: readonly File[]): File[] {
  return files.filter((file) => file.kind !== 'page');
}

/** A hash of the tree's route file names and of the content of every local file the build compiled. */
export function treeHash(source: string, inputs: readonly string[]): string {
  const hash = createHash('sha256');
  for (const name of routeFilePaths(source)) hash.update(`route ${name}\0`);
  for (const input of inputs) {
    hash.update(`file ${input}\0`);
    try {
      hash.update(readFileSync(path.join(source, input)));
    } catch {
      hash.update('\0missing\0');
    }
  }
  return hash.digest('hex');
}
