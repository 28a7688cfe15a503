/**
 * Whether Node's type stripping runs the app's TypeScript as tsx would, as far as the app's tsconfig decides it.
 * tsx compiles with the tsconfig.json nearest to the working directory (or `TSX_TSCONFIG_PATH`), and two of its
 * settings change what a file that strips cleanly means:
 *
 * - class fields: a field declared without a value (`name!: string`) is defined as `undefined` by stripping, as
 *   by TypeScript's `useDefineForClassFields` (the default for `target` ES2022 and later); with an older `target`
 *   or `useDefineForClassFields: false`, tsx leaves it out, and a value a base class set stays;
 * - `paths` and `baseUrl`: tsx maps bare imports through them before node_modules, Node does not.
 *
 * A config this cannot read to the end (an `extends` it cannot find, JSON it cannot parse) counts as disagreeing:
 * tsx loads every file then, as it did.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

interface CompilerOptions {
  target?: unknown;
  useDefineForClassFields?: unknown;
  paths?: unknown;
  baseUrl?: unknown;
}

/** True when stripping and tsx agree under the tsconfig tsx would use from `cwd`. */
export function tsconfigAllowsStripping(cwd = process.cwd(), env = process.env): boolean {
  const options = tsxCompilerOptions(cwd, env);
  if (options === undefined) return false;
  if (options.paths !== undefined || options.baseUrl !== undefined) return false;
  if (typeof options.useDefineForClassFields === 'boolean') return options.useDefineForClassFields;
  return options.target === undefined || definesClassFields(options.target);
}

/**
 * The compilerOptions of the tsconfig tsx would use from `cwd`, `extends` merged in: `{}` without one, `undefined`
 * for one this cannot read to the end. What the library compiles route files with, as tsx would compile them.
 */
export function tsxCompilerOptions(
  cwd = process.cwd(),
  env = process.env,
): Record<string, unknown> | undefined {
  const file = env.TSX_TSCONFIG_PATH ? path.resolve(cwd, env.TSX_TSCONFIG_PATH) : nearestTsconfig(cwd);
  if (file === undefined) return {};
  try {
    return compilerOptions(file, 0) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function nearestTsconfig(dir: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const file = path.join(current, 'tsconfig.json');
    if (statSync(file, { throwIfNoEntry: false })?.isFile()) return file;
    if (path.dirname(current) === current) return undefined;
  }
}

/** `target` ES2022 and later define class fields; ESNext is the latest. */
function definesClassFields(target: unknown): boolean {
  const name = String(target).toLowerCase();
  const year = /^es(\d{4})$/.exec(name)?.[1];
  return name === 'esnext' || (year !== undefined && Number(year) >= 2022);
}

/** The file's compilerOptions over those of what it extends, as TypeScript merges them. */
function compilerOptions(file: string, depth: number): CompilerOptions {
  if (depth > 10) throw new Error('extends nests too deep');
  const config = parseJsonc(readFileSync(file, 'utf8')) as {
    extends?: unknown;
    compilerOptions?: CompilerOptions;
  };
  const bases = config.extends === undefined ? [] : [config.extends].flat();
  let merged: CompilerOptions = {};
  for (const base of bases) {
    if (typeof base !== 'string') throw new Error('extends is not a path');
    merged = { ...merged, ...compilerOptions(resolveExtends(file, base), depth + 1) };
  }
  return { ...merged, ...config.compilerOptions };
}

function resolveExtends(file: string, base: string): string {
  const dir = path.dirname(file);
  if (base.startsWith('.') || path.isAbsolute(base)) {
    const target = path.resolve(dir, base);
    return statSync(target, { throwIfNoEntry: false })?.isFile() ? target : `${target}.json`;
  }
  // A package's own config (`@tsconfig/node22`), or a file of it.
  return createRequire(file).resolve(base.endsWith('.json') ? base : `${base}/tsconfig.json`);
}

/** JSON with comments and trailing commas, as tsconfig files are written. */
function parseJsonc(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
      out += ' ';
    } else if (char === '}' || char === ']') {
      // A trailing comma: strings are copied whole, so a comma that ends `out` is the structure's.
      out = out.replace(/,(\s*)$/, '$1') + char;
    } else {
      out += char;
    }
  }
  return JSON.parse(out);
}

/** The index just past the string literal that opens at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}
