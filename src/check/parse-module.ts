/**
 * What a real parse of one module tells `check`: what would stop Node (or tsx) at startup and what the lexers
 * used at run time cannot see — a syntax error with its line and column, the modules it imports, ES module
 * syntax (for files Node treats as CommonJS), the TypeScript that Node's own type stripping cannot run, and its
 * exports, exactly (literals included). The parse itself is discover's (syntax-tree.ts), shared with export
 * reading.
 *
 * Imports are scanned here from the syntax tree, and in development mode's import graph by es-module-lexer:
 * the graph reads every file under the tree when the server starts and again on each save, and needs only the
 * specifiers, which the lexer already loaded for export reading gives at a fraction of a parse's cost; `check`
 * needs each import's position and kind, and reports a file that does not parse.
 */
import {
  exportsOfSyntaxTree,
  parseSyntaxTree,
  positionOf,
  walk,
  type ExportInfo,
  type Position,
  type SyntaxNode,
} from '../discover';

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
  /** What it exports, read from the syntax tree; absent when it does not parse. */
  exports?: ExportInfo;
}

export function parseModule(file: string, source: string): ParsedModule {
  const result: ParsedModule = { imports: [], needsCompiling: [] };
  const tree = parseSyntaxTree(file, source);
  if ('syntaxError' in tree) return { ...result, syntaxError: tree.syntaxError };
  walk(tree.program, (node) => visit(node, result));
  result.exports = exportsOfSyntaxTree(tree.program);
  return result;
}

function visit(node: SyntaxNode, result: ParsedModule): void {
  const at = positionOf(node);
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
      if ((node.meta as SyntaxNode | undefined)?.name === 'import') moduleSyntax(result, at, '`import.meta`');
      break;
    case 'CallExpression': {
      const callee = node.callee as SyntaxNode;
      const args = node.arguments as SyntaxNode[];
      const isRequire = callee.type === 'Identifier' && callee.name === 'require';
      if ((isRequire || callee.type === 'Import') && args.length >= 1)
        addImport(result, args[0], at, isRequire ? 'require' : 'import');
      break;
    }
    case 'ImportExpression':
      addImport(result, node.source, at, 'import');
      break;
    case 'TSImportEqualsDeclaration': {
      const reference = node.moduleReference as SyntaxNode;
      if (reference.type === 'TSExternalModuleReference')
        addImport(result, reference.expression, at, 'require');
      if (node.importKind !== 'type') result.needsCompiling.push({ ...at, what: '`import x = require()`' });
      break;
    }
    case 'TSEnumDeclaration':
      if (!node.declare) result.needsCompiling.push({ ...at, what: 'an enum' });
      break;
    case 'TSModuleDeclaration':
      if (!node.declare && (node.body as SyntaxNode | undefined)?.type === 'TSModuleBlock')
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
  const node = source as SyntaxNode | null | undefined;
  if (node?.type === 'StringLiteral' && typeof node.value === 'string') {
    result.imports.push({ specifier: node.value, kind, ...positionOf(node, at) });
  }
}
