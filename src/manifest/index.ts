/**
 * manifest: what a build made by `express-file-endpoints build` holds, and how a mount reads it: the route
 * table without globbing or validating, the modules from one import, a build made by another version or from an
 * older tree refused.
 */
export {
  BUILD_KIND,
  BUILD_MARKER,
  MODULE_NAMES,
  moduleFiles,
  tableTree,
  treeHash,
  type BuildTable,
} from './build-table';
export { openBuild, readBuildTable, type OpenedBuild } from './open-build';
export { libraryVersion } from './version';
