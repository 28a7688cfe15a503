/**
 * A real parse of one module, for `check` only: what would stop Node (or tsx) at startup and what the
 * lexers used at run time cannot see — a syntax error with its line and column, the modules it imports,
 * ES module syntax (for files Node treats as CommonJS), and the TypeScript that Node's own type stripping
 * cannot run.
 *
 * @babel/parser is required lazily, here only: `mountEndpoints` never loads it, so startup pays nothing for
 * it. It is pure JavaScript (no platform binaries), parses TypeScript and JSX, and gives exact error positions.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { isTypeScriptFile } from '../discover';

/** Where in the file, 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

export interface ImportSite extends Position {
  specifier: string;
  /** `require()` resolves as CommonJS does (extensions, index files); `import` as ES modules do (exact). */
  kind: 'require' | 'import';
}

export interface ParsedModule {
  /** The first syntax error, when the file does not parse. */
  syntaxError?: Position & { message: string };
  /** Every module it loads at run time: static and dynamic imports with a literal specifier, `require()`. */
  imports: ImportSite[];
  /** The first `import`/`export`/`import.meta`, which a CommonJS file cannot hold. */
  moduleSyntax?: Position & { what: string };
  /** TypeScript that needs compiling, not just stripping: enums, namespaces, parameter properties… */
  needsCompiling: (Position & { what: string })[];
}

interface BabelNode {
  type: string;
  loc?: { start: { line: number; column: number } };
  [key: string]: unknown;
}
interface BabelParser {
  parse(code: string, options: Record<string, unknown>): { program: BabelNode };
}

let parser: BabelParser | undefined;

function babel(): BabelParser {
  // createRequire keeps bundlers from inlining it, and the require lazy: only `check` gets here.
  parser ??= createRequire(__filename)('@babel/parser') as BabelParser;
  return parser;
}

export function parseModule(file: string, source: string): ParsedModule {
  const ext = path.extname(file);
  const typescript = isTypeScriptFile(file);
  const jsx = ext === '.tsx' || ext === '.jsx';
  const result: ParsedModule = { imports: [], needsCompiling: [] };
  let program: BabelNode;
  try {
    program = babel().parse(source, {
      sourceType: 'module',
      // CommonJS allows a top-level `return`; `await` at top level is decided by Node, not here.
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      errorRecovery: false,
      plugins: [...(typescript ? ['typescript'] : []), ...(jsx ? ['jsx'] : [])],
    }).program;
  } catch (error) {
    const { message, loc } = error as { message?: string; loc?: { line: number; column: number } };
    result.syntaxError = {
      message: String(message ?? error).replace(/\s*\(\d+:\d+\)$/, ''),
      line: loc?.line ?? 1,
      column: (loc?.column ?? 0) + 1,
    };
    return result;
  }
  walk(program, (node) => visit(node, result));
  return result;
}

function visit(node: BabelNode, result: ParsedModule): void {
  const at = position(node);
  switch (node.type) {
    case 'ImportDeclaration':
      moduleSyntax(result, at, '`import`');
      if (node.importKind !== 'type') addImport(result, node.source, at, 'import');
      break;
    case 'ExportNamedDeclaration':
    case 'ExportDefaultDeclaration':
    case 'ExportAllDeclaration':
      if (node.exportKind !== 'type' || node.type === 'ExportDefaultDeclaration')
        moduleSyntax(result, at, '`export`');
      if (node.exportKind !== 'type') addImport(result, node.source, at, 'import');
      break;
    case 'MetaProperty':
      if ((node.meta as BabelNode | undefined)?.name === 'import') moduleSyntax(result, at, '`import.meta`');
      break;
    case 'CallExpression': {
      const callee = node.callee as BabelNode;
      const args = node.arguments as BabelNode[];
      const isRequire = callee.type === 'Identifier' && callee.name === 'require';
      if ((isRequire || callee.type === 'Import') && args.length >= 1)
        addImport(result, args[0], at, isRequire ? 'require' : 'import');
      break;
    }
    case 'ImportExpression':
      addImport(result, node.source, at, 'import');
      break;
    case 'TSImportEqualsDeclaration': {
      const reference = node.moduleReference as BabelNode;
      if (reference.type === 'TSExternalModuleReference')
        addImport(result, reference.expression, at, 'require');
      if (node.importKind !== 'type') result.needsCompiling.push({ ...at, what: '`import x = require()`' });
      break;
    }
    case 'TSEnumDeclaration':
      if (!node.declare) result.needsCompiling.push({ ...at, what: 'an enum' });
      break;
    case 'TSModuleDeclaration':
      if (!node.declare && (node.body as BabelNode | undefined)?.type === 'TSModuleBlock')
        result.needsCompiling.push({ ...at, what: 'a namespace' });
      break;
    case 'TSParameterProperty':
      result.needsCompiling.push({ ...at, what: 'a parameter property (`constructor(private x)`)' });
      break;
    case 'TSExportAssignment':
      moduleSyntax(result, at, '`export =`');
      break;
  }
}

function moduleSyntax(result: ParsedModule, at: Position, what: string): void {
  result.moduleSyntax ??= { ...at, what };
}

function addImport(result: ParsedModule, source: unknown, at: Position, kind: ImportSite['kind']): void {
  const node = source as BabelNode | null | undefined;
  if (node?.type === 'StringLiteral' && typeof node.value === 'string') {
    result.imports.push({ specifier: node.value, kind, ...position(node, at) });
  }
}

function position(node: BabelNode, fallback: Position = { line: 1, column: 1 }): Position {
  const start = node.loc?.start;
  return start ? { line: start.line, column: start.column + 1 } : fallback;
}

/** Every node below `root`, depth first. Positions and comments are skipped: they hold no nodes. */
function walk(root: BabelNode, fn: (node: BabelNode) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
      continue;
    }
    if (value === null || typeof value !== 'object' || typeof (value as BabelNode).type !== 'string')
      continue;
    const node = value as BabelNode;
    fn(node);
    for (const key in node) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments')
        continue;
      const child = node[key];
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
}
