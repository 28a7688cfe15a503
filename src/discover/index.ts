/** discover: files on disk -> RouteFile[] (fast-glob, segment parsing, static export reading). */
export type {
  Segment,
  ExportInfo,
  RouteFile,
  RouteFileKind,
  DiscoveredTree,
  MisnamedFile,
  ParsedFolder,
} from './types';
export { discoverTree, displayPath } from './discover-tree';
export { formatPattern, parseFolder } from './parse-segment';
export { readExports } from './read-exports';
