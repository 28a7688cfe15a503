/**
 * The app's own modules stay the app's. A file outside the tree that an endpoint imports (a model, the database
 * setup, a service) is imported by the app's routers too: compiled into the build, it would be a second copy of the
 * module beside the app's at run time, so a second connection pool, every singleton twice, and `instanceof` false
 * for the app's own error classes. The build imports such a file from where the app has it, by a path relative to
 * the build folder, and Node gives the app and its endpoints one module; a bundler of the whole app follows that
 * import to the same file, so the bundle holds one copy. Files inside the tree stay compiled in. Packages are
 * external already (esbuild's `packages: 'external'`).
 *
 * A data file (`.json`) outside the tree is the app's too, where Node would share it: `require()` and an
 * `import … with { type: 'json' }` hand every importer one object, which an app may change as it starts (a config
 * it fills in from the environment). An ES module's import without the attribute cannot load JSON at all when it
 * runs, so that file stays compiled in, as a copy.
 */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';
import { displayPath, isCodeFile, isTypeScriptFile } from '../discover';
import { plural } from '../words';

/** Marks the resolutions this plugin asks esbuild for, so it does not answer its own question. */
const OWN = Symbol('express-file-endpoints: app modules');

/**
 * An esbuild plugin: every import that resolves to a code file outside `root` becomes an external import of that
 * file, written relative to `outDir`, the folder the manifest module is written to. `imported` collects those
 * files. `manifest` is the generated manifest source as esbuild names its importer: what it imports are the route
 * files, compiled in wherever they resolve (a symbolic link out of the tree).
 */
export function importAppModules(
  root: string,
  outDir: string,
  options: { format: 'esm' | 'cjs'; manifest: string; imported: Set<string> },
): esbuild.Plugin {
  const { format, manifest, imported } = options;
  // esbuild resolves symbolic links; the comparison and the relative paths are made between real paths.
  const realRoot = realPath(root);
  const realOut = realPath(outDir);
  return {
    name: 'express-file-endpoints:app-modules',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === OWN || args.kind === 'entry-point' || args.importer === manifest)
          return undefined;
        // esbuild's own resolution, with the tsconfig's `paths`, the package's `exports` and the extensions it tries.
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          namespace: args.namespace,
          resolveDir: args.resolveDir,
          with: args.with,
          pluginData: OWN,
        });
        // Left to esbuild: its error, a package, a file of the tree, a data file.
        if (resolved.errors.length > 0 || resolved.external || resolved.namespace !== 'file')
          return undefined;
        if (isInside(realRoot, resolved.path)) return undefined;
        if (!isCodeFile(resolved.path) && !isSharedData(resolved.path, args, format)) return undefined;
        imported.add(resolved.path);
        return { path: specifier(realOut, resolved.path, isUrl(args.kind, format)), external: true };
      });
    },
  };
}

/**
 * What `build` says about the app's TypeScript files it imports: the build imports them as they are, which is
 * right for an app bundled whole or run through a TypeScript loader, and wrong for an app that runs what tsc
 * compiled (its routers import the compiled `.js`, a second module). Undefined when there are none.
 */
export function typeScriptNote(imported: readonly string[]): string | undefined {
  const files = imported.filter(isTypeScriptFile);
  if (files.length === 0) return undefined;
  const more = files.length > 1 ? ` (and ${plural(files.length - 1, 'other TypeScript file')})` : '';
  return (
    `the build imports ${displayPath(files[0]!)}${more} from outside the tree as it is: the app must load that ` +
    'same file when it runs, from a bundle of the whole app or through a TypeScript loader. An app that runs ' +
    'what tsc compiled builds the tree tsc wrote instead (docs/build.md, "A TypeScript app").'
  );
}

/**
 * The specifier of `file` from a module in `from`. An `import` in an ES module (and `import()` in either format)
 * takes a URL, where `%`, `#` and `?` mean something; `require()` takes a path, where they do not.
 */
function specifier(from: string, file: string, url: boolean): string {
  const relative = path.relative(from, file);
  // On another drive (Windows) there is no relative path.
  if (path.isAbsolute(relative)) return url ? pathToFileURL(file).href : file;
  const posix = relative.split(path.sep).join('/');
  const dotted = posix.startsWith('../') ? posix : `./${posix}`;
  return url ? dotted.replace(/[%#?]/g, encodeURIComponent) : dotted;
}

/** A JSON file whose importers Node hands one object: one `require()`s, or imports with `type: 'json'`. */
function isSharedData(file: string, args: esbuild.OnResolveArgs, format: 'esm' | 'cjs'): boolean {
  if (path.extname(file).toLowerCase() !== '.json') return false;
  // esbuild before 0.21.4 passes plugins no `with`.
  if ((args.with as esbuild.OnResolveArgs['with'] | undefined)?.type === 'json') return true;
  // In a CommonJS build esbuild writes a static `import` as `require()`, which loads JSON as it is.
  return args.kind === 'require-call' || (format === 'cjs' && args.kind === 'import-statement');
}

/** Whether the import in the output is an ES module import: esbuild turns `import` into `require()` for CommonJS. */
function isUrl(kind: esbuild.ImportKind, format: 'esm' | 'cjs'): boolean {
  return kind === 'dynamic-import' || (kind === 'import-statement' && format === 'esm');
}

function isInside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return (
    relative !== '' &&
    relative !== '..' &&
    !relative.startsWith(`..${path.sep}`) &&
    !path.isAbsolute(relative)
  );
}

/** The real path of `file`, which need not exist yet (the build folder): its nearest existing folder's, joined. */
function realPath(file: string): string {
  if (existsSync(file)) return realpathSync(file);
  const parent = path.dirname(file);
  return parent === file ? file : path.join(realPath(parent), path.basename(file));
}
