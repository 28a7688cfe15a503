/**
 * A `.js` file read as CommonJS without running it: its source compiled as the body of Node's CommonJS
 * wrapper, which fails on `import`/`export` statements, `import.meta` and top-level `await`. Node itself decides
 * the format of a `.js` file under a package.json without `"type"` so ("syntax detection", see
 * https://nodejs.org/api/packages.html#syntax-detection); require-module.ts needs to know it only where
 * tsx's require hook, which compiles ES syntax to CommonJS, would decide otherwise.
 */
import { readFileSync } from 'node:fs';
import { compileFunction } from 'node:vm';
import { EndpointLoadError, commonJsHint } from './load-error';

const WRAPPER = ['exports', 'require', 'module', '__filename', '__dirname'];

/**
 * The error compiling the file as CommonJS throws, when it mentions one of `words` (a file that does not cannot
 * fail on them, and is not compiled); `undefined` when it compiles, or cannot be read (loading it will say why).
 */
function commonJsSyntaxError(file: string, words: RegExp): { error: unknown } | undefined {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (!words.test(source)) return undefined;
  try {
    compileFunction(source.replace(/^#!.*/, ''), WRAPPER, { filename: file });
    return undefined;
  } catch (error) {
    return { error };
  }
}

/**
 * A `.js` file that Node treats as CommonJS fails on `export`, and so must it here, even when
 * tsx (registered for the tree's TypeScript files) would compile it: otherwise the same file
 * would load or not depending on whether a `.ts` file sits somewhere in the tree. Only files
 * that mention `import`/`export` are compiled to check.
 */
export function assertCommonJsSyntax(file: string, displayPath: string): void {
  const failed = commonJsSyntaxError(file, /\b(?:import|export)\b/);
  if (failed) throw new EndpointLoadError(displayPath, failed.error, commonJsHint(file, failed.error));
}

/**
 * True when the file does not compile as CommonJS: an ES module by Node's syntax detection, or a syntax error,
 * which `import()` then reports as Node would.
 */
export function hasModuleSyntax(file: string): boolean {
  return commonJsSyntaxError(file, /\b(?:import|export|await)\b/) !== undefined;
}
