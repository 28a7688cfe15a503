/**
 * The parse the command reads an app with, and the few questions it asks of a syntax tree: which names an
 * expression uses from outside itself, and where a statement's lines start and end.
 */
import { parse } from '@babel/parser';
import type { File, Node } from '@babel/types';

export type { Node };

export function parseModule(file: string, source: string): File {
  const typescript = /\.[cm]?tsx?$/.test(file);
  return parse(source, {
    sourceType: /\.m[jt]s$/.test(file) ? 'module' : /\.c[jt]s$/.test(file) ? 'script' : 'unambiguous',
    allowReturnOutsideFunction: true,
    allowAwaitOutsideFunction: true,
    plugins: typescript ? ['typescript', 'decorators-legacy'] : file.endsWith('x') ? ['jsx'] : [],
  });
}

/** Whether the parsed module is an ES module (it has `import` or `export`). */
export function isEsModule(ast: File): boolean {
  return ast.program.body.some((statement) => /^(Import|Export)/.test(statement.type));
}

/** Every node under `root` (itself included), in source order, with its parent. */
export function visit(root: Node, fn: (node: Node, parent: Node | undefined) => void): void {
  const step = (node: Node, parent: Node | undefined) => {
    fn(node, parent);
    for (const key of Object.keys(node)) {
      if (key === 'loc' || key.endsWith('Comments') || key === 'extra') continue;
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) step(item, node);
      } else if (isNode(value)) step(value, node);
    }
  };
  step(root, undefined);
}

function isNode(value: unknown): value is Node {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

/**
 * The names `node` reads from the scope around it. Names it declares anywhere inside (parameters,
 * variables, functions, classes, catch clauses) count as its own, even where they would be shadowed: a near
 * answer, and one that errs towards carrying a name along.
 */
export function freeNames(node: Node): Set<string> {
  const declared = new Set<string>();
  const used = new Set<string>();
  visit(node, (current, parent) => {
    for (const pattern of declaredPatterns(current)) bindingNames(pattern, declared);
    if (current.type === 'Identifier' && (parent === undefined || isReference(current, parent))) {
      used.add(current.name);
    }
  });
  for (const name of declared) used.delete(name);
  return used;
}

function declaredPatterns(node: Node): Node[] {
  switch (node.type) {
    case 'VariableDeclarator':
      return [node.id];
    case 'FunctionDeclaration':
    case 'FunctionExpression':
    case 'ClassDeclaration':
    case 'ClassExpression':
      return [...(node.id ? [node.id] : []), ...('params' in node ? node.params : [])];
    case 'ArrowFunctionExpression':
      return node.params;
    case 'CatchClause':
      return node.param ? [node.param] : [];
    default:
      return [];
  }
}

/** The names a declaration's pattern binds: `a`, `{ a, b: c }`, `[d, ...e]`, `f = 1`. */
export function bindingNames(pattern: Node, into: Set<string>): Set<string> {
  switch (pattern.type) {
    case 'Identifier':
      into.add(pattern.name);
      break;
    case 'ObjectPattern':
      for (const property of pattern.properties) {
        bindingNames(property.type === 'RestElement' ? property.argument : (property.value as Node), into);
      }
      break;
    case 'ArrayPattern':
      for (const element of pattern.elements) if (element) bindingNames(element, into);
      break;
    case 'RestElement':
      bindingNames(pattern.argument, into);
      break;
    case 'AssignmentPattern':
      bindingNames(pattern.left, into);
      break;
    case 'TSParameterProperty':
      bindingNames(pattern.parameter, into);
      break;
  }
  return into;
}

/** Whether an identifier reads a binding, not a property name, a key or a label. */
export function isReference(id: Node, parent: Node): boolean {
  switch (parent.type) {
    case 'MemberExpression':
    case 'OptionalMemberExpression':
      return parent.object === id || parent.computed;
    case 'ObjectProperty':
      return parent.value === id || parent.computed;
    case 'ObjectMethod':
    case 'ClassMethod':
    case 'ClassProperty':
      return parent.computed && parent.key === id;
    case 'LabeledStatement':
    case 'BreakStatement':
    case 'ContinueStatement':
      return false;
    case 'TSTypeReference':
    case 'TSQualifiedName':
    case 'TSPropertySignature':
    case 'TSTypeAnnotation':
      return false;
    default:
      return true;
  }
}

/** The range to remove for a statement: its whole lines when nothing else shares them, and the line break. */
export function statementLines(source: string, start: number, end: number): [number, number] {
  let from = start;
  while (from > 0 && (source[from - 1] === ' ' || source[from - 1] === '\t')) from--;
  let to = end;
  while (to < source.length && (source[to] === ' ' || source[to] === '\t')) to++;
  const ownLines = (from === 0 || source[from - 1] === '\n') && (to === source.length || source[to] === '\n');
  if (!ownLines) return [start, end];
  return [from, to < source.length ? to + 1 : to];
}

/**
 * Where the comment lines right above a statement start (no blank line between, each comment on lines of its
 * own), or the statement's own start: what its author wrote about it, which goes where it goes.
 */
export function attachedComment(source: string, statement: Node): number {
  let start = statement.start!;
  for (const comment of [...(statement.leadingComments ?? [])].reverse()) {
    const [from, to] = [comment.start!, comment.end!];
    const lineStart = source.lastIndexOf('\n', from - 1) + 1;
    if (!/^[ \t]*\n?[ \t]*$/.test(source.slice(to, start)) || !/^[ \t]*$/.test(source.slice(lineStart, from)))
      break;
    start = from;
  }
  return start;
}

/** The comment lines from `start` up to the statement at `end`, as they would read at the start of a line. */
export function commentText(source: string, start: number, end: number): string {
  return dedent(source.slice(start, end).trimEnd(), lineIndent(source, start));
}

/** The indentation of the line `offset` is on. */
export function lineIndent(source: string, offset: number): number {
  const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(source.slice(lineStart))![0].length;
}

/** `text` with `by` columns of indentation taken off each line but the first. */
export function dedent(text: string, by: number): string {
  if (by === 0) return text;
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? line : line.slice(Math.min(by, /^[ \t]*/.exec(line)![0].length))))
    .join('\n');
}

/** `require('x')`, with one literal specifier. */
export function isRequire(
  node: Node,
): node is Node & { arguments: [{ type: 'StringLiteral'; value: string }] } {
  return (
    node.type === 'CallExpression' &&
    node.callee.type === 'Identifier' &&
    node.callee.name === 'require' &&
    node.arguments.length === 1 &&
    node.arguments[0]!.type === 'StringLiteral'
  );
}
