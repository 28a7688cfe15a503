/**
 * A module's exports as handler lookup wants them, whichever way it was loaded: `import()` hands back a
 * namespace, `require()` a CommonJS module's `module.exports` or an ES module's namespace (`require(esm)`).
 */

export type ModuleExports = Record<string, unknown>;

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

/**
 * What `import()` would have given, from what `require()` returned: `require(esm)` gives the module's namespace,
 * its very object, and CommonJS its `module.exports`, which `moduleExports` finds behind the namespace; a value
 * that is not an object (`module.exports = function …`) is that namespace's `default`.
 */
export function requiredExports(value: unknown): ModuleExports {
  if (Object.prototype.toString.call(value) === '[object Module]')
    return moduleExports(value as ModuleExports);
  return value !== null && typeof value === 'object' ? (value as ModuleExports) : { default: value };
}
