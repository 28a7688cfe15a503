/**
 * What loads at the call: `mountEndpoints` requires here, synchronously, every module that can be, so that an
 * app's start-up code right after `app.use(mountEndpoints(…))` finds what the endpoints' modules did as they
 * loaded (models defined on an ORM, say), as it would after requiring its routers. `undefined` hands the file
 * to `loadModule`, which loads it later, asynchronously, as before. On Node and Deno:
 *
 * - CommonJS JavaScript (`.cjs`, `.js` in a package whose package.json says `"type": "commonjs"` or no `"type"`);
 * - ES modules (`.mjs`, `.js` under `"type": "module"` or with ES syntax), through `require(esm)`, which gives
 *   the very namespace `import()` gives (https://nodejs.org/api/modules.html#loading-ecmascript-modules-using-require),
 *   unless a require hook would compile them to CommonJS (requireLoadsEsModules). One with top-level `await`, in
 *   it or in what it imports, makes `require()` throw ERR_REQUIRE_ASYNC_MODULE before any of its code runs: it
 *   is imported then;
 * - on Node, TypeScript in a CommonJS package (`.cts`, `.ts`), through tsx's CommonJS hook, which registers at
 *   once (tsx-loader.ts), or through Node's own type stripping when tsx is not found. A file with top-level
 *   `await`, which CommonJS cannot express, is left to `loadModule`.
 *
 * Later: ES module TypeScript, since falling back from Node's type stripping to tsx takes `import()` and a fresh
 * URL (load-module.ts), and tsx's ES module hooks register asynchronously; every module on Bun, and in the ES
 * module build run by another module system (runner-require.ts). Under a test runner's registry, `loadModule`
 * calls its `require` at once anyway. Development mode loads through `loadModule` alone: it reloads ES modules
 * by URL, which only `import()` follows.
 */
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { isTypeScriptFile } from '../discover';
import { runtime } from '../runtime';
import { assertCommonJsSyntax, hasModuleSyntax } from './commonjs-syntax';
import { requireBundled } from './compiled-routes';
import { EndpointLoadError, commonJsHint, typeScriptHint } from './load-error';
import { requiredExports, type ModuleExports } from './module-exports';
import { isCommonJsFile, isStrictlyCommonJsFile } from './module-format';
import { requireSharesModules, runnerRequire } from './runner-require';
import { startTsxFrom } from './tsx-loader';
import { resolveTypeScriptSpecifiers } from './typescript-specifiers';

/** The module's exports when it could be loaded now; `undefined` when it loads later. Throws an EndpointLoadError. */
export function requireModule(file: string, displayPath: string): ModuleExports | undefined {
  if (!requireSharesModules || runtime.name === 'Bun') return undefined;
  if (isTypeScriptFile(file)) return requireTypeScript(file, displayPath);
  if (isStrictlyCommonJsFile(file)) {
    assertCommonJsSyntax(file, displayPath);
    return requireNow(file, displayPath, false, (error) => commonJsHint(file, error));
  }
  // An ES module by its file name or its package, or, with no `"type"`, by its syntax (as Node detects it).
  const esModule = !isCommonJsFile(file) || (!requireLoadsEsModules() && hasModuleSyntax(file));
  if (esModule && !requireLoadsEsModules()) return undefined;
  return requireNow(file, displayPath, 'unless CommonJS', (error) => commonJsHint(file, error));
}

/** Deno compiles TypeScript itself, and `import()`s it (load-module.ts). */
function requireTypeScript(file: string, displayPath: string): ModuleExports | undefined {
  if (runtime.name !== 'Node' || !isCommonJsFile(file)) return undefined;
  // From the bundle of the tree's route files, where it is in one (compiled-routes.ts).
  const bundled = requireBundled(file);
  if (bundled !== undefined) return bundled;
  let withTsx: boolean;
  try {
    withTsx = startTsxFrom(path.dirname(file));
  } catch (error) {
    throw new EndpointLoadError(displayPath, error, 'tsx was found but could not be registered.');
  }
  if (withTsx) return requireNow(file, displayPath, true, () => undefined);
  // Without a Node that strips types, `import()` says that it cannot load TypeScript, and what to do.
  const typescript = (process.features as { typescript?: unknown }).typescript;
  if (!typescript || !requireLoadsEsModules()) return undefined;
  resolveTypeScriptSpecifiers();
  return requireNow(file, displayPath, true, (error) => typeScriptHint(error, file));
}

/**
 * On Deno, a `.js` file that Node loads as CommonJS, by its package.json or, with no `"type"`, by its syntax: Deno's
 * `import()` takes a `.js` file for CommonJS only under `"type": "commonjs"`, and most Express apps' package.json
 * names no `"type"` ("require is not defined"). Its `require()` loads it as Node would
 * (https://docs.deno.com/runtime/fundamentals/node/#commonjs-support). For the ways in that do not go through
 * `requireModule`: development mode and `check --load`.
 */
export function requireCommonJsOnDeno(file: string, displayPath: string): ModuleExports | undefined {
  if (runtime.name !== 'Deno' || isTypeScriptFile(file) || !isCommonJsFile(file)) return undefined;
  if (hasModuleSyntax(file)) return undefined;
  return requireNow(file, displayPath, false, (error) => commonJsHint(file, error));
}

/**
 * A build's manifest module, as `import()` would give it, required at the call as its endpoints would be (it
 * bundles them); `undefined` where it is imported instead. Through a test runner's `require` where one loaded
 * the library and the build is CommonJS, so that the app's modules the build imports are the test's instances
 * (and Jest, which gives its sandbox no working `import()`, can load it at all). Throws what loading it threw.
 */
export function requireBuild(file: string): { default?: unknown } | undefined {
  const commonJs = file.endsWith('.cjs');
  if (runnerRequire) return commonJs ? { default: runnerRequire(file) as unknown } : undefined;
  if (!requireSharesModules || runtime.name === 'Bun') return undefined;
  if (!commonJs && !requireLoadsEsModules()) return undefined;
  try {
    const value: unknown = createRequire(file)(file);
    return commonJs ? { default: value } : (value as { default?: unknown });
  } catch (error) {
    if (!commonJs && isTopLevelAwait(error)) return undefined;
    throw error;
  }
}

/**
 * `require()` of the file. On top-level `await` it hands the file to `loadModule` when `deferAsync` says so:
 * `'unless CommonJS'` asks its syntax, as a CommonJS file that threw it was running already (it required an ES
 * module with top-level `await`), and `import()` would run it again only to fail the same way.
 */
function requireNow(
  file: string,
  displayPath: string,
  deferAsync: boolean | 'unless CommonJS',
  hint: (error: unknown) => string | undefined,
): ModuleExports | undefined {
  let value: unknown;
  try {
    value = createRequire(file)(file);
  } catch (error) {
    const defer = deferAsync === 'unless CommonJS' ? hasModuleSyntax(file) : deferAsync;
    if (defer && isTopLevelAwait(error)) return undefined;
    throw new EndpointLoadError(displayPath, error, hint(error));
  }
  return requiredExports(value);
}

/**
 * Whether `require()` of an ES module is the runtime's own `require(esm)`, giving the instance `import()` gives:
 * Node 22.12+ (unless `--no-experimental-require-module`) and Deno have it, and no require hook compiles the
 * module to CommonJS first. tsx's does (registered by this library, or by the app's `--import tsx`): it
 * replaces the `.js` entry of Node's `Module._extensions` and adds `.mjs` and `.ts`, which Node's own has not.
 */
function requireLoadsEsModules(): boolean {
  if ((process.features as { require_module?: unknown }).require_module !== true) return false;
  if (runtime.name !== 'Node') return true;
  const extensions = (Module as unknown as { _extensions?: Record<string, { name?: string } | undefined> })
    ._extensions;
  if (!extensions || '.mjs' in extensions || '.ts' in extensions) return false;
  return extensions['.js']?.name === '';
}

/**
 * `require()` of a module with top-level `await`: Node says ERR_REQUIRE_ASYNC_MODULE, and tsx
 * (compiling to CommonJS) "Top-level await is currently not supported with the "cjs" output format".
 */
export function isTopLevelAwait(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'ERR_REQUIRE_ASYNC_MODULE' || /top-level await/i.test(String(message));
}
