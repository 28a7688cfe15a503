/**
 * Node's own type stripping, the fast way to load an ES module `.ts` file: Node replaces the types with
 * whitespace as it loads the file (no compiler, no cache, every line and column where it was), where tsx
 * runs esbuild on every file, about 2 ms each when its cache is cold.
 *
 * Stripping is all it does, so a file that needs more fails to load, and then tsx loads it instead. Every
 * such failure comes before any of the file's code runs: Node resolves, reads, strips and links the whole
 * import graph first, then evaluates it. These are:
 *
 * - syntax that needs compiling (enums, namespaces, parameter properties, `import x = require()`):
 *   ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX as the file is stripped;
 * - what only tsx resolves: extensionless and folder imports, tsconfig `paths`, JSON without
 *   `with { type: 'json' }`, `.tsx` files. A NodeNext import that names a `.ts` file by its output's name
 *   (`./x.js` for `./x.ts`) is not among them: wherever the library lets Node strip, a resolve hook maps it as tsx
 *   would (typescript-specifiers.ts), and stripped-links.ts reads it the same way;
 * - a type imported without `import type` (`import { User } from './user.ts'`), which stripping keeps as a value
 *   import: SyntaxError "does not provide an export named" as the graph is linked. Such a file is found before
 *   it is imported (stripped-links.ts), since Node would keep it failed; this catches what that reading missed
 *   in the endpoint itself;
 * - decorators, which V8 does not parse: a SyntaxError as the file is parsed.
 *
 * A syntax error of any other kind is retried too, so that it is reported as tsx reports it, with its place
 * in the file. The same errors could also be thrown by a module's top-level code (a `JSON.parse` or an
 * `await import()` of a missing file): Node keeps a module whose code threw, so the retry hands back that
 * same error, and the code does not run twice.
 *
 * Only where Node strips types by default, without a word, and loads a file afresh once tsx is registered: Node
 * 24.21 and later (the first 24 this was verified on), and 26. Node 22 before 22.18 strips behind a flag, 23 and
 * 24 before 24.3 print an ExperimentalWarning at the first `.ts` file, and Node 22 keeps a module whose imports
 * failed to link failed for the rest of the process, so that tsx could not load a file between an endpoint and an
 * enum (`lib/mid.ts`, importing `lib/colour.ts`) either. `module.stripTypeScriptTypes()` prints a warning on
 * every version, 26 included: the library lets `import()` strip, and never calls it.
 */

import { tsconfigAllowsStripping } from './tsx-tsconfig';

const NEEDS_TSX = new Set([
  'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX',
  'ERR_INVALID_TYPESCRIPT_SYNTAX',
  'ERR_MODULE_NOT_FOUND',
  'ERR_UNSUPPORTED_DIR_IMPORT',
  'ERR_IMPORT_ATTRIBUTE_MISSING',
  'ERR_UNKNOWN_FILE_EXTENSION',
]);

let allowed: boolean | undefined;

/**
 * True when the loader may try stripping first: Node strips quietly, and the app's tsconfig gives a file that
 * strips cleanly the meaning tsx would give it (tsx-tsconfig.ts). Decided once, as tsx reads its tsconfig once.
 */
export function mayStripTypes(): boolean {
  allowed ??= nodeStripsTypes() && tsconfigAllowsStripping();
  return allowed;
}

/** The first version of each supported major where stripping comes first (see above); later majors all do. */
const STRIPS_FIRST_SINCE: Record<number, number> = { 22: Infinity, 23: Infinity, 24: 21 };

/**
 * True when this Node strips types as it imports `.ts` files, says nothing about it, and loads a file afresh after
 * a failed import. Stripping is off under `--no-experimental-strip-types`; under `--experimental-transform-types`
 * Node compiles enums and namespaces itself, as an experiment of its own, and tsx keeps loading every file.
 */
export function nodeStripsTypes(version = process.versions.node): boolean {
  const features = process.features as { typescript?: unknown };
  if (features.typescript !== 'strip') return false;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 24 || (major >= 22 && minor >= (STRIPS_FIRST_SINCE[major] ?? Infinity));
}

/** True when the error says the file (or one it imports) needs more than stripping: tsx, then. */
export function needsMoreThanStripping(error: unknown): boolean {
  if (error instanceof SyntaxError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && NEEDS_TSX.has(code);
}
