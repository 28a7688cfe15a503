/**
 * The ES module route files of a tree in one module, for a start outside development mode: Node links and
 * evaluates 1,000 modules in about 400 ms, most of it per module (resolution, the hooks, compilation), and one
 * bundle of them in a few milliseconds. Only the route files go in, each as a module of its own inside the bundle
 * (`export * as m0 from './api/a/endpoint.ts'`): everything they import that is not a route file, the app's own
 * modules and packages alike, stays outside and loads as the app loads it, so every module the app and its
 * endpoints share keeps one instance. The bundle's URL is a file in the tree's folder, which nobody writes: its
 * packages resolve from where the route files' do, and its source map names the `.ts` files and lines.
 *
 * A file that reads its own place (`import.meta`, `__dirname`, `__filename`), or loads code by a name known when it
 * runs (`require()`, `import()`), is left out: in a bundle it would read the bundle's. So is every file in
 * development mode, which reloads files one by one.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';

/** The bundle's file name, in the tree's folder. */
export const BUNDLE_NAME = '.express-file-endpoints-routes.mjs';

const READS_ITS_PLACE = /\bimport\.meta\b|\b__dirname\b|\b__filename\b|\brequire\s*\(|\bimport\s*\(/;

/** Whether a route file's source may go in the bundle. */
export function bundles(source: string): boolean {
  return !READS_ITS_PLACE.test(source);
}

/** The name of `files[i]`'s namespace among the bundle's exports. */
export function bundledName(index: number): string {
  return `m${index}`;
}

export interface BundleOptions {
  root: string;
  files: readonly string[];
  target: string;
  tsconfigRaw: string;
  /** A relative import of a route file: the file it loads, by the rules of what loads the tree, if any. */
  resolve(importer: string, specifier: string): string | undefined;
  /** A file's real path, as Node loads it. */
  realFile(file: string): string;
}

/**
 * The bundle's code. Rejects where esbuild refuses a file, or a relative import resolves to nothing: those files
 * then load one by one, and whoever loads them says what is wrong.
 */
export async function buildRouteBundle(api: typeof esbuild, options: BundleOptions): Promise<string> {
  const inside = new Set(options.files.map((file) => options.realFile(file)));
  const entry = options.files
    .map((file, i) => `export * as ${bundledName(i)} from ${JSON.stringify(file)};`)
    .join('\n');
  const result = await api.build({
    stdin: { contents: entry, resolveDir: options.root, sourcefile: BUNDLE_NAME, loader: 'js' },
    absWorkingDir: options.root,
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: options.target,
    // Packages stay imports, resolved from the bundle's place, which is the tree's.
    packages: 'external',
    sourcemap: 'inline',
    keepNames: true,
    tsconfigRaw: options.tsconfigRaw,
    logLevel: 'silent',
    plugins: [
      {
        name: 'route-files-only',
        setup(build) {
          build.onResolve({ filter: /^\.\.?(?:\/|$)/ }, (args) => {
            const file = options.resolve(args.importer, args.path);
            if (file === undefined)
              return { errors: [{ text: `${args.path} from ${args.importer} resolves to no file` }] };
            const real = options.realFile(file);
            // A route file importing another (a folder handing a method on): the one inside the bundle.
            if (inside.has(real)) return { path: real };
            return { path: pathToFileURL(real).href, external: true };
          });
        },
      },
    ],
  });
  const output = result.outputFiles?.[0];
  if (!output) throw new Error('esbuild wrote no bundle');
  return output.text;
}

/** The bundle's URL for the tree at `root`. */
export function bundleUrl(root: string): string {
  return pathToFileURL(path.join(root, BUNDLE_NAME)).href;
}
