/**
 * Reloading modules without a restart. CommonJS (plain `.js`/`.cjs`, and `.ts` through tsx's
 * require hook) is reloaded by deleting the file from `require.cache`. ES modules cannot be
 * evicted from Node's module map, so a changed module gets a new URL: a resolve hook appends
 * `?express-endpoints-v=<n>` to every file that changed (or imports one that did), and the next
 * `import()` of it, or of anything importing it, loads it afresh. Files that did not change keep
 * their URL and so their single, stateful instance.
 *
 * The old records stay in Node's module map for the life of the process (Node has no API to
 * remove them): a few kB per reloaded module, measured in test/dev/dev-memory.test.ts.
 *
 * Where Node has in-thread hooks (`module.registerHooks`, 22.15+) the hook reads the version map
 * directly, as tsx's own hooks do there. Node 20 runs hooks on a separate thread
 * (`module.register`); the map is published to it through a SharedArrayBuffer, written before
 * every `import()` that needs it, so the hook never sees a stale map.
 */
import Module from 'node:module';
import { pathToFileURL } from 'node:url';

const PARAM = 'express-endpoints-v';
const SHARED_BYTES = 8 * 1024 * 1024;

/** File URL (no query) -> the reload generation it was last invalidated in. */
const versions = new Map<string, number>();
let generation = 0;
let hook: 'in-thread' | 'off-thread' | 'none' | undefined;
let shared: { state: Int32Array; bytes: Uint8Array } | undefined;

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
  registerHooks?(hooks: {
    resolve(specifier: string, context: ResolveContext, next: NextResolve): ResolveResult;
  }): unknown;
  register?(specifier: string, options?: { data?: unknown }): void;
  _cache: Record<string, unknown>;
}
const ModuleApi = Module as unknown as ModuleHooksApi;

/** Makes the next load of each file (absolute paths) run its current code. */
export function invalidateModules(files: Iterable<string>): void {
  installHook();
  generation++;
  for (const file of files) {
    delete ModuleApi._cache[file];
    versions.set(pathToFileURL(file).href, generation);
  }
  if (shared) publish(shared);
}

/** How many module records reloading has left behind in Node's ES module map, at most. */
export function reloadGeneration(): number {
  return generation;
}

function installHook(): void {
  if (hook) return;
  // After tsx registered its hooks, so this one runs first and sees tsx's resolved URL.
  if (typeof ModuleApi.registerHooks === 'function') {
    ModuleApi.registerHooks({
      resolve: (specifier, context, next) => {
        const result = next(specifier, context);
        // require() goes through these hooks too; require.cache eviction covers it.
        return context.conditions?.includes('require') ? result : withVersion(result, versions);
      },
    });
    hook = 'in-thread';
    return;
  }
  if (typeof ModuleApi.register !== 'function') {
    hook = 'none';
    return;
  }
  const buffer = new SharedArrayBuffer(SHARED_BYTES);
  shared = { state: new Int32Array(buffer, 0, 2), bytes: new Uint8Array(buffer, 8) };
  ModuleApi.register(`data:text/javascript,${encodeURIComponent(OFF_THREAD_HOOK)}`, {
    data: { buffer },
  });
  hook = 'off-thread';
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

/** A seqlock: odd while writing, so the hook thread retries instead of reading half a map. */
function publish({ state, bytes }: { state: Int32Array; bytes: Uint8Array }): void {
  const encoded = new TextEncoder().encode(JSON.stringify([...versions]));
  if (encoded.length > bytes.length) throw new Error('express-endpoints: too many reloaded files to track');
  Atomics.add(state, 0, 1);
  bytes.set(encoded);
  Atomics.store(state, 1, encoded.length);
  Atomics.add(state, 0, 1);
}

const OFF_THREAD_HOOK = `
const PARAM = ${JSON.stringify(PARAM)};
let state, bytes, seen = -1, versions = new Map();
export function initialize({ buffer }) {
  state = new Int32Array(buffer, 0, 2);
  bytes = new Uint8Array(buffer, 8);
}
function current() {
  for (;;) {
    const seq = Atomics.load(state, 0);
    if (seq === seen) return versions;
    if (seq % 2 === 1) continue;
    const text = new TextDecoder().decode(bytes.slice(0, Atomics.load(state, 1)));
    if (Atomics.load(state, 0) !== seq) continue;
    versions = new Map(JSON.parse(text));
    seen = seq;
    return versions;
  }
}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (!result.url.startsWith('file:')) return result;
  const end = result.url.search(/[?#]/);
  const version = current().get(end === -1 ? result.url : result.url.slice(0, end));
  if (version === undefined) return result;
  const url = new URL(result.url);
  url.searchParams.set(PARAM, String(version));
  return { ...result, url: url.href };
}`;
