/**
 * Where a relative import lands, resolved the way the loader that will run it does, without running it. `check`
 * follows imports with it, and development mode's import graph (with tsx's rules, the loosest) links importers:
 *
 * - tsx (TypeScript with tsx found): extensionless paths, `.ts`/`.tsx`/`.mts`/`.cts` and `.js` → `.ts`
 *   mapping, index files, for `import` and `require` alike;
 * - Node's `require()`: the exact path, then `.js`, `.json`, `.node`, then the folder's package.json or index;
 * - Node's `import`: the exact path only (ES modules need the file's extension, and no folder imports);
 * - Node's type stripping (a TypeScript file without tsx): Node's rules, and `./x.js` → `./x.ts` where there is
 *   no `x.js`, as the library's resolve hook maps it (typescript-specifiers.ts).
 *
 * Bare specifiers (`express`, `node:fs`) are left alone: packages resolve through node_modules and exports
 * maps, which the app's install decides.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { CODE_EXTENSIONS, displayPath } from '../discover';
import { strippedImportTarget } from './typescript-specifiers';

type Resolver = 'tsx' | 'strip' | 'node';

export interface Resolution {
  /** The file it lands on, when there is one. */
  file?: string;
  /** Why not, in a few words, with the fix when the cause is clear. */
  reason?: string;
}

const TSX_EXTENSIONS = [...CODE_EXTENSIONS, '.json'];
const REQUIRE_EXTENSIONS = ['.js', '.json', '.node'];
// What tsx tries in place of a JavaScript extension: TypeScript sources imported by their output's name.
const TS_FOR_JS: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };

export function isRelative(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..';
}

export function resolveImport(
  from: string,
  specifier: string,
  kind: 'require' | 'import',
  resolver: Resolver,
): Resolution {
  const target = path.resolve(path.dirname(from), specifier.split(/[?#]/)[0] as string);
  if (resolver === 'tsx') return found(tsxCandidates(target)) ?? { reason: 'no such file' };
  const source = resolver === 'strip' ? strippedImportTarget(from, specifier) : undefined;
  if (source !== undefined) return { file: source };
  if (kind === 'require') return found(requireCandidates(target)) ?? { reason: 'no such file' };
  if (isFile(target)) return { file: target };
  const withExtension = found(requireCandidates(target).filter((candidate) => candidate !== target));
  if (withExtension?.file) {
    const suggested = `./${displayPath(withExtension.file, path.dirname(from))}`;
    return {
      reason: `an ES module import needs the file's full name: '${suggested.replace(/^\.\/\.\.\//, '../')}'`,
    };
  }
  return { reason: 'no such file' };
}

function tsxCandidates(target: string): string[] {
  const ext = path.extname(target);
  const mapped = (TS_FOR_JS[ext] ?? []).map((ts) => target.slice(0, -ext.length) + ts);
  return [
    target,
    ...mapped,
    ...TSX_EXTENSIONS.map((e) => target + e),
    ...TSX_EXTENSIONS.map((e) => path.join(target, `index${e}`)),
  ];
}

function requireCandidates(target: string): string[] {
  return [
    target,
    ...REQUIRE_EXTENSIONS.map((e) => target + e),
    path.join(target, 'package.json'),
    ...REQUIRE_EXTENSIONS.map((e) => path.join(target, `index${e}`)),
  ];
}

function found(candidates: string[]): Resolution | undefined {
  const file = candidates.find(isFile);
  return file === undefined ? undefined : { file };
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
