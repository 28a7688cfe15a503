/**
 * Which module system loaded this library, when it is not Node's own: a test runner's module registry,
 * Jest's. Jest evaluates every CommonJS file itself, in its sandbox: its `require` resolves, compiles (its
 * transforms: ts-jest, babel-jest) and mocks (`jest.mock`) the files, and keeps one instance of each per
 * test file. An endpoint loaded any other way would get its own copy of every module it imports (the copy the
 * test seeds or mocks is another), and Jest gives its sandbox no working `import()` at all unless Node runs
 * with --experimental-vm-modules. So under such a registry every endpoint goes through its `require`.
 *
 * How to tell: Node's documentation of `node:module` calls the `module` of a CommonJS file an instance of
 * `Module`, which every module Node loads is; Jest gives each file a plain object of its own (and its own
 * `node:module`, whose `Module` made none of them). Under Node `require` and `import()` share one cache, so
 * there the loader's usual rules stand.
 *
 * The ES module build never looks: there `import()` is its module system's own, Node's or, where Vitest inlines
 * the library (`server.deps.inline`), Vite's module runner's, which shares its modules with the test. Vitest
 * hands inlined code a `module` object and Node's `require` for CommonJS habits; neither is how it was loaded.
 */
import Module from 'node:module';

/** Written by the package build (tsup's `define`, per format); the sources run as CommonJS (under tsx). */
declare const __COMMONJS_BUILD__: boolean | undefined;

export const runnerRequire: NodeJS.Require | undefined = foreignRequire();

function foreignRequire(): NodeJS.Require | undefined {
  const commonJs = typeof __COMMONJS_BUILD__ === 'boolean' ? __COMMONJS_BUILD__ : typeof module === 'object';
  if (!commonJs || typeof module !== 'object' || module === null) return undefined;
  return module instanceof Module ? undefined : require;
}
