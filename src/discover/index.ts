/**
 * discover: files on disk -> RouteFile[] (a walk of the folders, segment parsing, static export reading), and the reading of
 * a module's source without running it that goes with it: which files hold code, and their syntax tree.
 */
export type {
  Segment,
  ExportInfo,
  RouteFile,
  RouteFileKind,
  DiscoveredTree,
  MisnamedFile,
  ParsedFolder,
} from './types';
export { describeRouteFile, discoverTree, displayPath, routeFilePaths, treeRoot } from './discover-tree';
export { formatPattern, parseFolder } from './parse-segment';
export { CODE_EXTENSIONS, MODULE_EXTENSIONS, isCodeFile, isTypeScriptFile, readSource } from './source-files';
export { readExports } from './read-exports';
export { walkFiles } from './walk-files';
export { exportsOfSyntaxTree, readExportsExactly } from './syntax-exports';
export { parseSyntaxTree, positionOf, walk, type Position, type SyntaxNode } from './syntax-tree';
export { middlewareFilesFor } from './middleware-files';
