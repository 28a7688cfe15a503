/**
 * tsx, the app's TypeScript loader: found from the endpoint's folder (and so from the app's
 * `dir` and every folder above it), not from `process.cwd()`, so `cd / && node /srv/app/server.js`
 * finds the tsx installed in /srv/app. Registered once per process, the first time a file needs
 * it (see load-module.ts): Node's own type stripping cannot run enums, namespaces or parameter
 * properties, resolve extensionless imports, nor load ES syntax from a `.ts` file in a CommonJS
 * package, which is what legacy apps have.
 *
 * Under `node --import tsx` it is registered a second time, which is harmless (the integration
 * tests run it on Node 22 to 26) and more robust than guessing whether the `.ts` hooks already in
 * the process are tsx's or Node's own stripping.
 */
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nodeModuleHooks, type ResolveResult } from './module-hooks';

let registration: Promise<void> | undefined;
/** What registering tsx's CommonJS hook threw, thrown again to every later file that needs it. */
let failure: { error: unknown } | undefined;
let esModuleHook = false;
/** Whether tsx's ES module hooks run in-thread, once startTsxHooksFrom has registered them. */
let hooksRunInThread: boolean | undefined;
const noTsxIn = new Set<string>();

/** The query that marks a URL for `importAsEsModule`; the hook removes it again. */
const AS_MODULE = 'express-file-endpoints-format=module';

/**
 * Registers tsx once, found from `dir`: its CommonJS hook at once, so that `require()` of a `.ts` file works
 * from this call on (mountEndpoints requires what it can as it is called, see require-module.ts), and its ES
 * module hooks once their module is imported, which `registerTsxFrom` waits for. `false` when tsx cannot be
 * found from `dir`; throws when it was found but its CommonJS hook could not be registered.
 */
export function startTsxFrom(dir: string): boolean {
  if (failure) throw failure.error;
  if (registration) return true;
  const api = tsxFoundFrom(dir);
  if (!api) return false;
  try {
    (api.require(api.cjs) as { register(): unknown }).register();
  } catch (error) {
    failure = { error };
    throw error;
  }
  registration = (async () => {
    const esm = (await import(/* webpackIgnore: true */ pathToFileURL(api.esm).href)) as {
      register(): unknown;
    };
    esm.register();
  })();
  // Whoever needs the ES module hooks awaits them (registerTsxFrom) and gets the error then.
  registration.catch(() => {});
  return true;
}

/**
 * Registers tsx once, found from `dir`, and waits for both its hooks; resolves to `false` when it cannot be
 * found there. The CommonJS hook makes `require()` of `.ts` work in-thread (the fast path for CommonJS
 * packages); the ESM hooks cover `import()` of ES module TypeScript (`.mts`, `"type": "module"`).
 */
export async function registerTsxFrom(dir: string): Promise<boolean> {
  if (!startTsxFrom(dir)) return false;
  await registration;
  return true;
}

/**
 * Registers tsx's module hooks alone, found from the folder of `probe` (a `.ts` file), for the route files the
 * library compiled itself (compiled-routes.ts): true when they are in the process and run in-thread, for
 * `require()` as for `import`, so that tsx resolves what those files import (extensionless paths, tsconfig
 * `paths`) and compiles the rest of the app's TypeScript. tsx 4.23 and later register them with Node's
 * `module.registerHooks` where Node has it; an older tsx or Node runs them off-thread, for `import` only: false
 * then, and tsx is registered as before (startTsxFrom). Told apart by what they do: only tsx's in-thread hooks
 * make `require.resolve` find a `.ts` file by its name without an extension.
 */
export function startTsxHooksFrom(probe: string): boolean {
  if (hooksRunInThread !== undefined) return hooksRunInThread;
  // Registered the usual way (startTsxFrom): its CommonJS hook also finds a `.ts` file without its extension,
  // so the check below cannot tell, and the files load as they already do.
  if (failure || registration) return false;
  const api = tsxFoundFrom(path.dirname(probe));
  if (!api) return false;
  try {
    pathsForRequire();
    // The CommonJS build of `tsx/esm/api`, which registers at once; its wrong hooks path (see findTsx) is the
    // off-thread one's, which the check below turns down.
    (api.require(api.esm.replace(/\.mjs$/, '.cjs')) as { register(): unknown }).register();
  } catch {
    return false;
  }
  hooksRunInThread = hooksInThread(probe);
  // Off-thread hooks serve `import()` only: tsx's CommonJS hook, as without this path.
  if (hooksRunInThread) registration = Promise.resolve();
  return hooksRunInThread;
}

/**
 * tsx's in-thread hooks look for a tsconfig `paths` alias's file (`@lib/label` -> `app/_lib/label.ts`) by asking the
 * resolution after them for `file:` URLs, which `require()`'s resolution does not take: it names files by their
 * paths, and so a CommonJS file's aliased import was not found. Registered before tsx's hooks, this runs after them
 * and hands that resolution the path.
 */
function pathsForRequire(): void {
  nodeModuleHooks.registerHooks?.({
    resolve(specifier, context, next) {
      const required = context.conditions?.includes('require') && !context.conditions.includes('import');
      return next(required && specifier.startsWith('file:') ? fileURLToPath(specifier) : specifier, context);
    },
  });
}

function hooksInThread(probe: string): boolean {
  const bare = probe.slice(0, -path.extname(probe).length);
  try {
    return createRequire(probe).resolve(`./${path.basename(bare)}`) === probe;
  } catch {
    return false;
  }
}

/** True once tsx's hooks are in the process: every `.ts` file loads through them from then on. */
export function isTsxRegistered(): boolean {
  return registration !== undefined;
}

/** True when tsx can be found from `dir`, as `registerTsxFrom` looks for it (for `check`). */
export function canFindTsx(dir: string): boolean {
  return findTsx(dir) !== undefined;
}

/** The file of tsx's CommonJS API found from `dir`, to find what tsx depends on from it. */
export function findTsxFrom(dir: string): string | undefined {
  return findTsx(dir)?.cjs;
}

/** tsx found from `dir`, the folders it is not found from remembered. */
function tsxFoundFrom(dir: string): ReturnType<typeof findTsx> {
  if (noTsxIn.has(dir)) return undefined;
  const api = findTsx(dir);
  if (!api) noTsxIn.add(dir);
  return api;
}

function findTsx(dir: string): { require: NodeJS.Require; cjs: string; esm: string } | undefined {
  const requireFrom = createRequire(path.join(dir, 'noop.js'));
  try {
    return {
      require: requireFrom,
      cjs: requireFrom.resolve('tsx/cjs/api'),
      // The ESM build (.mjs) of `tsx/esm/api`: `require.resolve` picks the CommonJS one, whose
      // `register()` points at a wrong hooks path in tsx 4.23 (`esm/api/esm/index.mjs`).
      esm: requireFrom.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs'),
    };
  } catch {
    return undefined;
  }
}

/**
 * Imports a TypeScript file as an ES module although its package makes it CommonJS. For files
 * with top-level `await`, which CommonJS cannot express: tsx (like Node) would otherwise
 * compile them to CommonJS and fail. A resolve hook gives the marked URL the "module" format;
 * tsx's load hook then compiles it as an ES module. Its imports load as usual.
 */
export async function importAsEsModule(file: string): Promise<unknown> {
  installEsModuleHook();
  const url = pathToFileURL(file);
  url.search = url.search ? `${url.search}&${AS_MODULE}` : `?${AS_MODULE}`;
  return import(/* webpackIgnore: true */ url.href);
}

/** Runs before tsx's hooks (registered after them), on Node's in-thread hooks (22.15+). */
function installEsModuleHook(): void {
  if (esModuleHook) return;
  esModuleHook = true;
  nodeModuleHooks.registerHooks!({
    resolve: (specifier, context, next) =>
      specifier.includes(AS_MODULE) ? asModule(specifier) : next(specifier, context),
  });
}

function asModule(specifier: string): ResolveResult {
  const url = new URL(specifier);
  url.search = url.search
    .slice(1)
    .split('&')
    .filter((part) => part !== AS_MODULE)
    .join('&');
  return { url: url.href, format: 'module', shortCircuit: true };
}

/**
 * True when tsx's CommonJS hook is in the process (the library's, or the app's `--require tsx/cjs` or
 * `--import tsx`): it compiles every `.ts` file `require()` loads itself, past any other hook. It adds `.mjs` to
 * Node's `Module._extensions`, which Node's own table has not (require-module.ts asks the same).
 */
export function tsxRequireHookInProcess(): boolean {
  const extensions = (Module as unknown as { _extensions?: Record<string, unknown> })._extensions;
  return extensions !== undefined && '.mjs' in extensions;
}
