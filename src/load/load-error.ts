/**
 * The error a module that cannot be loaded becomes: it names the file, keeps Node's reason
 * (without the "Require stack:" list, which the cause's own stack already shows), and says how
 * to fix what the library recognises.
 */
import path from 'node:path';

/** Thrown when a module cannot be loaded; names the file. */
export class EndpointLoadError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
    hint?: string,
  ) {
    super(`Could not load ${file}: ${reasonOf(cause)}${hint ? `\n${hint}` : ''}`, { cause });
    this.name = 'EndpointLoadError';
  }
}

function reasonOf(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  return message.replace(/\n+Require stack:\n[\s\S]*$/, '');
}

const INSTALL_TSX =
  'Install tsx beside your app (`npm install -D tsx`): it is found from the endpoint folder and ' +
  'registered automatically. Or start Node with `--import tsx`, or compile the endpoints to ' +
  'JavaScript and point `dir` at the output.';

/**
 * For a TypeScript file Node could not load by itself (tsx not found); nothing when the error is
 * the module's own (it threw while running).
 */
export function typeScriptHint(error: unknown): string | undefined {
  if (codeOf(error) === 'ERR_UNKNOWN_FILE_EXTENSION') {
    return `Node ${process.version} does not load this kind of TypeScript file by itself. ${INSTALL_TSX}`;
  }
  const limit = strippingLimit(error);
  if (!limit) return undefined;
  return (
    'Node loaded this file with its own type stripping (tsx was not found from the endpoint ' +
    `folder), which ${limit}. ${INSTALL_TSX}`
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
