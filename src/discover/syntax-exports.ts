/**
 * What a module exports, read from its syntax tree (syntax-tree.ts): exact where the lexers can only be
 * cautious. It sees every member of an object assigned to `module.exports` (the CommonJS lexer stops at the
 * first it cannot read) and tells an export that is a literal (`export const GET = 42`, `export default {}`),
 * which is certainly not a function. `check` reads every module this way; startup, only a module whose lexed
 * exports look like such a literal.
 */
import { parseSyntaxTree, walk, type SyntaxNode } from './syntax-tree';
import { readSource } from './source-files';
import type { ExportInfo } from './types';

/** The file's exports read from its syntax tree; undefined when it cannot be read or parsed. */
export function readExportsExactly(file: string): ExportInfo | undefined {
  let source: string;
  try {
    source = readSource(file);
  } catch {
    return undefined;
  }
  return exportsOfSource(file, source);
}

/** The same for source already read; undefined when it does not parse. */
export function exportsOfSource(file: string, source: string): ExportInfo | undefined {
  const tree = parseSyntaxTree(file, source);
  return 'program' in tree ? exportsOfSyntaxTree(tree.program) : undefined;
}

interface Found {
  names: Set<string>;
  nonFunctions: string[];
  incomplete: boolean;
}

/** ES module exports when the module declares any; else what it assigns to `exports` and `module.exports`. */
export function exportsOfSyntaxTree(program: SyntaxNode): ExportInfo {
  const esm: Found = { names: new Set(), nonFunctions: [], incomplete: false };
  let isEsm = false;
  for (const statement of program.body as SyntaxNode[]) isEsm = moduleExport(statement, esm) || isEsm;
  const cjs: Found = { names: new Set(), nonFunctions: [], incomplete: false };
  if (!isEsm) walk(program, (node) => commonJsExport(node, cjs));
  const found = isEsm ? esm : cjs;
  found.names.delete('__esModule');
  return { names: [...found.names], namesIncomplete: found.incomplete, nonFunctions: found.nonFunctions };
}

/** Adds what an `export` statement exports at run time; true for one that is not types only. */
function moduleExport(node: SyntaxNode, found: Found): boolean {
  if (node.exportKind === 'type') return false;
  switch (node.type) {
    case 'ExportNamedDeclaration': {
      const declaration = node.declaration as SyntaxNode | null;
      if (declaration) declared(declaration, found);
      for (const specifier of node.specifiers as SyntaxNode[]) {
        if (specifier.exportKind !== 'type') found.names.add(keyName(specifier.exported as SyntaxNode)!);
      }
      return true;
    }
    case 'ExportDefaultDeclaration': {
      const declaration = node.declaration as SyntaxNode;
      if (declaration.type === 'TSInterfaceDeclaration' || declaration.type === 'TSDeclareFunction')
        return false;
      add(found, 'default', declaration);
      return true;
    }
    case 'ExportAllDeclaration':
      found.incomplete = true;
      return true;
  }
  return false;
}

/** The names an exported declaration binds; `declare`, interfaces and types bind none at run time. */
function declared(declaration: SyntaxNode, found: Found): void {
  if (declaration.declare) return;
  switch (declaration.type) {
    case 'VariableDeclaration':
      for (const declarator of declaration.declarations as SyntaxNode[]) {
        const id = declarator.id as SyntaxNode;
        // Only a `const` keeps its literal: a `let` or `var` may be a function by the time it is called.
        const value = declaration.kind === 'const' ? (declarator.init as SyntaxNode | null) : null;
        for (const name of bindingNames(id)) add(found, name, id.type === 'Identifier' ? value : null);
      }
      break;
    case 'FunctionDeclaration':
    case 'ClassDeclaration':
    case 'TSEnumDeclaration':
    case 'TSModuleDeclaration':
      if ((declaration.id as SyntaxNode | null)?.type === 'Identifier')
        found.names.add((declaration.id as SyntaxNode).name as string);
      break;
  }
}

/** `a`, `{ a, b: [c] }`, `[a, ...rest]`: the names a declaration's left side binds. */
function bindingNames(pattern: SyntaxNode): string[] {
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name as string];
    case 'ObjectPattern':
      return (pattern.properties as SyntaxNode[]).flatMap((p) =>
        bindingNames((p.type === 'RestElement' ? p.argument : p.value) as SyntaxNode),
      );
    case 'ArrayPattern':
      return (pattern.elements as (SyntaxNode | null)[]).flatMap((e) => (e ? bindingNames(e) : []));
    case 'RestElement':
      return bindingNames(pattern.argument as SyntaxNode);
    case 'AssignmentPattern':
      return bindingNames(pattern.left as SyntaxNode);
  }
  return [];
}

/** `exports.X = …`, `module.exports.X = …`, `module.exports = …`, TypeScript's `export = …`, anywhere. */
function commonJsExport(node: SyntaxNode, found: Found): void {
  if (node.type === 'TSExportAssignment') return assignedModule(node.expression as SyntaxNode, found);
  if (node.type === 'CallExpression') {
    const callee = node.callee as SyntaxNode;
    const [target, key] = node.arguments as SyntaxNode[];
    // What compiled TypeScript writes: `Object.defineProperty(exports, 'GET', …)`, `__exportStar(require(…))`.
    if (isMember(callee, 'Object', 'defineProperty') && target && isExportsObject(target) && key) {
      const name = keyName(key);
      if (name !== undefined) found.names.add(name);
    } else if (callee.type === 'Identifier' && (callee.name === '__exportStar' || callee.name === '__export'))
      found.incomplete = true;
    return;
  }
  if (node.type !== 'AssignmentExpression' || node.operator !== '=') return;
  const left = node.left as SyntaxNode;
  const right = node.right as SyntaxNode;
  if (isMember(left, 'module', 'exports')) return assignedModule(right, found);
  if (left.type === 'MemberExpression' && isExportsObject(left.object as SyntaxNode)) {
    const name = propertyName(left);
    if (name !== undefined) add(found, name, right);
  }
}

/** What `module.exports = value` exports: a function is the default handler, an object its members. */
function assignedModule(value: SyntaxNode, found: Found): void {
  if (value.type === 'FunctionExpression' || value.type === 'ArrowFunctionExpression') {
    found.names.add('default');
    return;
  }
  if (value.type !== 'ObjectExpression') {
    found.incomplete = true; // `require('./handlers')`, a variable, a call: known once imported
    return;
  }
  for (const member of value.properties as SyntaxNode[]) {
    const name =
      member.type === 'SpreadElement' || member.computed ? undefined : keyName(member.key as SyntaxNode);
    if (name === undefined) found.incomplete = true;
    else add(found, name, member.type === 'ObjectProperty' ? (member.value as SyntaxNode) : null);
  }
}

function add(found: Found, name: string, value: SyntaxNode | null): void {
  found.names.add(name);
  if (value && isLiteral(value) && !found.nonFunctions.includes(name)) found.nonFunctions.push(name);
}

const LITERALS = new Set([
  'NumericLiteral',
  'StringLiteral',
  'BooleanLiteral',
  'NullLiteral',
  'BigIntLiteral',
  'RegExpLiteral',
  'TemplateLiteral',
  'ObjectExpression',
  'ArrayExpression',
]);
// What changes the type, never the value: `42 as const`, `<T>42`, `x satisfies T`, `x!`.
const TYPE_ONLY = new Set([
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSTypeAssertion',
  'TSNonNullExpression',
]);

/** A value written as a literal (`42`, `-1`, `'x'`, `{ … }`, `[ … ]`), which no call can turn into a function. */
function isLiteral(node: SyntaxNode): boolean {
  let value = node;
  while (TYPE_ONLY.has(value.type)) value = value.expression as SyntaxNode;
  if (value.type === 'UnaryExpression' && (value.operator === '-' || value.operator === '+'))
    value = value.argument as SyntaxNode;
  return LITERALS.has(value.type);
}

/** `exports` or `module.exports`. */
function isExportsObject(node: SyntaxNode): boolean {
  return (node.type === 'Identifier' && node.name === 'exports') || isMember(node, 'module', 'exports');
}

/** `object.property`, written plainly. */
function isMember(node: SyntaxNode, object: string, property: string): boolean {
  if (node.type !== 'MemberExpression' || node.computed) return false;
  const [o, p] = [node.object as SyntaxNode, node.property as SyntaxNode];
  return o.type === 'Identifier' && o.name === object && p.type === 'Identifier' && p.name === property;
}

/** `x.GET` or `x['GET']`: the property's name, when it is written out. */
function propertyName(member: SyntaxNode): string | undefined {
  const property = member.property as SyntaxNode;
  if (!member.computed) return property.type === 'Identifier' ? (property.name as string) : undefined;
  return property.type === 'StringLiteral' ? (property.value as string) : undefined;
}

/** An identifier's name or a string's value: a key, an export name. */
function keyName(node: SyntaxNode): string | undefined {
  if (node.type === 'Identifier') return node.name as string;
  if (node.type === 'StringLiteral') return node.value as string;
  return undefined;
}
