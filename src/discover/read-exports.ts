/**
 * Static export reading: which names an endpoint or middleware module exports, found without running it.
 * esbuild turns TypeScript into JavaScript (and reports syntax errors), es-module-lexer lists ESM exports,
 * cjs-module-lexer the `exports.X = …` / `module.exports = { … }` of CommonJS files.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync, transformSync, type Loader, type Message } from 'esbuild';
import { parse as parseEsm } from 'es-module-lexer';
import { parse as parseCjs, initSync as initCjsLexer } from 'cjs-module-lexer';
import type { ExportInfo } from './types';

// esbuild's module-format option is left unset on purpose: `format: 'esm'` wraps CommonJS code in a
// `__commonJS` helper, hiding its exports. Unset keeps ESM as ESM and CommonJS as CommonJS (`export =` becomes
// `module.exports =`). A fixed empty tsconfig keeps the result independent of the user's tsconfig files.
const TSCONFIG = '{}';

/** Reads one file (or `source`, when given). Never throws: unreadable or unparsable code gives `parseError`. */
export function readExports(file: string, source?: string): ExportInfo {
  let code: string;
  try {
    const text = source ?? readFileSync(file, 'utf8');
    code = transformSync(text, {
      loader: loaderFor(file),
      sourcefile: file,
      tsconfigRaw: TSCONFIG,
      logLevel: 'silent',
    }).code;
  } catch (error) {
    return failed(describeError(error));
  }
  return exportsOfCode(code);
}

/**
 * Reads many files with one esbuild call: a call costs about 0.7 ms of round trip however small the file, so
 * discovery of a large tree batches them. Files esbuild rejects get `parseError`; the rest are retried once
 * without them, and anything still unexplained falls back to `readExports` one file at a time.
 */
export function readExportsOfFiles(files: readonly string[]): Map<string, ExportInfo> {
  const result = new Map<string, ExportInfo>();
  let pending = [...files];
  for (let attempt = 0; attempt < 2 && pending.length > 0; attempt++) {
    const outcome = transformAll(pending);
    if ('codes' in outcome) {
      pending.forEach((file, i) => {
        const code = outcome.codes[i];
        if (code !== undefined) result.set(file, exportsOfCode(code));
      });
      break;
    }
    for (const [file, message] of outcome.failures) result.set(file, failed(message));
    if (outcome.failures.size === 0) break;
    pending = pending.filter((file) => !result.has(file));
  }
  for (const file of files) if (!result.has(file)) result.set(file, readExports(file));
  return result;
}

type BatchOutcome = { codes: (string | undefined)[] } | { failures: Map<string, string> };

function transformAll(files: readonly string[]): BatchOutcome {
  const cwd = process.cwd();
  try {
    const { outputFiles } = buildSync({
      // Numbered outputs: `x/endpoint.ts` and `x/endpoint.js` would otherwise collide on one output name.
      entryPoints: files.map((file, i) => ({ in: file, out: String(i) })),
      bundle: false,
      write: false,
      // Never written (write: false); only has to differ from the input folders.
      outdir: path.join(os.tmpdir(), 'express-endpoints-read-exports'),
      absWorkingDir: cwd,
      tsconfigRaw: TSCONFIG,
      logLevel: 'silent',
    });
    const codes: (string | undefined)[] = new Array(files.length);
    for (const output of outputFiles) codes[Number(path.basename(output.path).split('.')[0])] = output.text;
    return { codes };
  } catch (error) {
    const failures = new Map<string, string>();
    for (const message of errorsOf(error)) {
      if (!message.location) continue;
      const file = path.resolve(cwd, message.location.file);
      if (!failures.has(file) && files.includes(file)) failures.set(file, describeMessage(message));
    }
    return { failures };
  }
}

function exportsOfCode(code: string): ExportInfo {
  let lexed: ReturnType<typeof parseEsm>;
  try {
    lexed = parseEsm(code);
  } catch (error) {
    return failed(describeError(error));
  }
  const [, exports, , hasModuleSyntax] = lexed;
  if (!hasModuleSyntax) return commonJsExports(code);

  const names = new Set<string>();
  const nonFunctions: string[] = [];
  let hasStar = false;
  for (const entry of exports) {
    if (entry.typeOnly) continue;
    if (entry.type === 'reexport-all') {
      hasStar = true;
      continue;
    }
    names.add(entry.name);
    if (entry.type === 'direct' && isLiteralExport(code, entry.exportStart, entry.name)) {
      nonFunctions.push(entry.name);
    }
  }
  return { names: [...names], hasStar, nonFunctions };
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
    return failed(describeError(error));
  }
  const names = new Set(lexed.exports.filter((name) => name !== '__esModule'));
  // `names` is incomplete when the lexer saw re-exports, or `module.exports` is set to something it cannot read.
  let hasStar = lexed.reexports.length > 0;
  // esbuild prints top-level statements at column 0, so `^` finds only top-level assignments.
  for (const [, value] of code.matchAll(/^module\.exports = (.*)/gm)) {
    if (value === undefined) continue;
    if (/^(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)/.test(value)) names.add('default');
    // The lexer skips `...spread` members of an object literal; be conservative when any spread is around.
    else if (value.startsWith('{')) hasStar ||= /\.\.\.(?!require\()/.test(code);
    else hasStar = true;
  }
  return { names: [...names], hasStar, nonFunctions: [] };
}

const EXPORT_CONST = /export const ([\w$]+) = /y;
const EXPORT_DEFAULT = /export default /y;
const SIMPLE_LITERAL =
  /(?:-?(?:0[xXoObB][\da-fA-F_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)n?|true|false|null)/y;
const LITERAL_END = /\s*(?:[;,]|$)/y;

/**
 * True only for `export const NAME = <literal>` and `export default <literal>` where the literal (number,
 * string, boolean, null, object or array literal) is the whole value. Anything doubtful is "maybe a function":
 * a wrong "not a function" would be a false build error, a missed one is still caught at load time.
 * `const` only: a `let` can be reassigned to a function later.
 */
function isLiteralExport(code: string, exportStart: number, name: string): boolean {
  let valueStart = -1;
  if (name === 'default') {
    EXPORT_DEFAULT.lastIndex = exportStart;
    if (EXPORT_DEFAULT.test(code)) valueStart = EXPORT_DEFAULT.lastIndex;
  } else {
    EXPORT_CONST.lastIndex = exportStart;
    const match = EXPORT_CONST.exec(code);
    if (match && match[1] === name) valueStart = EXPORT_CONST.lastIndex;
  }
  if (valueStart < 0) return false;
  const end = literalEnd(code, valueStart);
  if (end < 0) return false;
  LITERAL_END.lastIndex = end;
  return LITERAL_END.test(code);
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

function loaderFor(file: string): Loader {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.ts' || ext === '.mts' || ext === '.cts') return 'ts';
  if (ext === '.tsx') return 'tsx';
  if (ext === '.jsx') return 'jsx';
  return 'js';
}

function failed(parseError: string): ExportInfo {
  return { names: [], hasStar: false, nonFunctions: [], parseError };
}

function errorsOf(error: unknown): Message[] {
  const errors = (error as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) ? (errors as Message[]) : [];
}

function describeMessage(message: Message): string {
  const where = message.location
    ? ` (line ${message.location.line}, column ${message.location.column + 1})`
    : '';
  return `${message.text}${where}`;
}

function describeError(error: unknown): string {
  const [first] = errorsOf(error);
  if (first) return describeMessage(first);
  return error instanceof Error ? error.message : String(error);
}
