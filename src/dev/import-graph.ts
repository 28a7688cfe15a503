/**
 * Who imports whom under the endpoint tree, so a change reloads the changed module and every
 * module that imports it (directly or not), and nothing else: `_lib/users.ts` keeps its
 * in-memory state when only an endpoint changes.
 *
 * Two sources, joined: a static scan of every source file under the tree (es-module-lexer for
 * `import`/`export … from`/`import()`, a pattern for `require()`), which is all ES modules have;
 * and, for CommonJS, Node's own record of what each module required (`module.children` in
 * `require.cache`), which also knows what the scan cannot resolve (tsconfig path aliases).
 * Joining can only add importers, so at worst a little more is reloaded than needed.
 *
 * The tree is read once the mount is ready (`read`), not before: reading every file is about a sixth of a warm
 * start of 1,000 endpoints. A save or a load error that comes first reads it then; a file removed before that is
 * not found among the imports of the others, which then reload only when they are saved themselves.
 *
 * Not `check`'s syntax tree (discover/syntax-tree.ts): the scan reads every file under the tree
 * when the server starts and each file again as it is saved, often half-written, and needs only
 * the specifiers. The lexer, already loaded to read exports, gives them for a fraction of a
 * parse's time and without loading Babel; a file it cannot read falls back to a looser pattern.
 */
import { readFileSync, statSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'es-module-lexer';
import { isCodeFile, walkFiles } from '../discover';
import { filesOfBundle, isRelative, resolveImport } from '../load';

const REQUIRE_CALL = /\brequire\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g;
const ANY_IMPORT = /\b(?:from|import|require)\s*\(?\s*(['"])([^'"\n]+)\1/g;

interface CachedModule {
  filename?: string;
  children?: CachedModule[];
}

export interface ImportGraph {
  /** Reads the tree now, unless it was read already. */
  read(): void;
  /** Re-reads these files (or forgets them, when gone); a folder re-reads what is under it. */
  update(paths: readonly string[]): void;
  /** The files themselves plus everything under the tree that imports them, transitively. */
  withImporters(files: Iterable<string>): Set<string>;
  /** The file and what it imports under the tree, transitively, the file first. */
  dependenciesOf(file: string): string[];
}

/** Every code file under `folder` but in dot folders and node_modules, as absolute paths. */
function sourceFiles(folder: string): string[] {
  const visible = (name: string) => !name.startsWith('.');
  return walkFiles(folder, {
    enter: (name) => visible(name) && name !== 'node_modules',
    keep: (name) => visible(name) && isCodeFile(name),
  }).map((relative) => path.join(folder, relative));
}

export function createImportGraph(root: string): ImportGraph {
  /** Each file's imports, once the tree is read. */
  let scanned: Map<string, string[]> | undefined;
  const inTree = (file: string) => file.startsWith(root + path.sep);
  const scan = (file: string) => {
    const imports = scanImports(file);
    if (imports) scanned!.set(file, imports);
    else scanned!.delete(file);
  };
  /** Each file's imports, the tree read the first time they are asked for. */
  const allImports = (): Map<string, string[]> => {
    if (scanned) return scanned;
    scanned = new Map();
    for (const file of sourceFiles(root)) scan(file);
    return scanned;
  };

  return {
    read: () => void allImports(),
    update(paths) {
      // Read for the first time: as it is now, these files included.
      if (!scanned) return void allImports();
      const importsOf = scanned;
      for (const changed of paths) {
        for (const known of [...importsOf.keys()]) {
          if (known.startsWith(changed + path.sep)) scan(known); // a removed or renamed folder
        }
        if (isFile(changed)) {
          if (isCodeFile(changed)) scan(changed);
        } else {
          importsOf.delete(changed);
          for (const file of sourceFiles(changed)) scan(file); // a folder that appeared with files in it
        }
      }
    },
    withImporters(files) {
      const importsOf = allImports();
      const importers = new Map<string, Set<string>>();
      const link = (from: string, to: string) => {
        if (!inTree(from) || !inTree(to)) return;
        let set = importers.get(to);
        if (!set) importers.set(to, (set = new Set()));
        set.add(from);
      };
      for (const [from, imports] of importsOf) for (const to of imports) link(from, to);
      const cache = (Module as unknown as { _cache: Record<string, CachedModule | undefined> })._cache;
      for (const [from, mod] of Object.entries(cache)) {
        // What a bundle of route files required, each of them may have (src/load/route-bundle.ts).
        const requirers = filesOfBundle(from) ?? [from];
        for (const child of mod?.children ?? [])
          if (child.filename) for (const requirer of requirers) link(requirer, child.filename);
      }
      const result = new Set<string>();
      const queue = [...files];
      while (queue.length > 0) {
        const file = queue.pop()!;
        if (result.has(file)) continue;
        result.add(file);
        for (const importer of importers.get(file) ?? []) queue.push(importer);
      }
      return result;
    },
    dependenciesOf(file) {
      const importsOf = allImports();
      const seen = new Set<string>();
      const queue = [file];
      while (queue.length > 0) {
        const next = queue.shift()!;
        if (seen.has(next) || !inTree(next)) continue;
        seen.add(next);
        queue.push(...(importsOf.get(next) ?? []));
      }
      return [...seen];
    },
  };
}

/** The files a source file imports or requires, resolved; `undefined` when it cannot be read. */
function scanImports(file: string): string[] | undefined {
  let code: string;
  try {
    code = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const specifiers = new Set<string>();
  try {
    for (const entry of parse(code)[0])
      if (typeof entry.specifier === 'string') specifiers.add(entry.specifier);
    for (const match of code.matchAll(REQUIRE_CALL)) specifiers.add(match[2]!);
  } catch {
    // JSX, or code the lexer cannot read: a looser pattern, which may over-report.
    for (const match of code.matchAll(ANY_IMPORT)) specifiers.add(match[2]!);
  }
  const resolved: string[] = [];
  for (const specifier of specifiers) {
    const target = resolveLocal(file, specifier);
    if (target) resolved.push(target);
  }
  return resolved;
}

/**
 * Relative, absolute and file: URL specifiers only: packages are not part of the tree. Resolved by tsx's rules,
 * the loosest (extensionless, `.js` for `.ts`, index files): a link too many only reloads a little more.
 */
function resolveLocal(from: string, specifier: string): string | undefined {
  const local = specifier.startsWith('file:') ? fileURLToPath(specifier.split(/[?#]/)[0]!) : specifier;
  if (!isRelative(local) && !path.isAbsolute(local)) return undefined;
  return resolveImport(from, local, 'import', 'tsx').file;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
