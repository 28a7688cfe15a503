/**
 * The fast way to start a TypeScript tree without a build: the tree's route files (endpoints and middleware) are
 * compiled ahead, all at once, with esbuild, and kept on disk between starts (compile-cache.ts), so a start compiles
 * only the files that changed. tsx alone compiles each file as Node loads it, one blocking esbuild call after
 * another: about 1 ms a file when its cache is cold, a second for 1,000 endpoints.
 *
 * Each route file is compiled alone, as tsx would compile it (its imports left as they are written, the tsconfig tsx
 * reads, the running Node as target, names kept), with an inline source map, and a load hook hands Node that code
 * for the file's own URL. So the module is the file itself: `__dirname`, `__filename` and `import.meta.url` are the
 * source's, stack traces name its `.ts` lines (source maps are on, as tsx turns them on), and everything it
 * imports, packages and the app's own modules, loads as the app loads it: through tsx's hooks, which resolve
 * extensionless imports and compile the rest of the app's TypeScript, one instance of each module for the app and
 * its endpoints alike. At a start, a tree's route files go into bundles instead (route-bundle.ts); those
 * development mode loads again after a save are compiled each on its own. A tree Node's type stripping loads whole
 * (stripped-links.ts) needs no tsx: its files are compiled as stripping reads them (every import kept,
 * `verbatimModuleSyntax`), their imports resolved as stripping resolves them, and source maps turned on, where
 * stripping keeps every line in place.
 *
 * Only where that holds: on Node, with tsx's hooks running in-thread (tsx-loader.ts) unless the tree strips,
 * esbuild found (the app's own, else the one tsx installs), and a tsconfig the library can read. A CommonJS file
 * is compiled before `mountEndpoints` returns (synchronously on a miss), since it is required at the call; an ES
 * module is compiled asynchronously, each file imported as soon as its code is there. Where a file cannot be
 * compiled (a syntax error, top-level `await` in CommonJS), it loads the usual way, and tsx reports what is wrong
 * with it as it always did. Under tsx's CommonJS hook (`--require tsx/cjs`, `--import tsx`), which compiles every file
 * `require()` loads itself, CommonJS files are left to it.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';
import { isTypeScriptFile } from '../discover';
import { runtime } from '../runtime';
import { cacheKey, compileCache } from './compile-cache';
import {
  buildCommonJsRouteBundle,
  buildRouteBundle,
  bundledName,
  bundlesOf,
  bundleUrl,
  importSpecifiers,
  mayBundle,
  MIN_BUNDLE,
} from './route-bundle';
import { moduleExports, requiredExports, type ModuleExports } from './module-exports';
import { nodeModuleHooks } from './module-hooks';
import { isCommonJsFile } from './module-format';
import { isRelative, resolveImport } from './resolve-import';
import { forgetRealPaths, realModulePath } from './real-path';
import { requireSharesModules, runnerRequire } from './runner-require';
import { linksWhenStripped } from './stripped-links';
import { findTsxFrom, isTsxRegistered, startTsxHooksFrom, tsxRequireHookInProcess } from './tsx-loader';
import { tsxCompilerOptions } from './tsx-tsconfig';
import { resolveTypeScriptSpecifiers } from './typescript-specifiers';
import { mayStripTypes } from './type-stripping';

interface Compiled {
  format: 'commonjs' | 'module';
  code: string;
  /** The source as it was compiled: a file saved since is loaded the usual way. */
  mtimeMs: number;
  size: number;
  /** The bundle of route files (route-bundle.ts), which has no file of its own. */
  virtual?: true;
}

/** By file URL, without a query: the real path's, which Node loads a module by. */
const compiled = new Map<string, Compiled>();
/**
 * A route file's URL, as the loader imports it (load-module.ts) -> its real one, for a file compiled for the first
 * time in this process. One offered again (development mode's reload, even of a file that failed) resolves the usual
 * way, through the hooks after this one: development mode's gives a changed module a URL of its own
 * (src/dev/module-versions.ts).
 */
const realUrls = new Map<string, string>();
/** A route file's URL -> the compilation it was first offered to. */
const offered = new Map<string, number>();
let compilation = 0;
/** ES module files whose compilation is under way. */
const pending = new Map<string, Promise<void>>();
let hooked = false;
/** The rules a compiled file's relative imports resolve by: tsx's, or those of Node's type stripping. */
let importsResolveBy: 'tsx' | 'strip' = 'tsx';
/** A compiled file's relative import target (absolute, as written) -> the URL it resolves to, or '' for none. */
const resolved = new Map<string, string>();
/**
 * A tree's bundle of route files (route-bundle.ts), from when it is planned: its URL, its code once built, and once
 * loaded, its namespace (an ES module's) or its exports (a CommonJS one's).
 */
interface Bundle {
  url: string;
  format: Compiled['format'];
  /** The route files in it. */
  files: readonly string[];
  namespace?: Promise<unknown>;
  exports?: Record<string, unknown>;
  /** It was not built, or an ES module in it threw as it ran: its files load one by one. */
  failed?: true;
}
/** A route file in a bundle, by path -> that bundle, and the name of the file's namespace in it. */
const bundledFiles = new Map<string, { bundle: Bundle; name: string }>();
/** A CommonJS bundle's path, as `require.cache` names it -> its route files. */
const commonJsBundles = new Map<string, readonly string[]>();
/**
 * A tree's cache entries this process uses, by the tree's folder: what its cache file keeps; and the key of each
 * file's own entry among them.
 */
const inUse = new Map<string, { entries: Map<string, string>; keyOfFile: Map<string, string> }>();

/**
 * Compiles the TypeScript among the tree's route files ahead, or reads them from the cache; does nothing where the
 * fast way does not apply (see above). Never throws: a file it does not compile loads as before. `reloading`:
 * development mode loads these files again, each on its own (a file of a bundle too), the rest of the tree being
 * loaded already; the cache then keeps what the tree's first compilation used as well.
 */
export function compileRouteFiles(
  root: string,
  files: readonly string[],
  how: { reloading: boolean } = { reloading: false },
): void {
  // Files come and go between the compilations of development mode.
  resolved.clear();
  forgetRealPaths();
  if (runtime.name !== 'Node' || runnerRequire || !requireSharesModules || !hasModuleHooks()) return;
  const typescript = files.filter(
    (file) => isTypeScriptFile(file) && !file.endsWith('.tsx') && isInside(root, file),
  );
  let commonJs = typescript.filter(isCommonJsFile);
  const esModules = typescript.filter((file) => !isCommonJsFile(file));
  if (tsxRequireHookInProcess()) commonJs = [];
  const stripped =
    commonJs.length === 0 &&
    !isTsxRegistered() &&
    mayStripTypes() &&
    esModules.every((file) => linksWhenStripped(file));
  const chosen = [...commonJs, ...esModules];
  if (chosen.length === 0) return;
  const tsxOptions = tsxCompilerOptions();
  if (tsxOptions === undefined) return;
  // A tree that strips is imported without tsx (load-module.ts): compiled with stripping's meaning (every import
  // kept, class fields defined), the cache spares Node stripping it again at each start.
  const options = stripped
    ? { ...tsxOptions, verbatimModuleSyntax: true, useDefineForClassFields: true }
    : tsxOptions;
  const compiler = findEsbuild(root);
  if (!compiler) return;
  if (!stripped) {
    try {
      if (!startTsxHooksFrom(chosen[0]!)) return;
    } catch {
      return;
    }
  }
  importsResolveBy = stripped ? 'strip' : 'tsx';
  // Stripping keeps every line where it was; compiled code needs its source map for stack traces to name them.
  process.setSourceMapsEnabled(true);
  installRouteFileHook();
  const cache = compileCache(root);
  const settings = (file: string, format: Compiled['format']) =>
    JSON.stringify([compiler.version, process.versions.node.split('.')[0], format, file, options]);
  const tsconfigRaw = JSON.stringify({ compilerOptions: options });
  // What the cache keeps after this start: the tree's entries as they are now, no older ones. A reload adds its
  // files' entries to the start's, each in place of the file's entry before.
  const used = (how.reloading && inUse.get(root)) || { entries: new Map(), keyOfFile: new Map() };
  inUse.set(root, used);
  const current = used.entries;
  const keepFile = (entry: Entry, code: string) => {
    keep(entry.file, entry.url, entry.format, code, entry.source);
    const before = used.keyOfFile.get(entry.file);
    if (before !== undefined && before !== entry.key) current.delete(before);
    used.keyOfFile.set(entry.file, entry.key);
    current.set(entry.key, code);
  };

  compilation++;
  type Entry = { file: string; url: string; format: Compiled['format']; source: Source; key: string };
  const misses: Entry[] = [];
  /** One file on its own: from the cache, or a miss to compile. */
  const single = (entry: Omit<Entry, 'key'>): Entry => ({
    ...entry,
    key: cacheKey(entry.source.text, settings(entry.file, entry.format)),
  });
  const readOrMiss = (entry: Entry) => {
    const code = cache.read(entry.key);
    if (code === undefined) return void misses.push(entry);
    keepFile(entry, code);
  };
  // The files that may go in bundles, unless reloading; every file's source, for the import scan.
  const bundleable: Omit<Entry, 'key'>[] = [];
  const texts = new Map<string, string>();
  const required = requireCache(root);
  for (const file of chosen) {
    const format = isCommonJsFile(file) ? 'commonjs' : 'module';
    // In a bundle already (an earlier mount of a tree it is in, this one or one whose folder holds it), or
    // required (the app's own `require()` of it): loading it again gives that instance, which another bundle
    // would not. Development mode's reload loads a file again on purpose, forgotten first (forgetBundled).
    const earlier = bundledFiles.get(file);
    if (!how.reloading && earlier !== undefined && !earlier.bundle.failed) continue;
    if (format === 'commonjs' && required[realModulePath(file)] !== undefined) continue;
    const url = pathToFileURL(file).href;
    if (!offered.has(url)) offered.set(url, compilation);
    else realUrls.delete(url);
    bundledFiles.delete(file);
    const source = readSource(file);
    if (!source) continue;
    texts.set(file, source.text);
    if (!how.reloading && mayBundle(source.text)) bundleable.push({ file, url, format, source });
    else readOrMiss(single({ file, url, format, source }));
  }
  // A route file that imports another, and that one, load as themselves (route-bundle.ts), whichever of them could
  // be bundled; so do the files of a format with too few to bundle. What each relative import resolves to goes
  // into the bundle's key: a file added or moved that an import now finds makes the bundle again.
  const formats = (['commonjs', 'module'] as const).filter(
    (format) => bundleable.filter((entry) => entry.format === format).length >= MIN_BUNDLE,
  );
  const { reals, routeFiles, withRoutes, importsOf, externalsOf } = scanRouteImports(
    formats.length > 0 ? chosen : [],
    texts,
  );
  const alone = (entry: Omit<Entry, 'key'>) =>
    !formats.includes(entry.format) || withRoutes.has(reals.get(entry.file)!);
  for (const entry of bundleable.filter(alone)) readOrMiss(single(entry));
  // Each bundle under one key: every file in it, by path, text and what its imports resolve to.
  type BundleMiss = { format: Compiled['format']; entries: typeof bundleable; key: string; url: string };
  const bundleMisses: BundleMiss[] = [];
  const realRoot = realModulePath(root);
  for (const format of formats) {
    const groups = bundlesOf(
      root,
      bundleable.filter((entry) => entry.format === format && !alone(entry)),
    );
    for (const entries of groups) {
      if (entries.length === 0) continue;
      const key = cacheKey(
        entries
          .map((entry) => `${entry.file}\0${entry.source.text}\0${importsOf.get(entry.file) ?? ''}`)
          .join('\0'),
        // Its code names the files it imports from the tree's real folder.
        settings(realRoot, format),
      );
      const url = bundleUrl(realRoot, key, format);
      const cached = cache.read(key);
      if (cached === undefined) bundleMisses.push({ format, entries, key, url });
      else {
        const { code, left } = leftOut(cached);
        planBundle(url, format, entries, left, code);
        entries.forEach((entry, i) => left.has(i) && readOrMiss(single(entry)));
        current.set(key, cached);
      }
    }
  }
  if (misses.length === 0 && bundleMisses.length === 0) return;
  let api: typeof esbuild;
  try {
    api = compiler.load();
  } catch {
    return;
  }
  const target = `node${process.versions.node}`;
  // A CommonJS bundle is built at once, as its files are required at the call; a file esbuild turns down is
  // compiled on its own, with the other files alone.
  for (const { entries, key, url } of bundleMisses.filter((miss) => miss.format === 'commonjs')) {
    const built = buildCommonJsRouteBundle(api, {
      root: realRoot,
      files: entries.map((entry) => entry.file),
      realFile: realModulePath,
      target,
      tsconfigRaw,
      external: [...new Set(entries.flatMap((entry) => externalsOf.get(entry.file) ?? []))],
      url,
    });
    const left = new Set(built ? built.left : entries.keys());
    entries.forEach((entry, i) => left.has(i) && readOrMiss(single(entry)));
    if (built === undefined) continue;
    planBundle(url, 'commonjs', entries, left, built.code);
    current.set(key, withLeftOut(built.code, left));
  }
  const cjsMisses = misses.filter((miss) => miss.format === 'commonjs');
  if (cjsMisses.length > 0) {
    for (const [miss, code] of buildCommonJs(api, root, cjsMisses, { target, tsconfigRaw }))
      keepFile(miss, code);
  }
  const transform = (miss: Entry): Promise<void> =>
    api
      .transform(miss.source.text, {
        ...transformOptions(target, tsconfigRaw),
        format: 'esm',
        sourcefile: path.basename(miss.file),
      })
      .then(
        (result) => keepFile(miss, result.code),
        () => {}, // left to tsx, which says what is wrong
      );
  const compiling: Promise<void>[] = [];
  const track = (url: string, compiled: Promise<void>) => {
    const settled = compiled.finally(() => pending.delete(url));
    pending.set(url, settled);
    compiling.push(settled);
  };
  for (const miss of misses.filter((entry) => entry.format === 'module')) track(miss.url, transform(miss));
  for (const { entries, key, url } of bundleMisses.filter((miss) => miss.format === 'module')) {
    // Built while the tree loads: a mount made meanwhile finds its files in it.
    const bundle = planBundle(url, 'module', entries);
    const building = buildRouteBundle(api, {
      root: realRoot,
      url,
      files: entries.map((entry) => entry.file),
      target,
      tsconfigRaw,
      resolve: (importer, specifier) => resolveImport(importer, specifier, 'import', importsResolveBy).file,
      realFile: realModulePath,
      isRouteFile: (file) => routeFiles.has(realModulePath(file)),
    }).then(
      (code) => {
        bundleCode(url, 'module', code);
        current.set(key, code);
      },
      () => {
        // A file esbuild refuses, or an import it cannot follow: each file on its own, as without a bundle.
        bundle.failed = true;
        return Promise.all(entries.map((entry) => transform(single(entry)))).then(() => {});
      },
    );
    for (const entry of entries) track(entry.url, building);
  }
  // The write never rejects: a cache that cannot be written is only a slower next start.
  void Promise.all(compiling).then(() => cache.write(current));
}

/**
 * Makes `entries` the files of the bundle at `url`, but those whose index is in `left` (left out of it), each by the
 * name of its index, with its code when it is there.
 */
function planBundle(
  url: string,
  format: Compiled['format'],
  entries: readonly { file: string }[],
  left: ReadonlySet<number> = new Set(),
  code?: string,
): Bundle {
  const files = entries.map((entry) => entry.file).filter((_, i) => !left.has(i));
  const bundle: Bundle = { url, format, files };
  entries.forEach(
    (entry, i) => left.has(i) || bundledFiles.set(entry.file, { bundle, name: bundledName(i) }),
  );
  realUrls.set(url, url);
  if (format === 'commonjs') {
    // `require()` names a module by its path.
    realUrls.set(fileURLToPath(url), url);
    commonJsBundles.set(fileURLToPath(url), files);
  }
  if (code !== undefined) bundleCode(url, format, code);
  return bundle;
}

/** What the tree's route files import, for their bundles (route-bundle.ts), each relative import resolved once. */
function scanRouteImports(files: readonly string[], texts: ReadonlyMap<string, string>) {
  const reals = new Map(files.map((file) => [file, realModulePath(file)]));
  const routeFiles = new Set(reals.values());
  /** The route files, by real path, that import another route file or are imported by one. */
  const withRoutes = new Set<string>();
  const targets = new Map<string, string | undefined>();
  /** What each file's relative imports resolve to, for its bundle's key. */
  const importsOf = new Map<string, string>();
  /** What a CommonJS bundle keeps outside: the imports not relative, and the relative ones' files. */
  const externalsOf = new Map<string, string[]>();
  for (const [file, real] of reals) {
    const found: string[] = [];
    const external: string[] = [];
    for (const specifier of importSpecifiers(texts.get(file) ?? '')) {
      if (!isRelative(specifier)) {
        external.push(specifier);
        continue;
      }
      const asWritten = path.resolve(path.dirname(file), specifier);
      if (!targets.has(asWritten)) {
        const target = resolveImport(file, specifier, 'import', importsResolveBy).file;
        targets.set(asWritten, target === undefined ? undefined : realModulePath(target));
      }
      const target = targets.get(asWritten);
      found.push(`${specifier}=${target ?? ''}`);
      if (target !== undefined) external.push(target);
      if (target !== undefined && routeFiles.has(target)) withRoutes.add(real).add(target);
    }
    importsOf.set(file, found.join('\0'));
    externalsOf.set(file, external);
  }
  return { reals, routeFiles, withRoutes, importsOf, externalsOf };
}

function bundleCode(url: string, format: Compiled['format'], code: string): void {
  compiled.set(url, { format, code, mtimeMs: 0, size: 0, virtual: true });
}

/** A cached CommonJS bundle's first line names the files left out of it (route-bundle.ts), by index. */
const LEFT_OUT = '// left out: ';

function withLeftOut(code: string, left: ReadonlySet<number>): string {
  return left.size === 0 ? code : `${LEFT_OUT}${[...left].join(' ')}\n${code}`;
}

function leftOut(cached: string): { code: string; left: Set<number> } {
  if (!cached.startsWith(LEFT_OUT)) return { code: cached, left: new Set() };
  const end = cached.indexOf('\n');
  const left = new Set(cached.slice(LEFT_OUT.length, end).split(' ').map(Number));
  return { code: cached.slice(end + 1), left };
}

/**
 * The route files of the CommonJS bundle `filename` names (`require.cache` keeps it beside its files): what it
 * requires, they do. Undefined for any other file.
 */
export function filesOfBundle(filename: string): readonly string[] | undefined {
  return commonJsBundles.get(filename);
}

/**
 * Development mode loads these files again: from now on each on its own (it drops them from `require.cache`, where
 * a CommonJS one's bundled exports are kept under its real path).
 */
export function forgetBundled(files: Iterable<string>): void {
  for (const file of files) bundledFiles.delete(file);
}

/**
 * The exports of a CommonJS route file that is in a bundle, required now, as requiring the file would give them
 * (the bundle runs the file when first asked for it), and, unless the file was required already, what `require()`
 * of it gives from then on, so that an app that requires it later gets the same instance
 * (https://nodejs.org/api/modules.html#requirecache).
 * Undefined for a file in no such bundle, or one that threw as it ran: then it loads on its own, and says so under
 * its own name.
 */
export function requireBundled(file: string): ModuleExports | undefined {
  const entry = bundledFiles.get(file);
  if (!entry || entry.bundle.failed || entry.bundle.format !== 'commonjs') return undefined;
  const { bundle, name } = entry;
  let exports: unknown;
  try {
    if (bundle.exports === undefined) {
      const bundlePath = fileURLToPath(bundle.url);
      bundle.exports = createRequire(bundlePath)(bundlePath) as Record<string, unknown>;
    }
    exports = bundle.exports[name];
  } catch {
    bundledFiles.delete(file);
    return undefined;
  }
  const filename = realModulePath(file);
  requireCache(filename)[filename] ??= {
    id: filename,
    filename,
    loaded: true,
    exports,
    children: [],
    paths: [],
  } as unknown as NodeJS.Module;
  return requiredExports(exports);
}

/**
 * The exports of a route file that is in a bundle: an ES module's once its bundle is imported, a CommonJS one's
 * required (requireBundled). Undefined for a file in none, or where the bundle failed to build or to load (a
 * module in it threw as it ran): then each file loads on its own, and the one that throws says so under its own
 * name.
 */
export async function loadBundled(file: string): Promise<ModuleExports | undefined> {
  const entry = bundledFiles.get(file);
  if (!entry || entry.bundle.failed) return undefined;
  if (entry.bundle.format === 'commonjs') return requireBundled(file);
  const { bundle, name } = entry;
  // What the bundle imports, stripped, finds `./x.ts` for `./x.js` as the files on their own do (load-module.ts).
  if (importsResolveBy === 'strip') resolveTypeScriptSpecifiers();
  bundle.namespace ??= import(/* webpackIgnore: true */ /* @vite-ignore */ bundle.url);
  try {
    return moduleExports(((await bundle.namespace) as Record<string, ModuleExports>)[name]!);
  } catch {
    bundle.failed = true;
    return undefined;
  }
}

/** Resolves once the file's compiled code is there, where it is being compiled ahead. */
export function whenCompiled(file: string): Promise<void> | undefined {
  return pending.get(pathToFileURL(file).href);
}

function transformOptions(target: string, tsconfigRaw: string): esbuild.TransformOptions {
  return { loader: 'ts', target, sourcemap: 'inline', keepNames: true, tsconfigRaw, logLevel: 'silent' };
}

/**
 * The CommonJS files, in one synchronous esbuild pass, each output beside its source (nothing is written), so that
 * its source map names the source by its own name. A file esbuild refuses is left out, and the rest compiled again.
 */
function buildCommonJs<T extends { file: string }>(
  api: typeof esbuild,
  root: string,
  files: T[],
  options: { target: string; tsconfigRaw: string },
): Array<[T, string]> {
  for (let attempt = 0; attempt < 2 && files.length > 0; attempt++) {
    try {
      const result = api.buildSync({
        entryPoints: files.map((entry) => entry.file),
        absWorkingDir: root,
        outbase: root,
        outdir: root,
        write: false,
        bundle: false,
        platform: 'node',
        format: 'cjs',
        target: options.target,
        sourcemap: 'inline',
        keepNames: true,
        tsconfigRaw: options.tsconfigRaw,
        logLevel: 'silent',
      });
      const byOutput = new Map(result.outputFiles.map((output) => [output.path, output.text]));
      return files.flatMap((entry): Array<[T, string]> => {
        const text = byOutput.get(entry.file.replace(/\.[cm]?ts$/, '.js'));
        return text === undefined ? [] : [[entry, text]];
      });
    } catch (error) {
      const refused = new Set(
        ((error as { errors?: esbuild.Message[] }).errors ?? []).map((message) =>
          message.location ? path.resolve(root, message.location.file) : '',
        ),
      );
      const rest = files.filter((entry) => !refused.has(entry.file));
      if (rest.length === files.length) return [];
      files = rest;
    }
  }
  return [];
}

interface Source {
  text: string;
  mtimeMs: number;
  size: number;
}

function readSource(file: string): Source | undefined {
  try {
    const { mtimeMs, size } = statSync(file);
    return { text: readFileSync(file, 'utf8'), mtimeMs, size };
  } catch {
    return undefined;
  }
}

function keep(file: string, url: string, format: Compiled['format'], code: string, source: Source): void {
  const realPath = realModulePath(file);
  const real = realPath === file ? url : pathToFileURL(realPath).href;
  if (offered.get(url) === compilation) realUrls.set(url, real);
  compiled.set(real, { format, code, mtimeMs: source.mtimeMs, size: source.size });
}

function hasModuleHooks(): boolean {
  return typeof nodeModuleHooks.registerHooks === 'function';
}

/**
 * After tsx's hooks, so that this one runs first: the compiled code, for the file's own URL. Development mode
 * calls this before it registers its own hook (src/dev/module-versions.ts), which must run before this one to
 * give every URL this one resolves its version, though the tree may have had nothing to compile yet.
 */
export function installRouteFileHook(): void {
  if (hooked) return;
  hooked = true;
  nodeModuleHooks.registerHooks!({
    resolve(specifier, context, next) {
      // The route file itself, imported by its URL: Node's resolution would ask the file system again what the
      // compilation already asked (its real path, for 1,000 endpoints a fifth of a warm start).
      const real = realUrls.get(specifier);
      if (real !== undefined) return { url: real, format: compiled.get(real)?.format, shortCircuit: true };
      const parent = context.parentURL;
      if (parent === undefined || !compiled.has(parent) || !isRelative(specifier))
        return next(specifier, context);
      const url = resolveRelative(parent, specifier);
      return url === undefined ? next(specifier, context) : { url, shortCircuit: true };
    },
    load(url, context, next) {
      // Development mode reloads an ES module under a URL with a query of its own.
      const entry = compiled.get(url.replace(/[?#].*$/, ''));
      if (entry && isUnchanged(url, entry))
        return { format: entry.format, source: entry.code, shortCircuit: true };
      return next(url, context);
    },
  });
}

/**
 * A compiled route file's relative import, by the rules of what loads the tree (resolve-import.ts): what tsx's
 * resolve hook, or Node's with the library's (typescript-specifiers.ts), would find, asked once per target for the
 * whole tree (1,000 endpoints importing one `_lib/label` ask once), where those ask the file system again for each.
 * The real path, as Node's resolution gives it. Only files: a folder or a miss is left to the hooks.
 */
function resolveRelative(parentURL: string, specifier: string): string | undefined {
  const from = fileURLToPath(parentURL);
  const target = path.resolve(path.dirname(from), specifier);
  let url = resolved.get(target);
  if (url === undefined) {
    const file = resolveImport(from, specifier, 'import', importsResolveBy).file;
    url = file === undefined ? '' : pathToFileURL(realModulePath(file)).href;
    resolved.set(target, url);
  }
  return url || undefined;
}

let sharedCache: NodeJS.Dict<NodeJS.Module> | undefined;

/** `require.cache`, which every `require` shares (https://nodejs.org/api/modules.html#requirecache). */
function requireCache(from: string): NodeJS.Dict<NodeJS.Module> {
  return (sharedCache ??= createRequire(from).cache);
}

function isUnchanged(url: string, entry: Compiled): boolean {
  if (entry.virtual) return true;
  try {
    const { mtimeMs, size } = statSync(new URL(url));
    return mtimeMs === entry.mtimeMs && size === entry.size;
  } catch {
    return false;
  }
}

/**
 * esbuild, found from the tree (the app's own), else beside tsx (which depends on it): its version for the cache
 * keys at once, the module itself only when a file must be compiled.
 */
function findEsbuild(root: string): { version: string; load(): typeof esbuild } | undefined {
  const places = [path.join(root, 'noop.js'), findTsxFrom(root)].filter((from) => from !== undefined);
  for (const from of places) {
    const requireFrom = createRequire(from);
    let manifest: string;
    try {
      manifest = requireFrom.resolve('esbuild/package.json');
    } catch {
      continue;
    }
    let version: string;
    try {
      version = String((JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown }).version);
    } catch {
      continue;
    }
    return { version, load: () => createRequire(manifest)('./') as typeof esbuild };
  }
  return undefined;
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
