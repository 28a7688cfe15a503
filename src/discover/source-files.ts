/**
 * Which files hold code, by extension: JavaScript and TypeScript modules; and which of them are TypeScript, which
 * need a loader (tsx, or Node's own type stripping) and a TypeScript-aware parse.
 */
import path from 'node:path';

export const CODE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const TYPESCRIPT_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts']);

export function isCodeFile(file: string): boolean {
  return CODE_EXTENSIONS.includes(path.extname(file));
}

export function isTypeScriptFile(file: string): boolean {
  return TYPESCRIPT_EXTENSIONS.has(path.extname(file));
}
