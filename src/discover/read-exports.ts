/**
 * Static export reading: which names an endpoint or middleware module exports, found without running it.
 * es-module-lexer reads the source as it is, JavaScript or erasable TypeScript (type-only exports are reported
 * as such and left out), and lists ESM exports; cjs-module-lexer the `exports.X = …` / `module.exports = { … }`
 * of CommonJS files. There is no transform step: reading 1,000 files takes a few milliseconds.
 *
 * Lexing is not validation: a syntax error the lexer does not notice gives whatever names it saw, and one it
 * does notice (or code it cannot lex, such as JSX) is not reported as an error, since it may be valid code. Such
 * a file gets `namesIncomplete: true` (its names are unknown) with the lexer's message in `parseError`; validation skips
 * the checks that need its export list, and mountEndpoints checks the real exports once it has imported it.
 */
import { readFileSync } from 'node:fs';
import { parse as parseEsm, type DirectExport } from 'es-module-lexer';
import { parse as parseCjs, initSync as initCjsLexer } from 'cjs-module-lexer';
import type { ExportInfo } from './types';

/** Reads one file. Never throws: see the module comment for unreadable code. */
export function readExports(file: string): ExportInfo {
  let code: string;
  try {
    code = readFileSync(file, 'utf8');
  } catch (error) {
    return unknown(error instanceof Error ? error.message : String(error));
  }
  // Neither lexer skips a byte order mark: with it, `export` would not be seen at all.
  return exportsOfCode(code.charCodeAt(0) === 0xfeff ? code.slice(1) : code);
}

// TypeScript's `export = value`, at the start of a line: the CommonJS `module.exports = value`.
const EXPORT_ASSIGNMENT = /^([ \t]*)export[ \t]*=(?![=>])/m;
const EXPORT_ASSIGNMENTS = new RegExp(EXPORT_ASSIGNMENT.source, 'gm');

function exportsOfCode(code: string): ExportInfo {
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

  const names = new Set<string>();
  const nonFunctions: string[] = [];
  let namesIncomplete = false;
  for (const entry of exports) {
    // `export type`, `export interface`, `export declare`, `export { type X }`: erased, nothing at run time.
    if (entry.typeOnly) continue;
    if (entry.type === 'reexport-all') {
      namesIncomplete = true;
      continue;
    }
    names.add(entry.name);
    if (entry.type === 'direct' && isLiteralExport(code, entry)) nonFunctions.push(entry.name);
  }
  return { names: [...names], namesIncomplete, nonFunctions };
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
  // `names` is incomplete when the lexer saw re-exports, or `module.exports` is set to something it cannot read.
  let namesIncomplete = lexed.reexports.length > 0;
  // Indented assignments (inside a function or an `if`) count too: each only makes the answer more cautious.
  for (const match of code.matchAll(/^[ \t]*module\.exports[ \t]*=(?![=>])[ \t]*(.*)/gm)) {
    const value = match[1] ?? '';
    if (/^(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)/.test(value)) names.add('default');
    else if (value.startsWith('{')) {
      // The lexer stops at the first member it cannot read (`{ GET: (req) => … }` gives nothing), so read the
      // keys here; when in doubt (a spread, a computed key, a comment…) the names are incomplete.
      const keys = objectKeys(code, match.index + match[0].length - value.length);
      for (const key of keys ?? []) names.add(key);
      namesIncomplete ||= keys === undefined || /\.\.\.(?!require\()/.test(code);
    } else namesIncomplete = true;
  }
  return { names: [...names], namesIncomplete, nonFunctions: [] };
}

// A member's key in an object literal: `GET`, `'GET'`, `GET(…)`, `async GET(…)`, `get GET()`, `*GET()`.
const MEMBER_KEY =
  /\s*(?:(?:async|get|set)\s+)?\*?\s*([A-Za-z_$][\w$]*|'[^'\\\n]*'|"[^"\\\n]*")\s*(?=[:(,}])/y;
const TRAILING_COMMA = /\s*(?=\})/y;

/**
 * The keys of the object literal opening at `open`, or undefined when not sure of them all. Brackets and strings
 * are tracked; a regex, comment or template literal, a spread or computed key, or a `<` (TypeScript generics
 * whose commas would look like member separators) gives up.
 */
function objectKeys(code: string, open: number): string[] | undefined {
  const keys: string[] = [];
  let depth = 0;
  let expectKey = false;
  for (let i = open; i < code.length; i++) {
    if (expectKey) {
      expectKey = false;
      MEMBER_KEY.lastIndex = i;
      const match = MEMBER_KEY.exec(code);
      if (match) {
        const key = match[1] as string;
        keys.push(key.startsWith("'") || key.startsWith('"') ? key.slice(1, -1) : key);
        i = MEMBER_KEY.lastIndex;
      } else {
        TRAILING_COMMA.lastIndex = i;
        if (!TRAILING_COMMA.test(code)) return undefined;
        i = TRAILING_COMMA.lastIndex;
      }
    }
    const char = code[i];
    if (char === '"' || char === "'") {
      const end = stringEnd(code, i);
      if (end < 0) return undefined;
      i = end - 1;
    } else if (char === '/' || char === '`' || (char === '<' && depth === 1)) {
      return undefined;
    } else if (char === '{' || char === '[' || char === '(') {
      if (depth++ === 0) expectKey = true;
    } else if (char === '}' || char === ']' || char === ')') {
      if (--depth === 0) return keys;
    } else if (char === ',' && depth === 1) expectKey = true;
  }
  return undefined;
}

const EXPORT_CONST = /^export\s+const\s+$/;
const EXPORT_DEFAULT = /export\s+default\s+/y;
const WHITESPACE = /\s*/y;
const SIMPLE_LITERAL =
  /(?:-?(?:0[xXoObB][\da-fA-F_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)n?|true|false|null)/y;
// What may follow a value without changing what it is at run time: `as const`, `as T`, `satisfies T`, for
// simple types only (`as number || fn` must not pass for a literal).
const TYPE_SUFFIX = /\s*(?:as|satisfies)\s+(?:const\b|[A-Za-z_$][\w$.]*(?:<[\w$.,\s]*>)?(?:\[\])*)/y;
const WORD = /[A-Za-z_$][\w$]*/y;
// Words that continue an expression from the next line (`42\nin x`): no automatic semicolon before them.
const CONTINUING = new Set(['in', 'instanceof', 'as', 'satisfies']);

/**
 * True only for `export const NAME = <literal>` and `export default <literal>` where the literal (number,
 * string, boolean, null, object or array literal) is the whole value, a TypeScript annotation or `as const`
 * aside. Anything doubtful is "maybe a function": a wrong "not a function" would be a false build error, a missed
 * one is still caught at load time. `const` only: a `let` can be reassigned to a function later.
 */
function isLiteralExport(code: string, entry: DirectExport): boolean {
  const { name, exportStart, localStart, localEnd } = entry;
  let valueStart = -1;
  if (name === 'default') {
    EXPORT_DEFAULT.lastIndex = exportStart;
    if (EXPORT_DEFAULT.test(code)) valueStart = EXPORT_DEFAULT.lastIndex;
  } else if (
    // The first (or only) declaration of an `export const`, written plainly: no comment in between.
    localStart > exportStart &&
    EXPORT_CONST.test(code.slice(exportStart, localStart)) &&
    code.slice(localStart, localEnd) === name
  ) {
    valueStart = initializerStart(code, localEnd);
  }
  if (valueStart < 0) return false;
  let end = literalEnd(code, valueStart);
  if (end < 0) return false;
  for (TYPE_SUFFIX.lastIndex = end; TYPE_SUFFIX.test(code); TYPE_SUFFIX.lastIndex = end) {
    end = TYPE_SUFFIX.lastIndex;
  }
  return endsStatement(code, end);
}

/** Where the value of `NAME: Type = value` starts, given the index after NAME; -1 when in doubt. */
function initializerStart(code: string, afterName: number): number {
  WHITESPACE.lastIndex = afterName;
  WHITESPACE.test(code);
  let i = WHITESPACE.lastIndex;
  // `x: = 1` is no annotation.
  if (code[i] === ':') i = /^\s*=/.test(code.slice(i + 1, i + 40)) ? -1 : annotationEnd(code, i + 1);
  if (i < 0 || code[i] !== '=' || code[i + 1] === '=') return -1;
  WHITESPACE.lastIndex = i + 1;
  WHITESPACE.test(code);
  return WHITESPACE.lastIndex;
}

/** The index of the `=` ending a type annotation, or -1. Brackets are balanced; `=>` of function types skipped. */
function annotationEnd(code: string, start: number): number {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const char = code[i] as string;
    if (char === '"' || char === "'") {
      const end = stringEnd(code, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (char === '=') {
      if (code[i + 1] === '>') i++;
      else if (depth === 0) return i;
    } else if (char === '/' || char === '`' || ((char === ';' || char === ',') && depth === 0)) {
      return -1;
    } else if ('<([{'.includes(char)) depth++;
    else if ('>)]}'.includes(char) && --depth < 0) return -1;
  }
  return -1;
}

/**
 * True when the expression ends at `i`: `;`, `,` (the next declaration of a list), the end of the file, or a
 * line break before a word that starts a new statement (automatic semicolon insertion).
 */
function endsStatement(code: string, i: number): boolean {
  WHITESPACE.lastIndex = i;
  WHITESPACE.test(code);
  const next = WHITESPACE.lastIndex;
  if (next >= code.length || code[next] === ';' || code[next] === ',') return true;
  if (!code.slice(i, next).includes('\n')) return false;
  WORD.lastIndex = next;
  const word = WORD.exec(code);
  return word !== null && !CONTINUING.has(word[0]);
}

function literalEnd(code: string, start: number): number {
  const first = code[start];
  if (first === '"' || first === "'") return stringEnd(code, start);
  if (first === '{' || first === '[') return bracketEnd(code, start);
  SIMPLE_LITERAL.lastIndex = start;
  return SIMPLE_LITERAL.test(code) ? SIMPLE_LITERAL.lastIndex : -1;
}

function stringEnd(code: string, start: number): number {
  const quote = code[start];
  for (let i = start + 1; i < code.length; i++) {
    const char = code[i];
    if (char === '\\') i++;
    else if (char === quote) return i + 1;
    else if (char === '\n') return -1;
  }
  return -1;
}

function bracketEnd(code: string, start: number): number {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const char = code[i];
    if (char === '"' || char === "'") {
      const end = stringEnd(code, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (char === '/' || char === '`') {
      // A regex, comment, division or template literal: give up rather than track them.
      return -1;
    } else if (char === '{' || char === '[' || char === '(') depth++;
    else if (char === '}' || char === ']' || char === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
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
