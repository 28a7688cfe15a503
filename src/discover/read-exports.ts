/**
 * Static export reading at startup: which names an endpoint or middleware module exports, found without running
 * it. es-module-lexer reads the source as it is, JavaScript or erasable TypeScript (type-only exports are
 * reported as such and left out), and lists ESM exports; cjs-module-lexer the `exports.X = …` /
 * `module.exports = { … }` of CommonJS files. There is no transform step: reading 1,000 files takes a few
 * milliseconds.
 *
 * What the lexers cannot settle is left open, not guessed: names they may have missed (`export *`, an object
 * assigned to `module.exports`) make `namesIncomplete`, and mountEndpoints checks the real exports once it has
 * imported the module. A handler export that looks like a literal (`export const GET = 42`) is the one thing
 * worth stopping startup for before any import: such a module is read again from its syntax tree
 * (syntax-exports.ts), which tells for certain.
 *
 * Lexing is not validation: a syntax error the lexer does not notice gives whatever names it saw, and one it
 * does notice (or code it cannot lex, such as JSX) is not reported as an error, since it may be valid code. Such
 * a file gets `namesIncomplete: true` (its names are unknown) with the lexer's message in `parseError`;
 * validation skips the checks that need its export list.
 */
import { parse as parseEsm, type Export } from 'es-module-lexer';
import { parse as parseCjs, initSync as initCjsLexer } from 'cjs-module-lexer';
import { readSource } from './source-files';
import { exportsOfSource } from './syntax-exports';
import type { ExportInfo } from './types';

/** Reads one file. Never throws: see the module comment for unreadable code. */
export function readExports(file: string): ExportInfo {
  let code: string;
  try {
    code = readSource(file);
  } catch (error) {
    return unknown(error instanceof Error ? error.message : String(error));
  }
  return exportsOfCode(file, code);
}

// TypeScript's `export = value`, at the start of a line: the CommonJS `module.exports = value`.
const EXPORT_ASSIGNMENT = /^([ \t]*)export[ \t]*=(?![=>])/m;
const EXPORT_ASSIGNMENTS = new RegExp(EXPORT_ASSIGNMENT.source, 'gm');

function exportsOfCode(file: string, code: string): ExportInfo {
  let lexed: ReturnType<typeof parseEsm>;
  try {
    lexed = parseEsm(code);
  } catch (error) {
    return unknown(lexerMessage(error, code));
  }
  const [, exports, , hasModuleSyntax] = lexed;
  const assignsExports = EXPORT_ASSIGNMENT.test(code);
  if (!hasModuleSyntax) {
    return commonJsExports(assignsExports ? code.replace(EXPORT_ASSIGNMENTS, '$1module.exports =') : code);
  }
  // `export =` beside imports (`import type { X } from …`, `import fs = require(…)`): TypeScript's CommonJS.
  // Its names are those of the assigned value, which the CommonJS lexer cannot read past the imports.
  if (assignsExports) return { names: [], namesIncomplete: true, nonFunctions: [] };
  if (exports.some((entry) => looksLikeLiteralHandler(code, entry))) {
    const exact = exportsOfSource(file, code);
    if (exact) return exact;
  }

  const names = new Set<string>();
  let namesIncomplete = false;
  for (const entry of exports) {
    // `export type`, `export interface`, `export declare`, `export { type X }`: erased, nothing at run time.
    if (entry.typeOnly) continue;
    if (entry.type === 'reexport-all') namesIncomplete = true;
    else names.add(entry.name);
  }
  return { names: [...names], namesIncomplete, nonFunctions: [] };
}

// The names a handler or a middleware is exported under: the methods, `ANY`, `default`.
const HANDLER_NAME = /^(?:[A-Z]+|default)$/;
// A value that starts like a literal, after the name of an `export const` (past a type annotation, which
// holds no `=` but in `=>`) or after `export default`. Matching more than literals costs one parse, no more.
const LITERAL_START = String.raw`\s*(?:[-+.\d'"\x60{[<]|(?:true|false|null)\b)`;
const DECLARED_LITERAL = new RegExp(String.raw`\s*(?::(?:[^=]|=>)*)?=(?!>)${LITERAL_START}`, 'y');
const DEFAULT_LITERAL = new RegExp(LITERAL_START, 'y');

/** True when the export may be a handler (or a middleware) written as a literal: worth an exact reading. */
function looksLikeLiteralHandler(code: string, entry: Export): boolean {
  if (entry.type !== 'direct' || entry.typeOnly || !HANDLER_NAME.test(entry.name)) return false;
  const after = entry.name === 'default' ? DEFAULT_LITERAL : DECLARED_LITERAL;
  after.lastIndex = entry.end;
  return after.test(code);
}

let cjsLexerReady = false;

function commonJsExports(code: string): ExportInfo {
  if (!cjsLexerReady) {
    initCjsLexer();
    cjsLexerReady = true;
  }
  let lexed: ReturnType<typeof parseCjs>;
  try {
    lexed = parseCjs(code);
  } catch (error) {
    return unknown(lexerMessage(error, code));
  }
  const names = new Set(lexed.exports.filter((name) => name !== '__esModule'));
  // `names` is incomplete when the lexer saw re-exports, or `module.exports` is set to something other than a
  // function. Indented assignments (inside a function or an `if`) count too: each only makes it more cautious.
  let namesIncomplete = lexed.reexports.length > 0;
  let assignsObject = false;
  for (const match of code.matchAll(/^[ \t]*module\.exports[ \t]*=(?![=>])[ \t]*(.*)/gm)) {
    const value = match[1] ?? '';
    if (/^(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)/.test(value)) names.add('default');
    else namesIncomplete = true;
    assignsObject ||= value.startsWith('{');
  }
  // The lexer reads an object's members up to the first that is not `name` or `name: value`, and takes the
  // `get`, `set` or `async` before a method for its key: those words are left out rather than reported.
  if (assignsObject) for (const word of ['get', 'set', 'async']) names.delete(word);
  return { names: [...names], namesIncomplete, nonFunctions: [] };
}

/** Names not known statically: validation skips the checks that need them. */
function unknown(parseError: string): ExportInfo {
  return { names: [], namesIncomplete: true, nonFunctions: [], parseError };
}

/** The lexer's message, its position as `(line L, column C)`. */
function lexerMessage(error: unknown, code: string): string {
  const { message, idx, loc } = (error ?? {}) as { message?: unknown; idx?: unknown; loc?: unknown };
  const text = typeof message === 'string' ? (message.split('\n')[0] as string) : String(error);
  // es-module-lexer: `Parse error @:1:5` with `idx`; cjs-module-lexer: `…\n  at @:1:5` with `loc`.
  const at = typeof idx === 'number' ? idx : typeof loc === 'number' ? loc : -1;
  const reason = text.replace(/\s*@:\d+:\d+$/, '').replace(/\.$/, '');
  if (at < 0 || at > code.length) return reason;
  const before = code.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  return `${reason} (line ${line}, column ${column})`;
}
