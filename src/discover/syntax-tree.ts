/**
 * A real parse of one module, for the readers that must be exact: `check` (syntax errors with their position,
 * imports, module syntax, TypeScript that needs compiling) and export reading, when the lexers suspect a
 * handler that is not a function (see read-exports.ts).
 *
 * @babel/parser is required lazily, here only: an app whose exports the lexers settle never loads it, so
 * startup pays nothing for it. It is pure JavaScript (no platform binaries), parses TypeScript and JSX, and
 * gives exact error positions.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { isTypeScriptFile } from './source-files';

/** Where in the file, 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

/** A node of Babel's syntax tree, as far as the readers need it. */
export interface SyntaxNode {
  type: string;
  loc?: { start: { line: number; column: number } };
  [key: string]: unknown;
}

export type SyntaxTree = { program: SyntaxNode } | { syntaxError: Position & { message: string } };

interface BabelParser {
  parse(code: string, options: Record<string, unknown>): { program: SyntaxNode };
}

let parser: BabelParser | undefined;

function babel(): BabelParser {
  // createRequire keeps bundlers from inlining it, and the require lazy.
  parser ??= createRequire(__filename)('@babel/parser') as BabelParser;
  return parser;
}

/**
 * What the extension says a file is; any other is a module if it has `import` or `export`, as Node
 * decides. A `.cts` file is not in this table: its `import` and `export` compile to CommonJS.
 */
const SOURCE_TYPES: Record<string, string> = { '.mjs': 'module', '.mts': 'module', '.cjs': 'script' };

/** The module's syntax tree, or its first syntax error. */
export function parseSyntaxTree(file: string, source: string): SyntaxTree {
  const ext = path.extname(file);
  const plugins = [
    // tsx runs TypeScript's decorators (experimentalDecorators and the standard ones) as esbuild does.
    ...(isTypeScriptFile(file) ? ['typescript', 'decorators-legacy'] : []),
    ...(ext === '.tsx' || ext === '.jsx' ? ['jsx'] : []),
  ];
  try {
    return {
      program: babel().parse(source, {
        // A CommonJS file is sloppy-mode script (`0755`, `with`): parsed as a module it would fail.
        sourceType: SOURCE_TYPES[ext] ?? 'unambiguous',
        // CommonJS allows a top-level `return`; `await` at top level is decided by Node, not here.
        allowReturnOutsideFunction: true,
        allowAwaitOutsideFunction: true,
        errorRecovery: false,
        plugins,
      }).program,
    };
  } catch (error) {
    const { message, loc } = error as { message?: string; loc?: { line: number; column: number } };
    return {
      syntaxError: {
        message: String(message ?? error).replace(/\s*\(\d+:\d+\)$/, ''),
        line: loc?.line ?? 1,
        column: (loc?.column ?? 0) + 1,
      },
    };
  }
}

export function positionOf(node: SyntaxNode, fallback: Position = { line: 1, column: 1 }): Position {
  const start = node.loc?.start;
  return start ? { line: start.line, column: start.column + 1 } : fallback;
}

/** Every node below `root`, depth first. Positions and comments are skipped: they hold no nodes. */
export function walk(root: SyntaxNode, fn: (node: SyntaxNode) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
      continue;
    }
    if (value === null || typeof value !== 'object' || typeof (value as SyntaxNode).type !== 'string')
      continue;
    const node = value as SyntaxNode;
    fn(node);
    for (const key in node) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments')
        continue;
      const child = node[key];
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
}
