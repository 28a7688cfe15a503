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
export { CODE_EXTENSIONS, isCodeFile, isTypeScriptFile } from './source-files';
export { readExports } from './read-exports';
