/**
 * Where in a file an error is, said one way everywhere: `file:line:column`, both counted from 1 as editors
 * count them. esbuild (tsx's compiler) counts columns from 0 in its messages; they are converted here, so a
 * message that quotes tsx never disagrees with the location the library gives beside it.
 *
 * And whether a load error is a failure to parse the file or something its top-level code threw: a
 * `SyntaxError` is both a parse failure and what `JSON.parse`, `new RegExp()` or `new Function()` throw at
 * run time, and each needs another fix.
 */

/** `file:line:column`, both counted from 1. */
export function formatLocation(file: string, line: number, column: number): string {
  return `${file}:${line}:${column}`;
}

// `/app/x.ts:2:20: ERROR: Expected ")"` in tsx's "Transform failed" message; the column counts from 0.
const ESBUILD_LOCATION = /^(.+?):(\d+):(\d+): ERROR: /gm;

/** The first location esbuild's message names, its column counted from 1. */
export function esbuildLocation(message: string): { file: string; line: number; column: number } | undefined {
  const found = new RegExp(ESBUILD_LOCATION.source, 'm').exec(message);
  return found ? { file: found[1]!, line: Number(found[2]), column: Number(found[3]) + 1 } : undefined;
}

/** `message` with every esbuild location's column counted from 1. */
export function withEditorColumns(message: string): string {
  return message.replace(
    ESBUILD_LOCATION,
    (_, file: string, line: string, column: string) =>
      `${formatLocation(file, Number(line), Number(column) + 1)}: ERROR: `,
  );
}

/**
 * True when the file (or a module it imports) does not parse: tsx could not compile it, or Node's
 * parser threw, which leaves only Node's own frames on the stack. A SyntaxError thrown by code that
 * ran has that code's frames (or a built-in's, `at JSON.parse (<anonymous>)`) first.
 */
export function isParseFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (esbuildLocation(error.message)) return true;
  if (!(error instanceof SyntaxError)) return false;
  const frame = /^\s+at (.*)$/m.exec(error.stack ?? '')?.[1];
  return frame === undefined || /\(node:|^node:/.test(frame);
}

/** A SyntaxError that the module's own code threw while it ran, not one of its source. */
export function isThrownSyntaxError(error: unknown): boolean {
  return error instanceof SyntaxError && !isParseFailure(error);
}
