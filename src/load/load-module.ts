/**
 * Loads an endpoint or middleware module and hands back its exports.
 *
 * TypeScript goes through tsx whenever tsx can be found from the endpoint folder (see
 * tsx-loader.ts); without it, through Node's own type stripping where Node has it, and a
 * failure says what stripping lacks and how to fix it. In a CommonJS package (most legacy
 * Express apps) a `.ts` file is `require()`d: tsx's CommonJS hook runs in-thread, while its ESM
 * hooks answer through Node's module loader for every file (1,000 .ts files: ~0.4 s through
 * require, over 4 s through import, measured with tsx on Node 20). Only a file with top-level
 * `await`, which CommonJS cannot express, falls back to `import()` as an ES module.
 *
 * JavaScript loads with `import()` under Node's rules, whether or not tsx was registered for
 * TypeScript files elsewhere in the tree (see assertCommonJsSyntax).
 *
 * Under Node, `require` and `import()` share one module cache, so which of them loads a file changes no instance
 * the app sees. `import()` stays the way in for JavaScript although Node 22.12+ can `require()` ES modules too:
 * it takes a module with top-level `await`, and development mode reloads an ES module by giving it a new URL,
 * which only `import()` follows.
 *
 * Under a test runner's own module registry (Jest's, see runner-require.ts) none of that applies: every file
 * goes through the runner's `require`, and the runner's transforms decide what a file may contain.
 *
 * Bun and Deno compile TypeScript themselves, all of it (enums, extensionless imports, `export` in
 * a CommonJS package): there a `.ts` file is imported as it is, and tsx, whose hooks are Node's,
 * is never looked for.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileFunction } from 'node:vm';
import { isTypeScriptFile } from '../discover';
import { runtime } from '../runtime';
import { EndpointLoadError, commonJsHint, runnerHint, typeScriptHint } from './load-error';
import { isCommonJsFile, isStrictlyCommonJsFile } from './module-format';
import { runnerRequire } from './runner-require';
import { importAsEsModule, registerTsxFrom } from './tsx-loader';

export type ModuleExports = Record<string, unknown>;

export async function loadModule(file: string, displayPath: string): Promise<ModuleExports> {
  if (runnerRequire) return loadThroughRunner(runnerRequire, file, displayPath);
  if (isTypeScriptFile(file)) return loadTypeScript(file, displayPath);
  if (isStrictlyCommonJsFile(file)) assertCommonJsSyntax(file, displayPath);
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
  let withTsx: boolean;
  try {
    withTsx = await registerTsxFrom(path.dirname(file));
  } catch (error) {
    throw new EndpointLoadError(displayPath, error, 'tsx was found but could not be registered.');
  }
  if (!withTsx) {
    try {
      return moduleExports(await importFile(file));
    } catch (error) {
      throw new EndpointLoadError(displayPath, error, typeScriptHint(error));
    }
  }
  try {
    if (!isCommonJsFile(file)) return moduleExports(await importFile(file));
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
    return runnerRequire(file) as ModuleExports;
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

/**
 * An optional package the library loads when a tree needs it (`ws`), through the same module system as the
 * endpoints: a test runner's `require` where one loaded the library, or `import()`.
 */
export function importPackage(name: string): Promise<unknown> {
  return runnerRequire ? Promise.resolve().then(() => runnerRequire!(name)) : import(name);
}

function importFile(file: string): Promise<ModuleExports> {
  return import(
    /* webpackIgnore: true */ /* @vite-ignore */ pathToFileURL(file).href
  ) as Promise<ModuleExports>;
}

/**
 * `require()` of a module with top-level `await`: Node says ERR_REQUIRE_ASYNC_MODULE, and tsx
 * (compiling to CommonJS) "Top-level await is currently not supported with the "cjs" output format".
 */
function isTopLevelAwait(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'ERR_REQUIRE_ASYNC_MODULE' || /top-level await/i.test(String(message));
}

/**
 * A `.js` file that Node treats as CommonJS fails on `export`, and so must it here, even when
 * tsx (registered for the tree's TypeScript files) would compile it: otherwise the same file
 * would load or not depending on whether a `.ts` file sits somewhere in the tree. Only files
 * that mention `import`/`export` are compiled to check.
 */
function assertCommonJsSyntax(file: string, displayPath: string): void {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return; // import() reports it
  }
  if (!/\b(?:import|export)\b/.test(source)) return;
  try {
    compileFunction(
      source.replace(/^#!.*/, ''),
      ['exports', 'require', 'module', '__filename', '__dirname'],
      {
        filename: file,
      },
    );
  } catch (error) {
    throw new EndpointLoadError(displayPath, error, commonJsHint(file, error));
  }
}

/**
 * A CommonJS module imported with `import()` shows `module.exports` as `default`, beside the
 * names Node's static analysis found in it, each the very same value; handler lookup wants the
 * exports object. An ES module's `default` is whatever it exports as default.
 */
export function moduleExports(namespace: ModuleExports): ModuleExports {
  const inner = namespace.default;
  if (inner === null || typeof inner !== 'object') return namespace;
  const exportsObject = inner as ModuleExports;
  if ('module.exports' in namespace || exportsObject.__esModule === true) return exportsObject;
  const isCommonJs = Object.keys(namespace).every(
    (name) => name === 'default' || namespace[name] === exportsObject[name],
  );
  return isCommonJs ? exportsObject : namespace;
}
