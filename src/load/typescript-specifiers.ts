/**
 * `.js` specifiers that name `.ts` files, as TypeScript's NodeNext resolution has an app write them
 * (`import { json } from '../_lib/json.js'` for `_lib/json.ts`): tsx and TypeScript map them to the source, and
 * Node's type stripping does not. Wherever the library lets Node strip types (load-module.ts, require-module.ts),
 * a resolve hook does what tsx does, no more:
 *
 * - only a specifier that names a file by path (`./`, `../`, `/` or `file:`) and ends in `.js`, `.mjs` or `.cjs`,
 *   imported or required from a `.ts`, `.mts` or `.cts` file;
 * - only when that file does not exist as written and the `.ts`, `.mts` or `.cts` file beside it does: a `.js`
 *   file that is there is always the one loaded;
 * - never inside `node_modules`, whether importing or imported: packages are resolved as they were published.
 *
 * The hook hands the `.ts` specifier on to Node's own resolution, so the module is the one an import of the `.ts`
 * path gives: one instance, however it is named. Registered once, on Node's in-thread hooks
 * (`module.registerHooks`, Node 22.15+, 24, 26), or with `module.register` on a Node without them.
 *
 * `typeScriptSpecifierFor` is the one rule, for the hook, for the reading that decides whether a file links once
 * stripped (stripped-links.ts) and for `check` (resolve-import.ts).
 */
import { statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nodeModuleHooks, type ModuleHooks } from './module-hooks';

/**
 * `specifier` with its `.js`, `.mjs` or `.cjs` made `.ts`, `.mts` or `.cts`, when it names a TypeScript file by its
 * JavaScript output's name from `parentURL` and Node would find no file as written; `undefined` for every other
 * import. The specifier stays relative, absolute or a URL as it was, which `require()` takes as `import` does.
 * Self-contained (it uses nothing but its arguments and `URL`): `module.register` runs its source in the hooks'
 * own thread.
 */
export function typeScriptSpecifierFor(
  specifier: string,
  parentURL: string | undefined,
  isFile: (url: URL) => boolean,
): string | undefined {
  const written = /^((?:\.{1,2}\/|\/|file:)[^?#]*\.[cm]?)js([?#].*)?$/.exec(specifier);
  if (written === null || parentURL === undefined || !parentURL.startsWith('file:')) return undefined;
  const parent = new URL(parentURL);
  if (!/\.[cm]?ts$/.test(parent.pathname) || parent.pathname.includes('/node_modules/')) return undefined;
  const target = new URL(specifier, parent);
  if (target.protocol !== 'file:' || target.pathname.includes('/node_modules/') || isFile(target))
    return undefined;
  const source = `${written[1]}ts${written[2] ?? ''}`;
  return isFile(new URL(source, parent)) ? source : undefined;
}

/**
 * The file an import of `specifier` from `from` loads under Node's type stripping with the hook: the file as
 * written, or the `.ts` file beside a `.js` one that is not there; `undefined` when neither exists. For relative
 * and absolute paths only.
 */
export function strippedImportTarget(from: string, specifier: string): string | undefined {
  const parent = pathToFileURL(from);
  const mapped = typeScriptSpecifierFor(specifier, parent.href, isFileUrl) ?? specifier;
  const target = new URL(mapped.split(/[?#]/)[0] as string, parent);
  return target.protocol === 'file:' && isFileUrl(target) ? fileURLToPath(target) : undefined;
}

function isFileUrl(url: URL): boolean {
  try {
    return statSync(url, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

let installed: 'registerHooks' | 'register' | undefined;

/**
 * Has Node map `.js` specifiers to the `.ts` files they name (see above), from now on, for the rest of the
 * process; once. Which of Node's hook APIs it used, for the tests.
 */
export function resolveTypeScriptSpecifiers(
  hooks: ModuleHooks = nodeModuleHooks,
): 'registerHooks' | 'register' | undefined {
  if (installed) return installed;
  if (typeof hooks.registerHooks === 'function') {
    hooks.registerHooks({
      resolve: (specifier, context, next) =>
        next(typeScriptSpecifierFor(specifier, context.parentURL, isFileUrl) ?? specifier, context),
    });
    installed = 'registerHooks';
  } else if (typeof hooks.register === 'function') {
    hooks.register(`data:text/javascript,${encodeURIComponent(HOOKS_MODULE)}`);
    installed = 'register';
  }
  return installed;
}

/** The same hook as a module of its own, for `module.register`, which loads it in the hooks' thread. */
const HOOKS_MODULE = `import { statSync } from 'node:fs';
const isFile = (url) => {
  try {
    return statSync(url, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
};
const typeScriptSpecifierFor = ${typeScriptSpecifierFor.toString()};
export async function resolve(specifier, context, next) {
  return next(typeScriptSpecifierFor(specifier, context.parentURL, isFile) ?? specifier, context);
}
`;
