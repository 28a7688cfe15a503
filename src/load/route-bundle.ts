/**
 * The route files of a tree in a few modules, for a start (development mode's too): Node loads 1,000 modules in
 * about 400 ms, most of it per module (resolution, the hooks, compilation), and a bundle of them in a few
 * milliseconds. Up to 16 bundles of each module format, each file's picked by its path, so that a changed file
 * makes only its own bundle again. Only the route files go in, each as a module of its own inside its bundle
 * (`export * as m0 from './api/a/endpoint.ts'`): everything they import that is not a route file, the app's own
 * modules and packages alike, stays outside and loads as the app loads it, so every module the app and its
 * endpoints share keeps one instance. The bundle's URL is a file in the tree's folder, which nobody writes: its
 * packages resolve from where the route files' do, and its source map names the `.ts` files and lines.
 *
 * An ES module bundle is built asynchronously, with a plugin that keeps every import but a route file's outside,
 * and runs its files as it is imported. A CommonJS file is required before `mountEndpoints` returns (outside
 * development mode), so its bundle is built at once, with esbuild's synchronous API, which takes no plugins: every
 * import the files name that is not relative, and every file their relative imports resolve to, is listed as
 * external, and a file that took in any other file is left out of the bundle. Each of its files runs when it is
 * first asked for, as a file required on its own does.
 *
 * A file that reads its own place (`import.meta`, `__dirname`, `__filename`), loads code by a name known when it
 * runs (`require`, `import()`), or exports the CommonJS way (`module.exports`, `exports.x =`) is left out: in a
 * bundle it would read the bundle's. So is a route file that imports another, and the one it imports, so that both
 * are the modules the loader imports. A file development mode loads again after a save loads on its own
 * (compiled-routes.ts).
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';
import { isRelative } from './resolve-import';

/** Fewer route files of a module format than this load one by one: a bundle would save next to nothing. */
export const MIN_BUNDLE = 20;
/** At most this many bundles of a format: a changed file makes its own bundle again, a sixteenth of a large tree. */
const MAX_BUNDLES = 16;

const STAYS_ALONE =
  /\bimport\.meta\b|\b__dirname\b|\b__filename\b|\brequire\b|\bimport\s*\(|\bmodule\.exports\b|\bexports\s*[.[]/;

/** Whether a route file's source may go in the bundle. */
export function mayBundle(source: string): boolean {
  return !STAYS_ALONE.test(source);
}

/**
 * The files in bundles of about equal size, each file's bundle picked by a hash of its path, so that a file added or
 * changed makes only its own bundle again.
 */
export function bundlesOf<T extends { file: string }>(root: string, files: readonly T[]): T[][] {
  const count = Math.max(1, Math.min(MAX_BUNDLES, Math.floor(files.length / MIN_BUNDLE)));
  const groups: T[][] = Array.from({ length: count }, () => []);
  for (const entry of files) groups[hashOf(path.relative(root, entry.file)) % count]!.push(entry);
  return groups; // some may be empty: each keeps its place
}

/** FNV-1a: a stable spread of paths, not a secret. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

const IMPORT = /(?:\bfrom|\bimport)\s*['"]([^'"]+)['"]/g;

/** The specifiers a source imports or re-exports from, as written (a comment's may be among them). */
export function importSpecifiers(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((match) => match[1]!);
}

/** The name of `files[i]`'s namespace among the bundle's exports. */
export function bundledName(index: number): string {
  return `m${index}`;
}

/** What either kind of bundle is built for. */
interface BundleTarget {
  /** The tree's real folder, where the bundle's URL is. */
  root: string;
  target: string;
  tsconfigRaw: string;
  /** The bundle's URL (`bundleUrl`). */
  url: string;
}

/** The options both kinds of bundle are built with: `entry` as the bundle's module, in the tree's folder. */
function bundleOptions(options: BundleTarget, entry: string) {
  return {
    stdin: {
      contents: entry,
      resolveDir: options.root,
      sourcefile: path.basename(fileURLToPath(options.url)),
      loader: 'js',
    },
    absWorkingDir: options.root,
    bundle: true,
    write: false,
    platform: 'node',
    target: options.target,
    sourcemap: 'inline',
    keepNames: true,
    tsconfigRaw: options.tsconfigRaw,
    logLevel: 'silent',
  } satisfies esbuild.BuildOptions;
}

export interface BundleOptions extends BundleTarget {
  files: readonly string[];
  /** A relative import of a route file: the file it loads, by the rules of what loads the tree, if any. */
  resolve(importer: string, specifier: string): string | undefined;
  /** A file's real path, as Node loads it. */
  realFile(file: string): string;
  /** Whether a file is one of the tree's route files. */
  isRouteFile(file: string): boolean;
}

/**
 * The bundle's code. Rejects where esbuild refuses a file, or a relative import resolves to nothing: those files
 * then load one by one, and whoever loads them says what is wrong.
 */
export async function buildRouteBundle(api: typeof esbuild, options: BundleOptions): Promise<string> {
  const inside = options.files.map((file) => options.realFile(file));
  const entries = new Set(inside);
  const entry = inside
    .map((file, i) => `export * as ${bundledName(i)} from ${JSON.stringify(file)};`)
    .join('\n');
  const result = await api.build({
    ...bundleOptions(options, entry),
    format: 'esm',
    plugins: [
      {
        name: 'route-files-only',
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) => {
            // The route files themselves, named by their paths.
            if (entries.has(args.path)) return undefined;
            // Everything but a relative import stays as written, for Node and tsx to resolve from the bundle's
            // place, the tree's folder: packages, `#` imports and tsconfig `paths` (which esbuild would otherwise
            // resolve itself, and copy the app's own modules in).
            if (!isRelative(args.path)) return { path: args.path, external: true };
            const file = options.resolve(args.importer, args.path);
            if (file === undefined)
              return { errors: [{ text: `${args.path} from ${args.importer} resolves to no file` }] };
            // A route file importing another (a folder handing a method on) is kept out of bundles beforehand, so
            // that both are the files the loader imports; one seen only here makes this bundle's files load alone.
            if (options.isRouteFile(file))
              return { errors: [{ text: `${args.importer} imports the route file ${file}` }] };
            return { path: pathToFileURL(options.realFile(file)).href, external: true };
          });
        },
      },
    ],
  });
  const output = result.outputFiles?.[0];
  if (!output) throw new Error('esbuild wrote no bundle');
  return output.text;
}

export interface CommonJsBundleOptions extends BundleTarget {
  files: readonly string[];
  /** A file's real path, as Node loads it. */
  realFile(file: string): string;
  /** Every import the files name that is not relative, and every file their relative imports resolve to. */
  external: readonly string[];
}

/** Defines a bundle's export that runs its file when first read (`load` throws again on a read after a throw). */
const LAZILY = `const lazily = (name, load) => {
  let value;
  Object.defineProperty(exports, name, { enumerable: true, get: () => (value ??= load()) });
};
`;

/**
 * A CommonJS bundle's code, built at once: each file is required from it as it would be on its own, when its
 * export is first read, so the bundle exports what requiring the file exports (`__esModule` and its named exports),
 * by the name `bundledName` gives its index in `files`. A file esbuild refuses (top-level `await`, a syntax
 * error), one that is not an ES module (esbuild would wrap it, and its exports would differ), and one whose imports
 * took another file into the bundle (resolved otherwise than the externals say) are left out, by index, and the
 * rest built again; undefined where none is left.
 */
export function buildCommonJsRouteBundle(
  api: typeof esbuild,
  options: CommonJsBundleOptions,
): { code: string; left: number[] } | undefined {
  const reals = options.files.map((file) => options.realFile(file));
  const left = new Set<number>();
  // Each attempt leaves out at least one more file, or gives up.
  while (left.size < reals.length) {
    const kept = reals.flatMap((file, i) => (left.has(i) ? [] : [{ file, i }]));
    const entry =
      LAZILY +
      kept
        .map(
          ({ file, i }) =>
            `lazily(${JSON.stringify(bundledName(i))}, () => require(${JSON.stringify(file)}));`,
        )
        .join('\n');
    const shared = bundleOptions(options, entry);
    let refused: Set<string>;
    try {
      const result = api.buildSync({
        ...shared,
        // Where the bundle's URL is: the externals' relative paths are written from here.
        outdir: options.root,
        metafile: true,
        format: 'cjs',
        packages: 'external',
        external: [...options.external],
      });
      refused = refusedInputs(result.metafile, new Set(kept.map(({ file }) => file)), options.root);
      if (refused.size === 0) return { code: result.outputFiles[0]!.text, left: [...left] };
    } catch (error) {
      refused = new Set(
        ((error as { errors?: esbuild.Message[] }).errors ?? []).flatMap((message) =>
          message.location ? [path.resolve(options.root, message.location.file)] : [],
        ),
      );
    }
    const before = left.size;
    reals.forEach((file, i) => refused.has(file) && left.add(i));
    if (left.size === before) return undefined;
  }
  return undefined;
}

/**
 * The given files a bundle cannot hold: one that is not an ES module, and one that imports a file it was not
 * given (the bundle took that file in).
 */
function refusedInputs(metafile: esbuild.Metafile, given: ReadonlySet<string>, root: string): Set<string> {
  const refused = new Set<string>();
  const inputs = Object.entries(metafile.inputs).map(([input, info]) => ({
    file: path.resolve(root, input),
    info,
  }));
  const taken = new Set(inputs.filter(({ file }) => !given.has(file)).map(({ file }) => file));
  for (const { file, info } of inputs) {
    if (!given.has(file)) continue;
    if (
      info.format !== 'esm' ||
      info.imports.some((link) => !link.external && taken.has(path.resolve(root, link.path)))
    )
      refused.add(file);
  }
  return refused;
}

/**
 * The URL of a bundle: a file in the tree's (real) folder that nobody writes, named by the bundle's cache key, since
 * Node keeps a module by its URL for the life of the process.
 */
export function bundleUrl(realRoot: string, key: string, format: 'commonjs' | 'module'): string {
  const extension = format === 'commonjs' ? 'cjs' : 'mjs';
  return pathToFileURL(path.join(realRoot, `.express-file-endpoints-routes-${key.slice(0, 16)}.${extension}`))
    .href;
}
