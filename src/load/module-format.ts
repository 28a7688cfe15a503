/**
 * Which module system Node uses for a file: `.mjs`/`.mts` are ES modules, `.cjs`/`.cts`
 * CommonJS, and `.js`/`.ts` follow the nearest package.json's `"type"` (CommonJS without one).
 * Looked up once per folder.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const scopeCache = new Map<string, 'module' | 'commonjs'>();

export function isCommonJsFile(file: string): boolean {
  const ext = path.extname(file);
  if (ext === '.cjs' || ext === '.cts') return true;
  if (ext === '.mjs' || ext === '.mts') return false;
  return packageScope(path.dirname(file)) === 'commonjs';
}

function packageScope(dir: string): 'module' | 'commonjs' {
  const cached = scopeCache.get(dir);
  if (cached) return cached;
  let scope: 'module' | 'commonjs';
  const manifest = readManifest(path.join(dir, 'package.json'));
  if (manifest !== undefined) scope = manifest.type === 'module' ? 'module' : 'commonjs';
  else {
    const parent = path.dirname(dir);
    scope = parent === dir ? 'commonjs' : packageScope(parent);
  }
  scopeCache.set(dir, scope);
  return scope;
}

function readManifest(file: string): { type?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown };
  } catch (error) {
    // A package.json that exists but does not parse still marks a scope, as it does for Node.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : {};
  }
}
