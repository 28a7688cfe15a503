/**
 * The error a module that cannot be loaded becomes: it names the file and, where Node tells it, the line;
 * keeps Node's reason (without the "Require stack:" list) and says how to fix what the library recognises.
 * No stack and no `cause` unless DEBUG=express-file-endpoints (see debug.ts): printed, both would repeat the
 * reason with a trace into Node's module loader.
 */
import path from 'node:path';
import { isDebugging, withoutStack } from '../debug';
import { isTypeScriptFile } from '../discover';
import { environmentVariable, runtime } from '../runtime';
import { installDevCommand } from './package-manager';
import { loadedAsEsModuleByNode } from './runner-require';
import { isParseFailure, isThrownSyntaxError, withEditorColumns } from './source-location';

/** Thrown when a module cannot be loaded; names the file. */
export class EndpointLoadError extends Error {
  /**
   * What Node or tsx threw, always at hand for code (development mode locates it), while `cause`,
   * which printing shows with its stack, is set only under DEBUG. Not enumerable: not printed.
   */
  declare readonly originalError: unknown;

  /**
   * The message without the advice to run `check`: what `check --load` reports, having run `check`'s parse
   * already. Not enumerable: not printed.
   */
  declare readonly messageForCheck: string;

  constructor(
    /** The module as messages name it: relative to the working directory, with `/`; not its absolute path. */
    readonly file: string,
    cause: unknown,
    hint?: string,
  ) {
    const summary = `Could not load ${file}${lineOf(cause, file)}: ${reasonOf(cause)}`;
    const advice = hint ?? adviceFor(cause);
    super(advice ? `${summary}\n${advice}` : summary, isDebugging() ? { cause } : undefined);
    const forCheck = advice && advice !== RUN_CHECK ? `${summary}\n${advice}` : summary;
    Object.defineProperty(this, 'originalError', { value: cause, enumerable: false });
    Object.defineProperty(this, 'messageForCheck', { value: forCheck, enumerable: false });
    this.name = 'EndpointLoadError';
    withoutStack(this);
  }
}

const RUN_CHECK =
  'Run `npx express-file-endpoints check` for the line and column, and for every other file that will not load.';

const THROWN_SYNTAX_ERROR =
  'This is not a syntax error in the file: its top-level code threw it while the module ran (JSON.parse, ' +
  'new RegExp() or new Function() of bad input, such as an environment variable). Fix that input, or catch ' +
  'the error where it is thrown.';

/**
 * Deno runs a `.ts` file, and a `.js` file an ES module imports, as an ES module unless its package.json says
 * `"type": "commonjs"` (https://docs.deno.com/runtime/fundamentals/node/#commonjs-support): CommonJS code then
 * finds no `require`, `module` or `exports`.
 */
const DENO_COMMONJS =
  'Deno ran this code as an ES module, where CommonJS has no `require`, `module` or `exports`. Set ' +
  '"type": "commonjs" in the package.json beside it, or name the file .cjs (.cts for TypeScript), or write it ' +
  'with `import`/`export`.';

function adviceFor(cause: unknown): string | undefined {
  if (isThrownSyntaxError(cause)) return THROWN_SYNTAX_ERROR;
  if (runtime.name === 'Deno' && isCommonJsOnDeno(cause)) return DENO_COMMONJS;
  const code = codeOf(cause);
  // tsx's parse failures name the line and column themselves.
  if (cause instanceof SyntaxError && isParseFailure(cause)) return RUN_CHECK;
  return code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND' ? RUN_CHECK : undefined;
}

/**
 * ` (line 3)` from where Node's stack says the error is: its first line for a CommonJS syntax error
 * (`/path/file.js:3`), else the first frame inside the module (an error thrown while it ran).
 */
function lineOf(cause: unknown, file: string): string {
  const stack = cause instanceof Error ? (cause.stack ?? '') : '';
  const first = stack.split('\n', 1)[0] ?? '';
  const syntax = /^(\/.*):(\d+)$/.exec(first);
  if (syntax) return ` (line ${syntax[2]})`;
  const base = path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const frame = new RegExp(`[/\\\\]${base}:(\\d+):(\\d+)\\)?$`, 'm').exec(stack);
  return frame ? ` (line ${frame[1]}, column ${frame[2]})` : '';
}

function isCommonJsOnDeno(cause: unknown): boolean {
  const message = cause instanceof Error ? cause.message : '';
  return cause instanceof ReferenceError && /^(?:require|module|exports) is not defined\b/.test(message);
}

function reasonOf(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  return withEditorColumns(message.replace(/\n+Require stack:\n[\s\S]*$/, ''));
}

function installTsx(file: string): string {
  return (
    `Install tsx beside your app (\`${installDevCommand(path.dirname(file), 'tsx')}\`): it is found from the ` +
    'endpoint folder and registered automatically. Or start Node with `--import tsx`, or compile the ' +
    'endpoints to JavaScript and point `dir` at the output.'
  );
}

/**
 * Under Vitest, where the app imported the library and Vitest left it, as every package of node_modules, to
 * Node's own loader: docs/testing.md's setting has Vitest run it in its module runner, which compiles the
 * endpoints itself, and shares the test's modules and `vi.mock` with them.
 */
function vitestFix(file: string): string | undefined {
  if (!loadedAsEsModuleByNode || environmentVariable('VITEST') === undefined) return undefined;
  return (
    'Vitest left express-file-endpoints, as every package of node_modules, to Node, and with it the endpoints ' +
    'it loads. Have Vitest run it in its module runner, which compiles TypeScript endpoints itself and shares ' +
    "your test's modules and vi.mock with them: `test: { server: { deps: { inline: ['express-file-endpoints'] } } }` " +
    `in vitest.config. Or install tsx (\`${installDevCommand(path.dirname(file), 'tsx')}\`).`
  );
}

/**
 * For a TypeScript file Node could not load by itself (tsx not found); nothing when the error is
 * the module's own (it threw while running).
 */
export function typeScriptHint(error: unknown, file: string): string | undefined {
  const fix = vitestFix(file) ?? installTsx(file);
  if (codeOf(error) === 'ERR_UNKNOWN_FILE_EXTENSION') {
    return `Node ${process.version} does not load this kind of TypeScript file by itself. ${fix}`;
  }
  const limit = strippingLimit(error);
  if (!limit) return undefined;
  return (
    'Node loaded this file with its own type stripping (tsx was not found from the endpoint ' +
    `folder), which ${limit}. ${fix}`
  );
}

/** What Node's type stripping does not support, as far as the error tells. */
function strippingLimit(error: unknown): string | undefined {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : '';
  if (code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX') {
    return 'cannot run TypeScript syntax that needs compiling (enums, namespaces, parameter properties)';
  }
  if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && isExtensionless(message)) {
    return 'does not resolve extensionless imports (`./lib` for `./lib.ts`)';
  }
  if (error instanceof SyntaxError && usesModuleSyntax(message)) {
    return (
      'does not load `import`/`export` from a .ts file in a CommonJS package ' +
      '(name it .mts, or set "type": "module" in package.json)'
    );
  }
  if (!(error instanceof SyntaxError)) return undefined;
  return (
    'does not resolve extensionless imports, cannot run syntax that needs compiling (enums, ' +
    'namespaces, parameter properties), and does not load `import`/`export` from a .ts file in a ' +
    'CommonJS package'
  );
}

const RUNNER_ESM =
  'It is an ES module, and this test runner loads ES modules only through its own `import()`: Jest has one ' +
  'when Node runs it with --experimental-vm-modules (`NODE_OPTIONS=--experimental-vm-modules npx jest`). ' +
  'Or write the endpoint as CommonJS (`exports.GET = …`), or let the runner compile it to CommonJS ' +
  '(Jest: babel-jest with @babel/preset-env, ts-jest for TypeScript).';

function runnerTypeScript(file: string): string {
  return (
    'This test runner compiles TypeScript only through its transform: with Jest, ts-jest ' +
    `(\`preset: 'ts-jest'\` in jest.config.js, \`${installDevCommand(path.dirname(file), 'ts-jest')}\`) or ` +
    'babel-jest with @babel/preset-typescript.'
  );
}

/** For a file a test runner's module registry (Jest's) would not load: an ES module, or TypeScript it does not compile. */
export function runnerHint(file: string, error: unknown): string | undefined {
  const code = codeOf(error);
  if (
    code === 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING' ||
    code === 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG'
  ) {
    return RUNNER_ESM;
  }
  // By name: the runner's errors may come from another realm than this library's (Jest's sandbox).
  const name = (error as { name?: unknown } | null)?.name;
  return isTypeScriptFile(file) && name === 'SyntaxError' ? runnerTypeScript(file) : undefined;
}

/** For a file Node treats as CommonJS although it is written with `import`/`export`. */
export function commonJsHint(file: string, error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : '';
  if (!(error instanceof SyntaxError) || !usesModuleSyntax(message)) return undefined;
  const ext = path.extname(file);
  const why = ext === '.cjs' ? 'a .cjs file' : 'its package.json says "type": "commonjs"';
  return (
    `This file is CommonJS (${why}) but uses ES module syntax. Either rename it to ` +
    `${path.basename(file, ext)}.mjs, or write \`exports.GET = …\` instead of \`export\`, ` +
    'or set "type": "module" in package.json.'
  );
}

function usesModuleSyntax(message: string): boolean {
  return /\b(import statement|import\.meta)\b|Unexpected token 'export'|^export\b/.test(message);
}

function isExtensionless(message: string): boolean {
  const missing = /Cannot find module '([^']+)'/.exec(message)?.[1];
  return missing !== undefined && path.extname(missing) === '';
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
