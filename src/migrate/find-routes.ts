/**
 * Static route discovery: from the app's entry file, the routes Express would serve, in the order its
 * router tries them. It follows `express()` apps and `express.Router()` routers, `app.use('/prefix',
 * router)` across files (CommonJS `require` and ES `import`), `router.route(path).get(…)`, and the middleware
 * each route runs behind: the route's own, and what `router.use()` put in front of it. Nothing is run.
 * What it cannot follow statically is listed with the reason, and the routes after it in the same router stay
 * with it, so that Express's order holds.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { overlaps, parseExpressPath, precedes, type PathSegment } from './express-path';
import {
  attachedComment,
  commentText,
  isEsModule,
  isRequire,
  parseModule,
  statementLines,
  visit,
  type Node,
} from './syntax';

/** One method of one route, found. */
export interface FoundRoute {
  /** GET, POST…, or ANY for `all()`. */
  method: string;
  /** The whole path as Express matches it, mount prefixes included: `/api/users/:id`. */
  path: string;
  /** The folders it becomes: more than one for an optional part. */
  variants: PathSegment[][];
  /** The param Express 4's `*` is read by (`req.params[0]`), if the path has one. */
  wildcard?: string;
  /**
   * Its router is mounted under a path with params and does not merge them (`Router({ mergeParams: true })`):
   * Express's `req.params` lacks them, where the tree's params hold them.
   */
  hidesMountParams?: boolean;
  /** Left where it is, and listed in `left` with the reason; kept here for the routes after it. */
  stays?: boolean;
  /** A param of its path that its router's `param()` callback loads (`app.param('user', …)`). */
  paramCallback?: string;
  file: string;
  line: number;
  /** The handler: the route's last function. */
  handler: Node;
  /** What runs in front of it and moves with it: `router.use()`s before it, then the route's own. */
  middleware: Middleware[];
  /** The statement to delete once it moved, and every route it declares (a route() chain is one statement). */
  statement: Statement;
}

/** A middleware expression, and the file it is written in (an outer router's may be another's). */
export interface Middleware {
  node: Node;
  file: string;
}

export interface Statement {
  file: string;
  /** Its lines, and the comment lines right above it, which go with it. */
  range: [number, number];
  /** Those comment lines, as written (their indentation taken off), or ''. */
  comment: string;
  routes: FoundRoute[];
}

/** A route, or a mount, the command leaves where it is. */
export interface LeftRoute {
  what: string;
  file: string;
  line: number;
  reason: string;
}

/** A parsed file of the app. */
export interface AppFile {
  file: string;
  source: string;
  ast: ReturnType<typeof parseModule>;
  esModule: boolean;
  /** Top-level names: what each is bound to. */
  bindings: Map<string, Binding>;
}

export type Binding =
  | { kind: 'import'; specifier: string; imported: string; statement: Node }
  | { kind: 'express' }
  | { kind: 'router-factory' }
  | { kind: 'app' | 'router'; node: Node }
  | { kind: 'local'; declaration: Node; mutable: boolean };

export interface Discovery {
  entry: string;
  /** The file that makes the app: the entry, or the module it imports that calls `express()`. */
  appFile: string;
  routes: FoundRoute[];
  left: LeftRoute[];
  files: Map<string, AppFile>;
  /** The app-level middleware in front of every route (body parsers among them), in order. */
  front: { node: Node; file: string }[];
  /** Where the tree's mount goes: before the first route or router of the app, in the entry file. */
  mountBefore?: { file: string; offset: number; app: string };
  /** Whether the entry already mounts a tree. */
  mounted: boolean;
}

// A first argument of use() that is a path, not middleware: a literal, or text computed from values.
const PATH_LIKE = new Set([
  'StringLiteral',
  'TemplateLiteral',
  'ArrayExpression',
  'RegExpLiteral',
  'BinaryExpression',
]);

const METHODS: Record<string, string> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  options: 'OPTIONS',
  head: 'HEAD',
  all: 'ANY',
};

interface Scope {
  prefix: PathSegment[][];
  /** The prefix as written, for messages. */
  prefixText: string;
  middleware: Middleware[];
  /** Set once a route of this router or an outer one could not be read: what follows stays. */
  blockedBy?: string;
  /** The router does not see the params of the path it is mounted under. */
  hidesMountParams?: boolean;
}

export function findRoutes(entry: string, major: number): Discovery {
  const files = new Map<string, AppFile>();
  const routes: FoundRoute[] = [];
  const left: LeftRoute[] = [];
  const front: Discovery['front'] = [];
  const found: Discovery = { entry, appFile: entry, routes, left, files, front, mounted: false };
  const open = (file: string): AppFile => {
    let appFile = files.get(file);
    if (!appFile) {
      const source = readFileSync(file, 'utf8');
      const ast = parseModule(file, source);
      appFile = { file, source, ast, esModule: isEsModule(ast), bindings: topLevelBindings(ast) };
      files.set(file, appFile);
    }
    return appFile;
  };
  const lineOf = (appFile: AppFile, node: Node) => node.loc?.start.line ?? 1;
  const leave = (appFile: AppFile, node: Node, what: string, reason: string) =>
    left.push({ what, file: appFile.file, line: lineOf(appFile, node), reason });

  const main = appFileFrom(entry, open);
  found.appFile = main.file;
  found.mounted = /\bmountEndpoints\s*\(/.test(main.source);
  for (const [name, binding] of main.bindings) {
    if (binding.kind !== 'app') continue;
    const scope: Scope = { prefix: [[]], prefixText: '', middleware: [] };
    walkRouter(main, name, scope, true);
  }
  return found;

  /** Walks a router's calls in order; returns what blocked the routes after it, which blocks those after it too. */
  function walkRouter(appFile: AppFile, name: string, outer: Scope, isApp: boolean): string | undefined {
    const scope: Scope = { ...outer, middleware: [...outer.middleware] };
    // `use(path, middleware)`: middleware for the routes under a path of this router.
    const scoped: { prefix: PathSegment[]; middleware: Middleware }[] = [];
    let seenRoute = false;
    // `router.param(name, fn)`: its own routes' params only, from where it is declared on.
    const paramCallbacks = new Set<string>();
    for (const call of callsOn(appFile.ast, name)) {
      const { method, args, statement, chain } = call;
      if (method === 'param') {
        const [names] = args;
        const listed = names?.type === 'ArrayExpression' ? names.elements : [names];
        for (const item of listed) paramCallbacks.add((item && literalText(item as Node)) ?? '*');
        continue;
      }
      if (method === 'use') {
        const [first, ...rest] = args;
        let items = args;
        let prefix: PathSegment[][] = [[]];
        let prefixText = '';
        if (first && PATH_LIKE.has(first.type)) {
          const text = literalText(first);
          if (text === undefined) {
            const what = `${isApp ? 'app' : name}.use(${snippet(appFile, first)}, …)`;
            leave(
              appFile,
              first,
              what,
              'its path is not a string the command can read without running the app',
            );
            scope.blockedBy ??= `${what} at ${rel(appFile.file)}:${lineOf(appFile, first)}`;
            continue;
          }
          const parsed = parseExpressPath(text, major);
          if ('reason' in parsed) {
            leave(appFile, first, `${isApp ? 'app' : name}.use('${text}', …)`, parsed.reason);
            scope.blockedBy ??= `${name}.use('${text}') at ${rel(appFile.file)}:${lineOf(appFile, first)}`;
            continue;
          }
          prefix = parsed.variants;
          prefixText = text === '/' ? '' : text.replace(/\/$/, '');
          items = rest;
        }
        const before: Middleware[] = [];
        for (const item of items) {
          const written = { node: item, file: appFile.file };
          const target = resolveRouter(appFile, item);
          if (target) {
            if (isApp && !seenRoute) markMount(appFile, statement, name);
            seenRoute = true;
            const innerPrefix = scope.prefix.flatMap((p) => prefix.map((q) => [...p, ...q]));
            const inner: Scope = {
              prefix: innerPrefix,
              prefixText: scope.prefixText + prefixText,
              middleware: [...scope.middleware, ...before],
              ...(scope.blockedBy ? { blockedBy: scope.blockedBy } : {}),
              ...(innerPrefix.some((p) => p.some((segment) => segment.kind !== 'static')) &&
              !mergesParams(target.file, target.name)
                ? { hidesMountParams: true }
                : {}),
            };
            // Express tries the routes after the router only after every route in it.
            scope.blockedBy ??= walkRouter(target.file, target.name, inner, false);
          } else if (prefixText === '' && prefix.length === 1 && prefix[0]!.length === 0) {
            if (isApp && !seenRoute) front.push({ node: item, file: appFile.file });
            else scope.middleware.push(written);
          } else {
            // Middleware for a path: it runs for the routes under it, declared after it.
            for (const p of prefix) scoped.push({ prefix: p, middleware: written });
            before.push(written);
          }
        }
        continue;
      }
      if (isApp && !seenRoute && statement) markMount(appFile, statement, name);
      seenRoute = true;
      readRoute(appFile, name, scope, scoped, method, args, statement, chain, paramCallbacks);
    }
    return scope.blockedBy;
  }

  function markMount(appFile: AppFile, statement: Node | undefined, app: string): void {
    if (found.mountBefore || !statement || appFile !== main) return;
    found.mountBefore = {
      file: appFile.file,
      offset: statementLines(appFile.source, statement.start!, statement.end!)[0],
      app,
    };
  }

  function readRoute(
    appFile: AppFile,
    routerName: string,
    scope: Scope,
    scoped: readonly { prefix: PathSegment[]; middleware: Middleware }[],
    method: string,
    args: Node[],
    statement: Node | undefined,
    chain: { method: string; args: Node[] }[],
    paramCallbacks: ReadonlySet<string>,
  ): void {
    // `route(path).get(h).post(h)`, or `get(path, …h)`.
    const [pathNode, ...rest] = args;
    const entries = method === 'route' ? chain : [{ method, args: rest }];
    const display = `${routerName}.${method}(${pathNode ? snippet(appFile, pathNode) : ''}, …)`;
    const text = pathNode ? literalText(pathNode) : undefined;
    const line = pathNode ? lineOf(appFile, pathNode) : 1;
    const fail = (reason: string, blocks: boolean) => {
      left.push({ what: display, file: appFile.file, line, reason });
      if (blocks) scope.blockedBy ??= `${display} at ${rel(appFile.file)}:${line}`;
    };
    if (text === undefined)
      return fail('its path is not a string the command can read without running the app', true);
    const fullPath = `${scope.prefixText}${text === '/' && scope.prefixText !== '' ? '' : text}` || '/';
    const parsed = parseExpressPath(text, major);
    if ('reason' in parsed) return fail(parsed.reason, true);
    if (scope.blockedBy)
      return fail(
        `it comes after ${scope.blockedBy}, which the command cannot move, and Express tries that first`,
        false,
      );
    if (!statement)
      return fail('it is not a statement of its own (chained or nested in an expression)', true);
    if (chain.length === 0 && method === 'route') return fail('route() declares no method here', false);
    const variants = scope.prefix.flatMap((p) => parsed.variants.map((v) => [...p, ...v]));
    const commentStart = attachedComment(appFile.source, statement);
    const own: Statement = {
      file: appFile.file,
      range: statementLines(appFile.source, commentStart, statement.end!),
      comment: commentText(appFile.source, commentStart, statement.start!),
      routes: [],
    };
    const declared: FoundRoute[] = [];
    for (const entry of entries) {
      const verb = METHODS[entry.method];
      if (!verb) return fail(`${entry.method}() is not a method the command moves`, true);
      if (entry.args.length === 0 || entry.args.some((a) => a.type === 'SpreadElement')) {
        return fail('its handlers are spread or missing: the command cannot tell them apart', true);
      }
      const handler = entry.args[entry.args.length - 1]!;
      const middleware = [
        ...scope.middleware,
        ...scoped.filter((s) => variants.every((v) => startsWith(v, s.prefix))).map((s) => s.middleware),
        ...entry.args.slice(0, -1).map((node) => ({ node, file: appFile.file })),
      ];
      declared.push({
        method: verb,
        path: fullPath,
        variants,
        ...(parsed.wildcard !== undefined ? { wildcard: parsed.wildcard } : {}),
        ...(scope.hidesMountParams ? { hidesMountParams: true } : {}),
        ...paramCallbackOf(parsed.variants, paramCallbacks),
        file: appFile.file,
        line,
        handler,
        middleware,
        statement: own,
      });
    }
    // Express takes the first route that matches; the tree takes the most specific. Where an earlier route
    // matches some path of this one, for the same method, moving it would change which one answers, unless the
    // tree takes the earlier one there too (and it moves as well: see comesFirst).
    for (const route of declared) {
      const earlier = routes.find(
        (other) =>
          comesFirst(other, route) &&
          !other.variants.every((a) => route.variants.every((b) => !overlaps(a, b) || precedes(a, b))),
      );
      if (earlier) {
        fail(
          `${earlier.method} ${earlier.path} (${rel(earlier.file)}:${earlier.line}) comes first in Express and matches some of its paths: the tree would pick by precedence instead`,
          false,
        );
        // Still in Express's order, where it answers before the routes after it (see plan.ts).
        for (const stays of declared) stays.stays = true;
        own.routes.push(...declared);
        routes.push(...declared);
        return;
      }
    }
    own.routes.push(...declared);
    routes.push(...declared);
  }

  /** A router another file exports, or this file makes: where it lives and its name there. */
  function resolveRouter(appFile: AppFile, node: Node): { file: AppFile; name: string } | undefined {
    if (node.type === 'Identifier') {
      const binding = appFile.bindings.get(node.name);
      if (binding?.kind === 'router') return { file: appFile, name: node.name };
      if (binding?.kind === 'import') return exportedRouter(appFile, binding.specifier, binding.imported);
      return undefined;
    }
    if (node.type === 'CallExpression' && isRequire(node)) {
      return exportedRouter(appFile, (node.arguments[0] as { value: string }).value, 'default');
    }
    if (
      node.type === 'MemberExpression' &&
      node.object.type === 'CallExpression' &&
      isRequire(node.object) &&
      node.property.type === 'Identifier' &&
      !node.computed
    ) {
      return exportedRouter(
        appFile,
        (node.object.arguments[0] as { value: string }).value,
        node.property.name,
      );
    }
    return undefined;
  }

  function exportedRouter(
    from: AppFile,
    specifier: string,
    imported: string,
  ): { file: AppFile; name: string } | undefined {
    const file = resolveSpecifier(from.file, specifier);
    if (!file) return undefined;
    let target: AppFile;
    try {
      target = open(file);
    } catch {
      return undefined;
    }
    const name = exportedName(target, imported);
    if (name === undefined) return undefined;
    const binding = target.bindings.get(name);
    if (binding?.kind === 'router') return { file: target, name };
    if (binding?.kind === 'import') return exportedRouter(target, binding.specifier, binding.imported);
    return undefined;
  }
}

/** `module.exports = router`, `export default router`, `exports.name = router`, `export { router as name }`. */
function exportedName(appFile: AppFile, imported: string): string | undefined {
  for (const statement of appFile.ast.program.body) {
    if (statement.type === 'ExportDefaultDeclaration' && imported === 'default') {
      if (statement.declaration.type === 'Identifier') return statement.declaration.name;
    }
    if (statement.type === 'ExportNamedDeclaration') {
      for (const specifier of statement.specifiers) {
        if (specifier.type !== 'ExportSpecifier') continue;
        const exported =
          specifier.exported.type === 'Identifier' ? specifier.exported.name : specifier.exported.value;
        if (exported === imported) return specifier.local.name;
      }
      const declaration = statement.declaration;
      if (declaration?.type === 'VariableDeclaration') {
        for (const d of declaration.declarations)
          if (d.id.type === 'Identifier' && d.id.name === imported) return imported;
      }
    }
    if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'AssignmentExpression')
      continue;
    const { left, right } = statement.expression;
    const target = memberPath(left);
    if (target === 'module.exports' && imported === 'default') {
      if (right.type === 'Identifier') return right.name;
    }
    if (target === 'module.exports' && right.type === 'ObjectExpression') {
      for (const property of right.properties) {
        if (property.type !== 'ObjectProperty' || property.key.type !== 'Identifier') continue;
        if (property.key.name === imported && property.value.type === 'Identifier')
          return property.value.name;
      }
    }
    if (
      (target === `module.exports.${imported}` || target === `exports.${imported}`) &&
      right.type === 'Identifier'
    ) {
      return right.name;
    }
  }
  return undefined;
}

/** `a.b.c` for a member chain of plain names. */
function memberPath(node: Node): string | undefined {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') {
    const object = memberPath(node.object);
    return object === undefined ? undefined : `${object}.${node.property.name}`;
  }
  return undefined;
}

/** What each top-level name of a module is bound to: an import, express, an app, a router, a declaration. */
function topLevelBindings(ast: ReturnType<typeof parseModule>): Map<string, Binding> {
  const bindings = new Map<string, Binding>();
  // A `var` or `let` no code assigns again holds its first value, as a `const` does.
  const reassigned = new Set<string>();
  visit(ast.program, (node) => {
    const target =
      node.type === 'AssignmentExpression'
        ? node.left
        : node.type === 'UpdateExpression'
          ? node.argument
          : undefined;
    if (target?.type === 'Identifier') reassigned.add(target.name);
  });
  // Values changed in place (`items.push(x)`, `cache[key] = v`, `Object.assign(settings, …)`): a copy in an
  // endpoint file would be a second one, which the changes made to the first do not reach.
  const changedInPlace = new Set<string>();
  visit(ast.program, (node) => {
    const root = changedInPlaceName(node);
    if (root !== undefined) changedInPlace.add(root);
  });
  const add = (name: string, binding: Binding) => bindings.set(name, binding);
  const imports = (statement: Node, specifier: string, name: string, imported: string) => {
    if (specifier === 'express' && imported === 'default') add(name, { kind: 'express' });
    else if (specifier === 'express' && imported === 'Router') add(name, { kind: 'router-factory' });
    else add(name, { kind: 'import', specifier, imported, statement });
  };
  for (const statement of ast.program.body) {
    if (statement.type === 'ImportDeclaration') {
      if (statement.importKind === 'type') continue;
      for (const specifier of statement.specifiers) {
        const imported =
          specifier.type === 'ImportSpecifier'
            ? specifier.imported.type === 'Identifier'
              ? specifier.imported.name
              : specifier.imported.value
            : specifier.type === 'ImportDefaultSpecifier'
              ? 'default'
              : '*';
        imports(statement, statement.source.value, specifier.local.name, imported);
      }
      continue;
    }
    const declaration =
      statement.type === 'ExportNamedDeclaration' && statement.declaration
        ? statement.declaration
        : statement;
    if (declaration.type === 'FunctionDeclaration' && declaration.id) {
      add(declaration.id.name, { kind: 'local', declaration: statement, mutable: false });
      continue;
    }
    if (declaration.type !== 'VariableDeclaration') continue;
    for (const d of declaration.declarations) {
      const init = d.init ? initialValue(d.init) : undefined;
      const required = init && requireOf(init);
      if (required && d.id.type === 'Identifier') {
        imports(statement, required.specifier, d.id.name, required.property ?? 'default');
      } else if (required && d.id.type === 'ObjectPattern' && !required.property) {
        for (const property of d.id.properties) {
          if (
            property.type !== 'ObjectProperty' ||
            property.key.type !== 'Identifier' ||
            property.value.type !== 'Identifier'
          )
            continue;
          imports(statement, required.specifier, property.value.name, property.key.name);
        }
      } else if (
        d.id.type === 'Identifier' &&
        init &&
        init.type === 'CallExpression' &&
        makes(init, bindings) !== undefined
      ) {
        add(d.id.name, { kind: makes(init, bindings)!, node: d });
      } else if (d.id.type === 'Identifier') {
        add(d.id.name, {
          kind: 'local',
          declaration: statement,
          mutable:
            (declaration.kind !== 'const' && reassigned.has(d.id.name)) || changedInPlace.has(d.id.name),
        });
      }
    }
  }
  // An app or a router made inside a function (`function createApp() { const app = express(); … }`).
  visit(ast.program, (node) => {
    if (node.type !== 'VariableDeclarator' || node.id.type !== 'Identifier' || bindings.has(node.id.name))
      return;
    const init = node.init ? initialValue(node.init) : undefined;
    const kind = init?.type === 'CallExpression' ? makes(init, bindings) : undefined;
    if (kind) add(node.id.name, { kind, node });
  });
  return bindings;
}

/** Methods of arrays, Maps and Sets that change the value they are called on. */
const CHANGES_IN_PLACE = new Set([
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
  'set',
  'add',
  'delete',
  'clear',
]);

/** `Object.assign` and `Object.defineProperty`, which change their first argument. */
function isObjectAssign(callee: Node & { type: 'MemberExpression' }): boolean {
  return (
    callee.object.type === 'Identifier' &&
    callee.object.name === 'Object' &&
    callee.property.type === 'Identifier' &&
    /^(assign|defineProperty|defineProperties|setPrototypeOf)$/.test(callee.property.name)
  );
}

/** The name whose value `node` changes in place, if it does: `items` of `items.push(x)` or `items[0].done = true`. */
function changedInPlaceName(node: Node): string | undefined {
  if (node.type === 'AssignmentExpression' || node.type === 'UpdateExpression') {
    const target = node.type === 'AssignmentExpression' ? node.left : node.argument;
    return target.type === 'MemberExpression' ? rootName(target) : undefined;
  }
  if (node.type === 'UnaryExpression' && node.operator === 'delete')
    return node.argument.type === 'MemberExpression' ? rootName(node.argument) : undefined;
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return undefined;
  const { callee } = node;
  if (isObjectAssign(callee)) return node.arguments[0] ? rootName(node.arguments[0] as Node) : undefined;
  if (!callee.computed && callee.property.type === 'Identifier' && CHANGES_IN_PLACE.has(callee.property.name))
    return rootName(callee.object as Node);
  return undefined;
}

/** The name a member chain starts from: `store` of `store.users[0].name`. */
function rootName(node: Node): string | undefined {
  let current = node;
  while (current.type === 'MemberExpression') current = current.object as Node;
  return current.type === 'Identifier' ? current.name : undefined;
}

/**
 * The value a declaration's initializer gives: through TypeScript's assertions, and through an assignment
 * written in the same breath (`var app = module.exports = express()`).
 */
function initialValue(node: Node): Node {
  if (node.type === 'AssignmentExpression' && node.operator === '=') return initialValue(node.right);
  return node.type === 'TSAsExpression' ||
    node.type === 'TSSatisfiesExpression' ||
    node.type === 'TSNonNullExpression'
    ? initialValue(node.expression)
    : node;
}

/** `require('x')` or `require('x').y`. */
function requireOf(node: Node): { specifier: string; property?: string } | undefined {
  if (isRequire(node)) return { specifier: node.arguments[0].value };
  if (
    node.type === 'MemberExpression' &&
    !node.computed &&
    node.property.type === 'Identifier' &&
    isRequire(node.object)
  ) {
    return { specifier: node.object.arguments[0].value, property: node.property.name };
  }
  return undefined;
}

/**
 * `express()` makes an app; `express.Router()` and `Router()` a router; and so do `require('express')()` and
 * `require('express').Router()`, written without a name for express.
 */
function makes(
  call: Node & { type: 'CallExpression' },
  bindings: Map<string, Binding>,
): 'app' | 'router' | undefined {
  const callee = call.callee;
  const isExpress = (node: Node) =>
    node.type === 'Identifier'
      ? bindings.get(node.name)?.kind === 'express'
      : isRequire(node) && node.arguments[0].value === 'express';
  if (isExpress(callee)) return 'app';
  if (callee.type === 'Identifier')
    return bindings.get(callee.name)?.kind === 'router-factory' ? 'router' : undefined;
  if (
    callee.type === 'MemberExpression' &&
    !callee.computed &&
    isExpress(callee.object) &&
    callee.property.type === 'Identifier' &&
    callee.property.name === 'Router'
  )
    return 'router';
  return undefined;
}

interface RouterCall {
  method: string;
  args: Node[];
  /** The statement the call is, when it is one (`router.get(…);`). */
  statement: Node | undefined;
  /** For `route(path)`: the methods chained on it. */
  chain: { method: string; args: Node[] }[];
}

/** Every `name.method(…)` call of the file, in source order; `name.route(p).get(…)` as one. */
function callsOn(ast: ReturnType<typeof parseModule>, name: string): RouterCall[] {
  const calls: RouterCall[] = [];
  const statements = new Map<Node, Node>();
  const seen = new Set<Node>();
  visit(ast.program, (node, parent) => {
    if (parent?.type === 'ExpressionStatement') statements.set(node, parent);
    if (node.type !== 'CallExpression' || seen.has(node)) return;
    const callee = node.callee;
    if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier')
      return;
    // The innermost call of a chain is the one on `name`.
    const chain: { method: string; args: Node[] }[] = [];
    let outer: Node = node;
    let inner: Node = node;
    const path: Node[] = [];
    while (
      inner.type === 'CallExpression' &&
      inner.callee.type === 'MemberExpression' &&
      !inner.callee.computed &&
      inner.callee.property.type === 'Identifier'
    ) {
      path.unshift(inner);
      if (inner.callee.object.type === 'Identifier') break;
      inner = inner.callee.object;
    }
    const first = path[0];
    if (!first || first.type !== 'CallExpression' || first.callee.type !== 'MemberExpression') return;
    if (first.callee.object.type !== 'Identifier' || first.callee.object.name !== name) return;
    for (const call of path) seen.add(call);
    const method = (first.callee.property as { name: string }).name;
    for (const call of path.slice(1)) {
      const c = call as Node & { type: 'CallExpression' };
      chain.push({
        method: (c.callee as { property: { name: string } }).property.name,
        args: c.arguments as Node[],
      });
    }
    outer = path[path.length - 1]!;
    if (method !== 'route' && chain.length > 0) {
      // `router.get(…).post(…)`: Express allows it; the command reads one route per statement.
      calls.push({ method, args: first.arguments as Node[], statement: undefined, chain: [] });
      return;
    }
    calls.push({ method, args: first.arguments as Node[], statement: statements.get(outer), chain });
  });
  return calls.filter(
    (c) =>
      METHODS[c.method] !== undefined || c.method === 'use' || c.method === 'route' || c.method === 'param',
  );
}

function paramCallbackOf(
  variants: readonly PathSegment[][],
  callbacks: ReadonlySet<string>,
): { paramCallback?: string } {
  const names = variants.flatMap((v) => v.flatMap((s) => (s.kind === 'static' ? [] : [s.value])));
  const loaded = names.find((n) => callbacks.has(n) || callbacks.has('*'));
  return loaded === undefined ? {} : { paramCallback: loaded };
}

function literalText(node: Node): string | undefined {
  if (node.type === 'StringLiteral') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0)
    return node.quasis[0]!.value.cooked ?? undefined;
  return undefined;
}

function startsWith(segments: readonly PathSegment[], prefix: readonly PathSegment[]): boolean {
  return prefix.every((s, i) => segments[i]?.kind === s.kind && segments[i]?.value === s.value);
}

/** Whether the router `name` of `appFile` is made with `Router({ mergeParams: true })`. */
function mergesParams(appFile: AppFile, name: string): boolean {
  const binding = appFile.bindings.get(name);
  if (binding?.kind !== 'router' || binding.node.type !== 'VariableDeclarator') return false;
  const init = binding.node.init;
  const options = init?.type === 'CallExpression' ? init.arguments[0] : undefined;
  return (
    options?.type === 'ObjectExpression' &&
    options.properties.some(
      (p) =>
        p.type === 'ObjectProperty' &&
        p.key.type === 'Identifier' &&
        p.key.name === 'mergeParams' &&
        p.value.type === 'BooleanLiteral' &&
        p.value.value,
    )
  );
}

/**
 * The file that makes the app: the entry, or, where the entry only starts it (`server.js` importing
 * `createApp` from `./app.js` and listening), the first file it imports, near to far, that calls `express()`.
 */
function appFileFrom(entry: string, open: (file: string) => AppFile): AppFile {
  const main = open(entry);
  const queue = [main];
  const seen = new Set([entry]);
  for (let i = 0; i < queue.length && i < 50; i++) {
    const appFile = queue[i]!;
    if ([...appFile.bindings.values()].some((binding) => binding.kind === 'app')) return appFile;
    for (const binding of appFile.bindings.values()) {
      if (binding.kind !== 'import') continue;
      const file = resolveSpecifier(appFile.file, binding.specifier);
      if (file === undefined || seen.has(file) || file.includes(`${path.sep}node_modules${path.sep}`))
        continue;
      seen.add(file);
      try {
        queue.push(open(file));
      } catch {
        // A file it cannot parse is not the app's.
      }
    }
  }
  return main;
}

/**
 * Whether `earlier`, declared before `route`, answers some of its requests in Express: the same method (or
 * `all()`), and a path both match.
 */
export function comesFirst(earlier: FoundRoute, route: FoundRoute): boolean {
  return (
    (earlier.method === route.method || earlier.method === 'ANY' || route.method === 'ANY') &&
    earlier.variants.some((a) => route.variants.some((b) => overlaps(a, b)))
  );
}

function snippet(appFile: AppFile, node: Node): string {
  const text = appFile.source.slice(node.start!, node.end!).replace(/\s+/g, ' ');
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

let root = process.cwd();
/** Paths in messages are relative to the app's folder. */
export function setMessageRoot(dir: string): void {
  root = dir;
}
export function rel(file: string): string {
  return path.relative(root, file) || file;
}

const EXTENSIONS = ['', '.js', '.ts', '.cjs', '.mjs', '.cts', '.mts', '/index.js', '/index.ts'];

/** A relative import's file, as Node (or TypeScript, for `./x.js` written for `x.ts`) finds it. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    ...EXTENSIONS.map((ext) => base + ext),
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
  ];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}
