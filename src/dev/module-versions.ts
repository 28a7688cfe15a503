/**
 * Reloading modules without a restart. CommonJS (plain `.js`/`.cjs`, and `.ts` through tsx's
 * require hook) is reloaded by deleting the file from `require.cache`. ES modules cannot be
 * evicted from Node's module map, so a changed module gets a new URL: a resolve hook appends
 * `?express-file-endpoints-v=<n>` to every file that changed (or imports one that did), and the next
 * `import()` of it, or of anything importing it, loads it afresh. Files that did not change keep
 * their URL and so their single, stateful instance.
 *
 * The old records stay in Node's module map for the life of the process (Node has no API to
 * remove them): a few kB per reloaded module, measured in test/dev/dev-memory.test.ts.
 *
 * The hook runs in-thread (`module.registerHooks`, Node 22.15+ and every later version), as tsx's
 * own hooks do, and reads the version map directly.
 */
import Module from 'node:module';
import { pathToFileURL } from 'node:url';
import { forgetBundled, installRouteFileHook, realModulePath } from '../load';

const PARAM = 'express-file-endpoints-v';

/** File URL (no query) -> the reload generation it was last invalidated in. */
const versions = new Map<string, number>();
let generation = 0;
let hooked = false;

interface ResolveResult {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
interface ResolveContext {
  conditions?: readonly string[];
}
type NextResolve = (specifier: string, context: ResolveContext) => ResolveResult;
interface ModuleHooksApi {
  registerHooks(hooks: {
    resolve(specifier: string, context: ResolveContext, next: NextResolve): ResolveResult;
  }): unknown;
  _cache: Record<string, unknown>;
}
const ModuleApi = Module as unknown as ModuleHooksApi;

/** Makes the next load of each file (absolute paths) run its current code. */
export function invalidateModules(files: Iterable<string>): void {
  installHook();
  generation++;
  // A route file loaded from a bundle loads on its own from now on (src/load/compiled-routes.ts).
  forgetBundled(files);
  for (const file of files) {
    delete ModuleApi._cache[file];
    // require.cache names a module by its real path: a tree under a symlink (macOS's /var) has two.
    delete ModuleApi._cache[realModulePath(file)];
    versions.set(pathToFileURL(file).href, generation);
  }
}

function installHook(): void {
  if (hooked) return;
  hooked = true;
  // The compiled route files' hook resolves some imports itself: registered before this one, whenever the tree
  // first has a file to compile, so that this one runs first and gives each URL it resolves its version too.
  installRouteFileHook();
  // After tsx registered its hooks, so this one runs first and sees tsx's resolved URL.
  ModuleApi.registerHooks({
    resolve: (specifier, context, next) => {
      const result = next(specifier, context);
      // require() goes through these hooks too; require.cache eviction covers it.
      return context.conditions?.includes('require') ? result : withVersion(result, versions);
    },
  });
}

function withVersion(result: ResolveResult, map: ReadonlyMap<string, number>): ResolveResult {
  if (!result.url.startsWith('file:')) return result;
  const end = result.url.search(/[?#]/);
  const version = map.get(end === -1 ? result.url : result.url.slice(0, end));
  if (version === undefined) return result;
  const url = new URL(result.url);
  url.searchParams.set(PARAM, String(version));
  return { ...result, url: url.href };
}
