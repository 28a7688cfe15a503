/**
 * Which files hold code, by extension: JavaScript and TypeScript modules; and which of them are TypeScript, which
 * need a loader (tsx, or Node's own type stripping) and a TypeScript-aware parse.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const CODE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** What an endpoint or a middleware file (and an app's own module) may be named: code, but no JSX. */
export const MODULE_EXTENSIONS = ['.js', '.ts', '.mjs', '.cjs', '.mts', '.cts'];
const TYPESCRIPT_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts']);

export function isCodeFile(file: string): boolean {
  return CODE_EXTENSIONS.includes(path.extname(file));
}

export function isTypeScriptFile(file: string): boolean {
  return TYPESCRIPT_EXTENSIONS.has(path.extname(file));
}

/** The file's text, without the byte order mark that neither the lexers nor Node's parser skip. */
export function readSource(file: string): string {
  const code = readFileSync(file, 'utf8');
  return code.charCodeAt(0) === 0xfeff ? code.slice(1) : code;
}
