/**
 * Loads an endpoint or middleware module with `import()` — or, for TypeScript in a CommonJS
 * package (most legacy Express apps), with `require()`: tsx's CommonJS hook runs in-thread,
 * while its ESM hooks answer from a worker thread for every file (1,000 .ts files: ~0.4 s
 * through require, over 4 s through import, measured on this project's 2-core machine).
 *
 * TypeScript files load as they are when the process already handles `.ts` (started under
 * tsx, or a Node with type stripping). Otherwise tsx's loader is registered once, when tsx is
 * installed — registering once costs ~150 ms, where tsx's per-file `tsImport` costs ~50 ms a
 * file. Without either, the error says how to fix it.
 */
import Module, { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isCommonJsFile } from './module-format';

const TYPESCRIPT = /\.[cm]?tsx?$/;

let tsxRegistration: Promise<void> | undefined;

export type ModuleExports = Record<string, unknown>;

/** Thrown when a module cannot be loaded; names the file. */
export class EndpointLoadError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
    hint?: string,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`Could not load ${file}: ${reason}${hint ? `\n${hint}` : ''}`, { cause });
    this.name = 'EndpointLoadError';
  }
}

export async function loadModule(file: string, displayPath = file): Promise<ModuleExports> {
  if (TYPESCRIPT.test(file) && isCommonJsFile(file)) return requireTypeScript(file, displayPath);
  const url = pathToFileURL(file).href;
  let namespace: ModuleExports;
  try {
    namespace = await import(/* webpackIgnore: true */ url);
  } catch (error) {
    if (!TYPESCRIPT.test(file) || !isUnknownExtension(error)) throw new EndpointLoadError(displayPath, error);
    await registerTsx(displayPath);
    try {
      namespace = await import(/* webpackIgnore: true */ `${url}?tsx`);
    } catch (retryError) {
      throw new EndpointLoadError(displayPath, retryError);
    }
  }
  return moduleExports(namespace);
}

async function requireTypeScript(file: string, displayPath: string): Promise<ModuleExports> {
  if (!canRequireTypeScript()) await registerTsx(displayPath);
  try {
    return createRequire(file)(file) as ModuleExports;
  } catch (error) {
    throw new EndpointLoadError(displayPath, error);
  }
}

/** A `.ts` hook is installed (tsx's CommonJS hook), or Node strips types itself. */
function canRequireTypeScript(): boolean {
  const extensions = (Module as unknown as { _extensions: Record<string, unknown> })._extensions;
  return '.ts' in extensions || Boolean((process.features as { typescript?: unknown }).typescript);
}

/**
 * A CommonJS module imported with `import()` shows `module.exports` as `default`, beside the
 * names Node's static analysis found in it, each the very same value; handler lookup wants the
 * exports object. An ES module's `default` is whatever it exports as default.
 */
function moduleExports(namespace: ModuleExports): ModuleExports {
  const inner = namespace.default;
  if (inner === null || typeof inner !== 'object') return namespace;
  const exportsObject = inner as ModuleExports;
  if ('module.exports' in namespace || exportsObject.__esModule === true) return exportsObject;
  const isCommonJs = Object.keys(namespace).every(
    (name) => name === 'default' || namespace[name] === exportsObject[name],
  );
  return isCommonJs ? exportsObject : namespace;
}

function isUnknownExtension(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'ERR_UNKNOWN_FILE_EXTENSION';
}

function registerTsx(displayPath: string): Promise<void> {
  tsxRegistration ??= (async () => {
    const require = createRequire(pathToFileURL(`${process.cwd()}/`));
    let esmApi: string;
    let cjsApi: string;
    try {
      // The ESM build (.mjs) of `tsx/esm/api`: `require.resolve` picks the CommonJS one, whose
      // `register()` points at a wrong hooks path in tsx 4.23 (`esm/api/esm/index.mjs`).
      esmApi = require.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs');
      cjsApi = require.resolve('tsx/cjs/api');
    } catch {
      throw new Error('tsx is not installed');
    }
    // CommonJS hooks cover `require()` inside CommonJS .ts files; ESM hooks cover `import()`.
    (require(cjsApi) as { register(): void }).register();
    const esm = (await import(pathToFileURL(esmApi).href)) as { register(): void };
    esm.register();
  })();
  return tsxRegistration.catch((error: unknown) => {
    tsxRegistration = undefined;
    throw new EndpointLoadError(
      displayPath,
      error,
      'TypeScript endpoints need a TypeScript loader: `npm install -D tsx` (registered automatically), ' +
        'run with `node --import tsx`, or compile the tree to JavaScript and point `dir` at the output.',
    );
  });
}
