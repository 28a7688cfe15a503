/**
 * Loads an endpoint or middleware module and hands back its exports.
 *
 * An ES module `.ts` file (`.mts`, or `.ts` under `"type": "module"`) is first imported as it is, with
 * Node's own type stripping (type-stripping.ts), as long as tsx is not yet in the process and the file's
 * imports link once stripped (stripped-links.ts); a file that needs more fails before any of its code
 * runs, and loads through tsx instead (tsx-loader.ts), which is then registered for the rest of the
 * process. Without tsx, that failure says what stripping lacks and how to fix it. Wherever Node strips, a
 * resolve hook has `./x.js` load `./x.ts` when there is no `x.js`, as tsx does (typescript-specifiers.ts): NodeNext
 * imports strip.
 *
 * A `.ts` file in a CommonJS package (most legacy Express apps) goes through tsx whenever tsx can be
 * found: stripping cannot turn its `import`/`export` into CommonJS, and importing it as an ES module
 * instead would change what `require`, `__dirname` and default imports of CommonJS packages mean
 * in it, and give a file it shares with a compiled one a second instance. It is `require()`d: tsx's
 * CommonJS hook runs in-thread. Only a file with top-level `await`, which CommonJS cannot express,
 * falls back to `import()` as an ES module.
 *
 * JavaScript loads with `import()` under Node's rules, whether or not tsx was registered for
 * TypeScript files elsewhere in the tree (see assertCommonJsSyntax).
 *
 * Under Node, `require` and `import()` share one module cache, so which of them loads a file changes no instance
 * the app sees. A mount requires what it can before it gets here, at the call (require-module.ts); this is the
 * way in for the rest, and for development mode and `check --load`: `import()` takes a module with top-level
 * `await`, and development mode reloads an ES module by giving it a new URL, which only `import()` follows.
 *
 * Under a test runner's own module registry (Jest's, see runner-require.ts) none of that applies: every file
 * goes through the runner's `require`, and the runner's transforms decide what a file may contain.
 *
 * Bun and Deno compile TypeScript themselves, all of it (enums, extensionless imports, `export` in
 * a CommonJS package): there a `.ts` file is imported as it is, and tsx, whose hooks are Node's,
 * is never looked for.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isTypeScriptFile } from '../discover';
import { runtime } from '../runtime';
import { assertCommonJsSyntax } from './commonjs-syntax';
import { loadBundled, whenCompiled } from './compiled-routes';
import { moduleExports, requiredExports, type ModuleExports } from './module-exports';
import { EndpointLoadError, commonJsHint, runnerHint, typeScriptHint } from './load-error';
import { isCommonJsFile, isStrictlyCommonJsFile } from './module-format';
import { isTopLevelAwait, requireBuild, requireCommonJsOnDeno } from './require-module';
import { runnerRequire } from './runner-require';
import { importAsEsModule, isTsxRegistered, registerTsxFrom } from './tsx-loader';
import { linksWhenStripped } from './stripped-links';
import { mayStripTypes, needsMoreThanStripping } from './type-stripping';
import { resolveTypeScriptSpecifiers } from './typescript-specifiers';

export async function loadModule(file: string, displayPath: string): Promise<ModuleExports> {
  if (runnerRequire) return loadThroughRunner(runnerRequire, file, displayPath);
  if (isTypeScriptFile(file)) return loadTypeScript(file, displayPath);
  if (isStrictlyCommonJsFile(file)) assertCommonJsSyntax(file, displayPath);
  const commonJs = requireCommonJsOnDeno(file, displayPath);
  if (commonJs) return commonJs;
  try {
    return moduleExports(await importFile(file));
  } catch (error) {
    throw new EndpointLoadError(displayPath, error, commonJsHint(file, error));
  }
}

async function loadTypeScript(file: string, displayPath: string): Promise<ModuleExports> {
  if (runtime.name !== 'Node') {
    try {
      return moduleExports(await importFile(file));
    } catch (error) {
      throw new EndpointLoadError(displayPath, error);
    }
  }
  // A route file compiled ahead (compiled-routes.ts) is imported once its code is there; one in the bundle of the
  // tree's route files (route-bundle.ts), from it.
  await whenCompiled(file);
  const bundled = await loadBundled(file);
  if (bundled !== undefined) return bundled;
  const esModule = !isCommonJsFile(file);
  let stripped: unknown;
  if (esModule && !isTsxRegistered() && mayStripTypes() && linksWhenStripped(file)) {
    resolveTypeScriptSpecifiers();
    try {
      return moduleExports(await importFile(file));
    } catch (error) {
      if (!needsMoreThanStripping(error)) throw new EndpointLoadError(displayPath, error);
      stripped = error;
    }
  }
  let withTsx: boolean;
  try {
    withTsx = await registerTsxFrom(path.dirname(file));
  } catch (error) {
    throw new EndpointLoadError(displayPath, error, 'tsx was found but could not be registered.');
  }
  if (!withTsx) {
    if (stripped !== undefined) {
      throw new EndpointLoadError(displayPath, stripped, typeScriptHint(stripped, file));
    }
    resolveTypeScriptSpecifiers();
    try {
      return moduleExports(await importFile(file));
    } catch (error) {
      throw new EndpointLoadError(displayPath, error, typeScriptHint(error, file));
    }
  }
  try {
    if (esModule) return moduleExports(await importFile(file, stripped));
    return createRequire(file)(file) as ModuleExports;
  } catch (error) {
    if (!isTopLevelAwait(error)) throw new EndpointLoadError(displayPath, error);
  }
  try {
    return moduleExports((await importAsEsModule(file)) as ModuleExports);
  } catch (error) {
    throw new EndpointLoadError(displayPath, error);
  }
}

/**
 * Through the `require` of the test runner that loaded the library, so that the endpoint, the test and the app
 * share one instance of every module, mocks included. No tsx: the runner compiles TypeScript with its own
 * transform, or refuses it. An ES module its `require` will not take goes to `import()`, which under Jest is
 * Jest's own only with --experimental-vm-modules, and otherwise fails at once.
 */
export async function loadThroughRunner(
  runnerRequire: NodeJS.Require,
  file: string,
  displayPath: string,
): Promise<ModuleExports> {
  try {
    // `module.exports = function` is the module's default export, as Node's own loading gives it.
    return requiredExports(runnerRequire(file));
  } catch (error) {
    if (!isEsModuleRefusal(error)) throw new EndpointLoadError(displayPath, error, runnerHint(file, error));
  }
  try {
    return moduleExports(await importFile(file));
  } catch (error) {
    throw new EndpointLoadError(displayPath, error, runnerHint(file, error));
  }
}

/** `require()` that will not load an ES module (Jest without --experimental-vm-modules), or not this one (top-level `await`). */
function isEsModuleRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_REQUIRE_ESM' || code === 'ERR_REQUIRE_ASYNC_MODULE';
}

/** A build's manifest module, as `import()` would give it: required at the call where it can be (require-module.ts). */
export function importBuild(file: string): Promise<{ default?: unknown }> {
  try {
    const required = requireBuild(file);
    if (required) return Promise.resolve(required);
  } catch (error) {
    return Promise.reject(error as Error);
  }
  return importFile(file);
}

/**
 * An optional package the library loads when a tree needs it (`ws`), through the same module system as the
 * endpoints: a test runner's `require` where one loaded the library, or `import()`.
 */
export function importPackage(name: string): Promise<unknown> {
  return runnerRequire ? Promise.resolve().then(() => runnerRequire!(name)) : import(name);
}

/** Marks the URL of a file loaded again after Node's type stripping could not load it (see importFile). */
const RETRY = 'express-file-endpoints-compiled';

/**
 * The file's module namespace. `failure` is the error of an earlier import of it that failed before any of its
 * code ran: Node loads the URL afresh where a file it imports failed to load, but hands back the same failure
 * where the file's own imports failed to link (a type imported without `import type`); then the file gets a URL
 * of its own.
 */
export async function importFile(file: string, failure?: unknown): Promise<ModuleExports> {
  const url = pathToFileURL(file);
  try {
    return (await import(/* webpackIgnore: true */ /* @vite-ignore */ url.href)) as ModuleExports;
  } catch (error) {
    if (failure === undefined || error !== failure) throw error;
  }
  url.searchParams.set(RETRY, '1');
  return (await import(/* webpackIgnore: true */ /* @vite-ignore */ url.href)) as ModuleExports;
}
