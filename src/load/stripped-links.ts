/**
 * Whether a `.ts` file, stripped, links: every name it and the `.ts` files it imports (through relative imports)
 * import is one their targets export as a value. Read with es-module-lexer (no parse, a few microseconds a file),
 * before anything is imported.
 *
 * Asked first because a link failure cannot be retried: Node keeps a module whose imports failed to link failed
 * for the rest of the process, so tsx could not load it again, nor any file that imports it. A type imported
 * without `import type` (`import { User } from './user.ts'`, or `{ Request }` from 'express', which the package
 * has only in its types) is the common cause. What fails to load instead (an enum, an extensionless import) can
 * be retried, and is left to the import (type-stripping.ts).
 *
 * Checked exactly: relative imports of ES module `.ts`/`.mts`/`.js`/`.mjs` files that exist, found as Node
 * finds them with the library's resolve hook (`./x.js` naming `./x.ts` included, typescript-specifiers.ts), and
 * Node's built-in modules. A named or default import from a package cannot be told without importing it: such a
 * file loads through tsx, as before.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isBuiltin } from 'node:module';
import { parse } from 'es-module-lexer';
import { isCommonJsFile } from './module-format';
import { strippedImportTarget } from './typescript-specifiers';

const STRIPPED = new Set(['.ts', '.mts']);
const LINKABLE = new Set([...STRIPPED, '.js', '.mjs']);

const verdicts = new Map<string, boolean>();
const valueExportsOf = new Map<string, Set<string> | undefined>();

/** True when the file and the `.ts` files it imports link once stripped (see above). */
export function linksWhenStripped(file: string): boolean {
  const known = verdicts.get(file);
  if (known !== undefined) return known;
  verdicts.set(file, true); // an import cycle back to this file decides nothing
  const verdict = checkFile(file);
  verdicts.set(file, verdict);
  return verdict;
}

type Lexed = { code: string; lexed: ReturnType<typeof parse> };

function lex(file: string): Lexed | undefined {
  try {
    const code = readFileSync(file, 'utf8');
    return { code, lexed: parse(code) };
  } catch {
    return undefined;
  }
}

function checkFile(file: string): boolean {
  const read = lex(file);
  if (!read) return false;
  const [imports, exports] = read.lexed;
  for (const entry of imports) {
    if (entry.type !== 'static' || entry.typeOnly) continue;
    const statement = read.code.slice(entry.importStart, entry.importEnd);
    if (/^export\b/.test(statement)) continue; // a re-export: read from the exports below
    const names = importedNames(statement);
    if (!names || !linksTo(file, entry.specifier, names)) return false;
  }
  for (const entry of exports) {
    if (entry.typeOnly) continue;
    if (entry.type === 'reexport' && !linksTo(file, entry.from, entry.importName ? [entry.importName] : []))
      return false;
    if (entry.type === 'reexport-all' && !linksTo(file, entry.from, [])) return false;
  }
  return true;
}

/**
 * The names an `import` statement takes from its module (`default` for a default import), without those marked
 * `type`; `undefined` for a statement this cannot read for certain (comments or strings among the names).
 */
export function importedNames(statement: string): string[] | undefined {
  const clause = /^import\s+([\s\S]*?)\s*from\s*["']/.exec(statement)?.[1];
  if (clause === undefined) return /^import\s*["']/.test(statement) ? [] : undefined;
  if (/\/[/*]|["']/.test(clause)) return undefined;
  const braces = /\{([^}]*)\}/.exec(clause);
  const outside = (braces ? clause.replace(braces[0], '') : clause).replace(/\*\s*as\s+[\w$]+/, '');
  const names = outside
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map(() => 'default');
  for (const part of braces?.[1]?.split(',') ?? []) {
    const specifier = part.trim();
    if (!specifier || /^type\s/.test(specifier)) continue;
    names.push(specifier.split(/\s+as\s+/)[0]!.trim());
  }
  return names;
}

function linksTo(from: string, specifier: string, names: string[]): boolean {
  if (specifier.startsWith('./') || specifier.startsWith('../')) {
    const target = strippedImportTarget(from, specifier);
    if (target === undefined || !LINKABLE.has(path.extname(target))) return false;
    if (isCommonJsFile(target)) return false;
    if (STRIPPED.has(path.extname(target)) && !linksWhenStripped(target)) return false;
    if (names.length === 0) return true;
    const exported = valueExports(target);
    return exported !== undefined && names.every((name) => exported.has(name));
  }
  if (isBuiltin(specifier)) {
    const builtin = process.getBuiltinModule(specifier) as Record<string, unknown> | undefined;
    return builtin !== undefined && names.every((name) => name === 'default' || name in builtin);
  }
  // A package: the names are what its install exports, which only importing it tells.
  return names.length === 0;
}

/** The names a module exports as values; `undefined` when they cannot all be read. */
function valueExports(file: string): Set<string> | undefined {
  if (valueExportsOf.has(file)) return valueExportsOf.get(file);
  valueExportsOf.set(file, undefined); // an `export *` cycle reads as unknown
  const read = lex(file);
  let names: Set<string> | undefined = read ? new Set() : undefined;
  for (const entry of read?.lexed[1] ?? []) {
    if (entry.typeOnly || !names) continue;
    if (entry.type !== 'reexport-all') {
      names.add(entry.name);
      continue;
    }
    const target = entry.from.startsWith('.') ? strippedImportTarget(file, entry.from) : undefined;
    const more = target === undefined ? undefined : valueExports(target);
    if (!more) {
      names = undefined;
      continue;
    }
    for (const name of more) if (name !== 'default') names.add(name);
  }
  valueExportsOf.set(file, names);
  return names;
}
