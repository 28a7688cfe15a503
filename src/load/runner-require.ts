/**
 * Which module system loaded this library, when it is not Node's own: a test runner's module registry,
 * Jest's. Jest evaluates every CommonJS file itself, in its sandbox: its `require` resolves, compiles (its
 * transforms: ts-jest, babel-jest) and mocks (`jest.mock`) the files, and keeps one instance of each per
 * test file. An endpoint loaded any other way would get its own copy of every module it imports (the copy the
 * test seeds or mocks is another), and Jest gives its sandbox no working `import()` at all unless Node runs
 * with --experimental-vm-modules. So under such a registry every endpoint goes through its `require`.
 *
 * How to tell: the module system that loaded this file is the one whose `require.cache` holds this file's
 * `module` object (Jest's holds it too, in its registry). Node's documentation of `node:module` calls that object
 * an instance of `Module`, which every module Node loads is, while Jest gives each file a plain object of its
 * own. A bundler's CommonJS output (esbuild's, for one) also wraps each file in an object of its own, but Node
 * loaded the bundle, and its cache holds the bundle's module, not that object. Under Node, `require` and
 * `import()` share one cache, so there the loader's usual rules stand.
 *
 * The ES module build never looks: there `import()` is its module system's own, Node's or, where Vitest inlines
 * the library (`server.deps.inline`), Vite's module runner's, which shares its modules with the test. Vitest
 * hands inlined code a `module` object and Node's `require` for CommonJS habits; neither is how it was loaded.
 */
import Module from 'node:module';

/** Written by the package build (tsup's `define`, per format); the sources run as CommonJS (under tsx). */
declare const __COMMONJS_BUILD__: boolean | undefined;

export const runnerRequire: NodeJS.Require | undefined = thisFilesRequire();

function thisFilesRequire(): NodeJS.Require | undefined {
  if (typeof __COMMONJS_BUILD__ === 'boolean' && !__COMMONJS_BUILD__) return undefined;
  if (typeof module !== 'object' || typeof require !== 'function') return undefined;
  return isForeignModuleSystem(module, require, __filename) ? require : undefined;
}

/**
 * True when `require()` of an endpoint gives the instance the library's own `import()` would: where Node's (or
 * Deno's) module system loaded the library. Not under a test runner's registry, whose own `require` is used then,
 * nor in the ES module build run by another module system: one that hands it CommonJS's `module` (Vitest's
 * module runner, inlining it with `server.deps.inline`), whose `import()` shares its modules with the test, and
 * beside which `require()` would load copies. Node's own ES modules have no `module`.
 */
export const requireSharesModules: boolean =
  runnerRequire === undefined &&
  (typeof __COMMONJS_BUILD__ !== 'boolean' || __COMMONJS_BUILD__ || typeof module === 'undefined');

/**
 * True in the ES module build loaded by Node's own loader: an app that `import`s the library, and, under Vitest,
 * one that leaves the library to Node, as it does every package of node_modules unless `server.deps.inline` names
 * it (load-error.ts says so then).
 */
export const loadedAsEsModuleByNode: boolean =
  typeof __COMMONJS_BUILD__ === 'boolean' && !__COMMONJS_BUILD__ && typeof module === 'undefined';

/** True when `mod`, this file's `module`, is held by the cache of `req` and is not one of Node's modules. */
export function isForeignModuleSystem(mod: object | null, req: NodeJS.Require, filename: string): boolean {
  if (mod === null || req.cache?.[filename] !== mod) return false;
  return !(mod instanceof Module);
}
