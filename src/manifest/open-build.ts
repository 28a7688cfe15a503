/**
 * A mount from a build: the route table comes from the build, validated when it was made, so nothing is globbed,
 * read or validated here; the modules come from one import of the manifest module (or from the manifest the app
 * imported itself, which is what a bundler needs).
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { withoutStack } from '../debug';
import { displayPath, treeRoot, type DiscoveredTree } from '../discover';
import { importBuild, moduleExports, type ModuleExports } from '../load';
import { environmentVariable } from '../runtime';
import type { MountOptions } from '../types';
import {
  BUILD_KIND,
  BUILD_MARKER,
  MODULE_NAMES,
  moduleFiles,
  tableTree,
  treeHash,
  type BuildTable,
} from './build-table';
import { libraryVersion } from './version';

export interface OpenedBuild {
  tree: DiscoveredTree;
  /** Each route file's exports, by `RouteFile.file`; rejects when the manifest module cannot be imported. */
  modules: Promise<ReadonlyMap<string, ModuleExports>>;
}

/** The manifest module's value: the table and, in the table's order, every route file's module. */
type ManifestValue = BuildTable & { modules: readonly unknown[] };

/** The build the options point to, or undefined when they point to an endpoint tree. Throws on an unusable one. */
export function openBuild(options: MountOptions): OpenedBuild | undefined {
  if (options.manifest !== undefined) {
    const value = manifestValue(options.manifest, 'the manifest option');
    const tree = tableTree(usableTable(value, 'the manifest option'));
    return { tree, modules: Promise.resolve(modulesOf(tree, value)) };
  }
  const root = treeRoot(options.dir ?? 'app');
  const table = readBuildTable(root);
  if (!table) return undefined;
  const where = displayPath(root);
  const tree = tableTree(table);
  const modules = importBuild(path.join(root, table.module)).then((namespace) => {
    const value = manifestValue(namespace.default, `${where}/${table.module}`);
    // A manifest module from another build (a folder copied together from two) would mismatch the table.
    if (value.hash !== table.hash) {
      throw withoutStack(
        new Error(
          `express-file-endpoints: ${where}/${table.module} is not the build ${where}/${BUILD_MARKER} describes. ${AGAIN}`,
        ),
      );
    }
    return modulesOf(tree, value);
  });
  return { tree, modules };
}

/**
 * The table of the build in `root`, undefined when `root` holds none (three stats: the cost a mount of a plain tree
 * pays for this). Throws on a build that cannot be used. Also what `typegen` reads a build with.
 */
export function readBuildTable(root: string): BuildTable | undefined {
  const marker = path.join(root, BUILD_MARKER);
  if (!statSync(marker, { throwIfNoEntry: false })) {
    refuseManifestWithoutMarker(root);
    return undefined;
  }
  return usableTable(readMarker(marker), `the build in ${displayPath(root)}`);
}

const AGAIN = 'Run `npx express-file-endpoints build` again.';

/**
 * A build folder deployed without its marker (a `.dockerignore` or a `files` list that leaves out `*.json`) holds
 * no route file: mounted as a tree, it would be an empty one, every request a 404 and nothing said. Its manifest
 * module gives it away. A file of that name in a tree is a build's only if it holds a build's table.
 */
function refuseManifestWithoutMarker(root: string): void {
  for (const name of Object.values(MODULE_NAMES)) {
    const file = path.join(root, name);
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) continue;
    if (!readFileSync(file, 'utf8').includes(JSON.stringify(BUILD_KIND))) continue;
    throw withoutStack(
      new Error(
        `express-file-endpoints: ${displayPath(root)} holds the manifest module ${name} of a build, but not ` +
          `${BUILD_MARKER}, the file that makes the folder a build and holds its route table. Deploy the build ` +
          'folder whole (a .dockerignore or a files list that leaves out *.json drops it), or run ' +
          '`npx express-file-endpoints build` again.',
      ),
    );
  }
}

/** The marker's JSON; a marker that does not parse is no build, as usableTable says. */
function readMarker(marker: string): unknown {
  try {
    return JSON.parse(readFileSync(marker, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The manifest module's default export, or its namespace (`import * as manifest`); `what` names it in errors. */
function manifestValue(manifest: unknown, what: string): ManifestValue {
  const outer = manifest as (Partial<ManifestValue> & { default?: unknown }) | null | undefined;
  const value = (
    outer?.kind === undefined && outer?.default !== undefined ? outer.default : outer
  ) as Partial<ManifestValue> | null;
  // The marker's JSON has a table but no modules: only the manifest module holds them.
  if (!Array.isArray(value?.modules)) throw notABuild(what);
  return value as ManifestValue;
}

function notABuild(what: string): Error {
  return withoutStack(
    new Error(`express-file-endpoints: ${what} is not a build made by \`express-file-endpoints build\`.`),
  );
}

/**
 * The table, once it is known to be from this version of the library and, outside production, from the tree as
 * it is now: a tree changed after the build is refused rather than served stale.
 */
function usableTable(value: unknown, what: string): BuildTable {
  const table = value as Partial<BuildTable> | null;
  const wellFormed =
    table?.kind === BUILD_KIND &&
    [table.version, table.module, table.source, table.sourceDisplay, table.cwd, table.hash].every(
      (field) => typeof field === 'string',
    ) &&
    Array.isArray(table.inputs) &&
    Array.isArray(table.files) &&
    table.files.every((entry) => typeof entry?.file === 'string');
  if (!wellFormed) throw notABuild(what);
  const built = table as BuildTable;
  if (built.version !== libraryVersion()) {
    throw withoutStack(
      new Error(
        `express-file-endpoints: ${what} was made by express-file-endpoints ${built.version}; this is ${libraryVersion()}. ${AGAIN}`,
      ),
    );
  }
  // Hashing reads every compiled file of the tree: done in development and tests only, where the tree is at hand
  // and changes; a production deployment usually has no tree to compare with.
  if (environmentVariable('NODE_ENV') !== 'production' && isDirectory(built.source)) {
    if (treeHash(built.source, built.inputs) !== built.hash) {
      throw withoutStack(
        new Error(
          `express-file-endpoints: ${built.sourceDisplay} has changed since ${what} was made. ${AGAIN} ` +
            `(This check runs when NODE_ENV is not production.)`,
        ),
      );
    }
  }
  return built;
}

function modulesOf(tree: DiscoveredTree, value: ManifestValue): ReadonlyMap<string, ModuleExports> {
  return new Map(
    moduleFiles(tree.files).map((file, i) => [file.file, moduleExports(value.modules[i] as ModuleExports)]),
  );
}

function isDirectory(dir: string): boolean {
  return statSync(dir, { throwIfNoEntry: false })?.isDirectory() === true;
}
