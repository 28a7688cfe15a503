/**
 * The migration, planned: the routes found, grouped into one endpoint file per folder, each handler rewritten
 * as a Response where the command can and moved as it is (through `expressMiddleware`) where it cannot, the
 * route middleware beside it, the moved routes' statements deleted from their routers, and the tree mounted
 * in the entry where the first router was. Nothing is written here: `writePlan` does that.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import MagicString from 'magic-string';
import { MODULE_EXTENSIONS } from '../discover';
import { folderPath, overlaps, precedes, type PathSegment } from './express-path';
import {
  comesFirst,
  findRoutes,
  rel,
  setMessageRoot,
  type AppFile,
  type Discovery,
  type Binding,
  type FoundRoute,
  type LeftRoute,
  type Middleware,
} from './find-routes';
import { keepFilePaths } from './file-paths';
import { forwardBlock, forwardOf, type Forward } from './forwards';
import { paramsType, quote, rewriteHandler, sendValueFunction, type RewriteOptions } from './rewrite-handler';
import { dedent, freeNames, lineIndent, type Node } from './syntax';

export interface MigrateOptions {
  /** The app's entry file. */
  entry: string;
  /**
   * The tree's folder. By default `app` beside the file that makes the app, so that it is inside the source
   * folder a TypeScript build compiles (`src/app` for `src/app.ts`).
   */
  dir?: string;
  /** Only the routes under this path (`/api/users`), or of this router file. */
  only?: string;
  /** Express's major version; read from the app's installed express when not given. */
  major?: number;
}

export interface MovedRoute {
  method: string;
  path: string;
  from: string;
  to: string;
  /** `rewritten`: a Response handler; `as-is`: the Express handler, run with req and res. */
  how: 'rewritten' | 'as-is';
  /** Why it moved as it was, or what it still reads of Node. */
  note?: string;
}

export interface FileChange {
  file: string;
  before: string | null;
  after: string;
}

export interface Plan {
  root: string;
  /** The tree's folder. */
  dir: string;
  major: number;
  found: number;
  moved: MovedRoute[];
  left: LeftRoute[];
  changes: FileChange[];
  notes: string[];
}

const GLOBALS = new Set(Object.getOwnPropertyNames(globalThis));
for (const name of ['require', 'module', 'exports', '__dirname', '__filename', 'undefined', 'arguments'])
  GLOBALS.add(name);

export function planMigration(options: MigrateOptions): Plan {
  const entry = path.resolve(options.entry);
  const root = appRoot(entry);
  setMessageRoot(root);
  const major = options.major ?? expressMajor(root);
  const discovery = findRoutes(entry, major);
  const dir = path.resolve(options.dir ?? path.join(path.dirname(discovery.appFile), 'app'));
  const left = [...discovery.left];
  const notes: string[] = [];
  const leftRoutes = new Set<FoundRoute>();
  const leave = (route: FoundRoute, reason: string) => {
    leftRoutes.add(route);
    left.push({
      what: `${route.method === 'ANY' ? 'all' : route.method.toLowerCase()} ${route.path}`,
      file: route.file,
      line: route.line,
      reason,
    });
  };

  let candidates = discovery.routes.filter((route) => !route.stays);
  if (options.only !== undefined) {
    const only = options.only;
    const file = path.resolve(only);
    candidates = candidates.filter((r) =>
      only.startsWith('/') && !existsSync(file)
        ? r.path === only || r.path.startsWith(`${only.replace(/\/$/, '')}/`)
        : r.file === file,
    );
  }

  // What each route needs from its files, and whether it can have it in another file.
  const needs = new Map<FoundRoute, Needs>();
  const movable = candidates.filter((route) => {
    const differs = answersDiffer(route, discovery.files.get(route.file)!);
    if (differs) {
      leave(route, differs);
      return false;
    }
    const carried: Needs = new Map();
    const written = [{ node: route.handler, file: route.file }, ...route.middleware];
    const problem = collectNeeds(written, discovery.files, carried);
    if (problem) {
      leave(route, problem);
      return false;
    }
    needs.set(route, carried);
    return true;
  });
  // The tree is mounted in front of the routers: a route some path of which an endpoint already answers
  // would be answered by it, not by the file the command writes.
  const tree = existingEndpoints(dir);
  for (const route of [...movable]) {
    const covering = tree.find((endpoint) => route.variants.some((v) => overlaps(endpoint.segments, v)));
    if (!covering) continue;
    movable.splice(movable.indexOf(route), 1);
    leave(
      route,
      `${rel(covering.file)} answers some of its paths first: the tree is in front of the routers`,
    );
  }
  // A statement moves whole (a route() chain declares several routes), or not at all.
  const moving = new Set(movable);
  for (const route of movable) {
    if (route.statement.routes.some((other) => !moving.has(other))) {
      moving.delete(route);
      leave(route, 'another method of its route() chain stays, and the chain moves whole or not at all');
    }
  }

  // Until nothing changes: a route the tree would answer in front of an earlier one that stays in Express, for
  // some of its paths, stays too (and so do the routes after it that it would have answered first); so does one
  // whose requests a more specific file would take without serving their method, and one whose folder names a
  // param otherwise than a folder already planned at its place (the tree refuses such a pair).
  for (let changed = true; changed;) {
    changed = false;
    const order = discovery.routes;
    const stay = (route: FoundRoute, reason: string) => {
      for (const other of route.statement.routes) moving.delete(other);
      leave(route, reason);
      changed = true;
    };
    const served = servedMethods([...moving]);
    const names = new Map<string, string>();
    for (const route of order) {
      if (!moving.has(route)) continue;
      const earlier = order
        .slice(0, order.indexOf(route))
        .find((other) => !moving.has(other) && comesFirst(other, route));
      if (earlier) {
        stay(
          route,
          `${earlier.method} ${earlier.path} (${rel(earlier.file)}:${earlier.line}) stays in Express and comes first there for some of its paths`,
        );
        continue;
      }
      // A folder that would take some of its requests without serving their method hands them on to it, where
      // it can (forwards.ts).
      const shadow = shadowsOf(route, served, dir).find(({ forward }) => typeof forward === 'string');
      if (shadow) {
        stay(
          route,
          `the tree would give some of its requests to ${shadow.key || 'its root'} folder, which does not serve ${route.method === 'ANY' ? 'every method' : route.method}, and not to it (${shadow.forward as string})`,
        );
        continue;
      }
      const clash = paramClash(route, names);
      if (clash) stay(route, clash);
    }
  }

  // One endpoint file per folder.
  const folders = new Map<string, { segments: PathSegment[]; routes: FoundRoute[] }>();
  for (const route of moving) {
    for (const segments of route.variants) {
      const key = folderPath(segments);
      const folder = folders.get(key) ?? { segments, routes: [] };
      folder.routes.push(route);
      folders.set(key, folder);
    }
  }
  // What each folder hands on to another, for the first route in Express order that Express gave it to.
  const forwards = new Map<string, Forward[]>();
  const forwardTargets = new Set<string>();
  const finalServed = servedMethods([...moving]);
  for (const route of discovery.routes) {
    if (!moving.has(route)) continue;
    for (const { key, forward, variant } of shadowsOf(route, finalServed, dir)) {
      const list = forwards.get(key) ?? [];
      if (typeof forward === 'string' || list.some((f) => f.method === forward.method)) continue;
      const target = folderPath(variant);
      const ext = path.extname(folders.get(target)!.routes[0]!.file) || '.js';
      list.push({ ...forward, to: path.join(dir, target, `endpoint${ext}`) });
      forwards.set(key, list);
      forwardTargets.add(target);
    }
  }
  const changes: FileChange[] = [];
  const moved: MovedRoute[] = [];
  const unmoved = new Set<FoundRoute>();
  const planned = [...folders.keys()];
  for (const [key, folder] of folders) {
    const first = folder.routes[0]!;
    const ext = path.extname(first.file) || '.js';
    const folderDir = path.join(dir, key);
    const endpointFile = path.join(folderDir, `endpoint${ext}`);
    const existing = endpointFileIn(folderDir);
    const kind = moduleKind(discovery.files.get(first.file)!);
    // Route middleware every method of the folder shares goes to its middleware file, when no endpoint lies
    // below the folder for it to wrap too.
    const chains = folder.routes.map((r) => chainKey(r));
    const below =
      planned.some((other) => other !== key && (key === '' ? true : other.startsWith(`${key}/`))) ||
      hasEndpointsBelow(folderDir);
    const middlewareExt = kind.typescript ? '.ts' : '.js';
    const middlewareFile = path.join(folderDir, `middleware${middlewareExt}`);
    // Not where a folder hands requests on, or takes them: a folder's middleware runs for every method.
    const shared =
      chains[0] !== '' &&
      chains.every((c) => c === chains[0]) &&
      !below &&
      !existsSync(middlewareFile) &&
      !forwards.has(key) &&
      !forwardTargets.has(key);
    const generated = endpointModule(
      folder.segments,
      folder.routes,
      needs,
      endpointFile,
      kind,
      major,
      shared,
      discovery.front,
      discovery.files,
      forwards.get(key) ?? [],
    );
    if (existing && readFileSync(existing, 'utf8') !== generated.text) {
      for (const route of folder.routes) unmoved.add(route);
      continue;
    }
    if (!existing) changes.push({ file: endpointFile, before: null, after: generated.text });
    if (shared)
      changes.push({
        file: middlewareFile,
        before: null,
        after: middlewareModule(first, needs.get(first)!, middlewareFile, kind, discovery.files),
      });
    for (const route of folder.routes) {
      const how = generated.how.get(route)!;
      moved.push({
        method: route.method,
        path: route.path,
        from: `${rel(route.file)}:${route.line}`,
        to: rel(endpointFile),
        ...how,
      });
    }
  }
  for (const route of unmoved) {
    leave(
      route,
      `${rel(path.join(dir, folderPath(route.variants[0]!)))} already has an endpoint file, other than the one the command would write`,
    );
  }

  // The routers, without the statements that moved.
  const removed = new Map<string, Set<string>>();
  const edits = new Map<string, MagicString>();
  for (const route of moving) {
    if (unmoved.has(route) || route.statement.routes.some((r) => unmoved.has(r))) continue;
    const key = route.statement.range.join(':');
    const done = removed.get(route.file) ?? new Set();
    if (done.has(key)) continue;
    done.add(key);
    removed.set(route.file, done);
    const edit = edits.get(route.file) ?? new MagicString(discovery.files.get(route.file)!.source);
    edit.remove(...route.statement.range);
    edits.set(route.file, edit);
  }
  if (moved.length > 0 && !discovery.mounted) {
    const mount = discovery.mountBefore;
    if (!mount)
      notes.push(
        `No app found in ${rel(entry)} to mount the tree in: mount it where its routers were (docs/migrating.md).`,
      );
    else {
      const appFile = discovery.files.get(mount.file)!;
      const edit = edits.get(mount.file) ?? new MagicString(appFile.source);
      addMount(edit, appFile, mount, dir);
      edits.set(mount.file, edit);
    }
  }
  for (const [file, edit] of edits) {
    const before = discovery.files.get(file)!.source;
    // The blank lines around the routes that went would pile up: one is left, unless the file had more.
    const after = /\n[ \t]*\n[ \t]*\n/.test(before)
      ? edit.toString()
      : edit.toString().replace(/\n([ \t]*\n)+/g, '\n\n');
    changes.push({ file, before, after });
  }
  // Each method of a route() chain is listed: one that stays keeps the others with it.
  for (const route of candidates)
    if (!moving.has(route) && !leftRoutes.has(route)) leave(route, 'it stays with its route() chain');
  left.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
  return {
    root,
    dir,
    major,
    found: discovery.routes.filter((route) => !route.stays).length + discovery.left.length,
    moved,
    left,
    changes,
    notes,
  };
}

/**
 * The source of a node as it would read at the start of a line: the indentation of the line it starts on
 * taken off each of its lines, so a handler written inside `router.post(` reads flush in its new file.
 */
function sourceOf(appFile: AppFile | string, node: Node): string {
  const source = typeof appFile === 'string' ? appFile : appFile.source;
  return dedent(source.slice(node.start!, node.end!), lineIndent(source, node.start!));
}

/** Writes a plan's files, creating folders. */
export function writePlan(plan: Plan): void {
  for (const change of plan.changes) {
    mkdirSync(path.dirname(change.file), { recursive: true });
    writeFileSync(change.file, change.after);
  }
}

/** The unified diff of every file the plan creates or changes, paths relative to the app. */
export function planDiff(plan: Plan): string {
  return plan.changes
    .map((change) => {
      const name = path.relative(plan.root, change.file);
      return createTwoFilesPatch(
        change.before === null ? '/dev/null' : `a/${name}`,
        `b/${name}`,
        change.before ?? '',
        change.after,
        undefined,
        undefined,
        { context: 3 },
      )
        .split('\n')
        .slice(1) // the "Index:" and "====" lines jsdiff starts with
        .filter((line, i) => !(i === 0 && /^=+$/.test(line)))
        .join('\n');
    })
    .join('');
}

interface ModuleKind {
  typescript: boolean;
  /** Written with `import` and `export`. */
  esModule: boolean;
  /**
   * Run as an ES module, which has `import.meta.dirname` where CommonJS has `__dirname`: TypeScript written
   * with `import` runs as CommonJS where its package is not `"type": "module"` (tsc's `module: commonjs`).
   */
  runsAsEsModule: boolean;
}

function moduleKind(appFile: AppFile): ModuleKind {
  const typescript = /\.[cm]?ts$/.test(appFile.file);
  const esModule = appFile.esModule || /\.m[jt]s$/.test(appFile.file);
  return { typescript, esModule, runsAsEsModule: typescript ? runsAsEsModule(appFile.file) : esModule };
}

/** A TypeScript file's kind as Node runs it compiled: by its extension, else its package's `type`. */
function runsAsEsModule(file: string): boolean {
  if (/\.mts$/.test(file)) return true;
  if (/\.cts$/.test(file)) return false;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type === 'module';
      } catch {
        return false;
      }
    }
    if (path.dirname(dir) === dir) return false;
  }
}

/** Where the app's package.json is: the folder paths are relative to. */
function appRoot(entry: string): string {
  for (let dir = path.dirname(entry); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.dirname(entry);
  }
}

/** The major version of the express the app has installed; 5 when none is found. */
function expressMajor(root: string): number {
  try {
    const file = createRequire(path.join(root, 'package.json')).resolve('express/package.json');
    return Number((JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version.split('.')[0]);
  } catch {
    return 5;
  }
}

/** The endpoint files under the tree's folder, with the segments of their folders (groups add none). */
function existingEndpoints(dir: string): { file: string; segments: PathSegment[] }[] {
  const found: { file: string; segments: PathSegment[] }[] = [];
  const walk = (folder: string, segments: PathSegment[]) => {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(folder, name);
      if (/^endpoint\.[cm]?[jt]s$/.test(name)) found.push({ file: full, segments });
      else if (!name.includes('.') || /^\[/.test(name)) {
        if (name === 'node_modules' || name.startsWith('_')) continue;
        const catchAll = /^\[\[?\.\.\.(.+?)\]\]?$/.exec(name);
        const param = /^\[(.+)\]$/.exec(name);
        const segment: PathSegment | undefined = /^\(.*\)$/.test(name)
          ? undefined
          : catchAll
            ? { kind: 'catchAll', value: catchAll[1]! }
            : param
              ? { kind: 'param', value: param[1]! }
              : { kind: 'static', value: name };
        walk(full, segment ? [...segments, segment] : segments);
      }
    }
  };
  walk(dir, []);
  return found;
}

function hasEndpointsBelow(folder: string): boolean {
  // A folder the command writes into is new, or holds the endpoint being compared: nothing below is rare
  // enough that an existing subfolder is reason enough to keep the middleware in the endpoint.
  return existsSync(folder) && readdirSync(folder).some((name) => !name.includes('.'));
}

/**
 * Why the route's answers would differ in the tree for some requests, where nothing the command writes can
 * keep them: Express's `req.params` without its mount path's, and optional parts that split a path otherwise.
 */
function answersDiffer(route: FoundRoute, appFile: AppFile): string | undefined {
  if (route.paramCallback !== undefined)
    return `its param :${route.paramCallback} is loaded by its router's param() callback, which runs in Express's router only`;
  if (route.hidesMountParams) {
    const code = [route.handler, ...route.middleware.filter((m) => m.file === route.file).map((m) => m.node)]
      .map((node) => appFile.source.slice(node.start!, node.end!))
      .join('\n');
    if (/\bparams\b/.test(code))
      return "it reads req.params, which lacks its mount path's params (its router has no mergeParams), where the tree's params hold them";
  }
  if (route.variants.length > 1 && route.variants.some((v) => v.some((s) => s.kind === 'catchAll')))
    return 'it has an optional part before a wildcard, which Express and the tree split from a path differently';
  const { variants } = route;
  if (variants.some((a, i) => variants.some((b, j) => j > i && overlaps(a, b))))
    return 'its optional parts let one path match it in two ways (/a/a for /:id?/a/:name?), which Express and the tree take differently';
  return undefined;
}

/** The methods each folder of the routes serves, by folder path. */
function servedMethods(
  routes: readonly FoundRoute[],
): Map<string, { segments: PathSegment[]; methods: Set<string>; files: Set<string> }> {
  const served = new Map<string, { segments: PathSegment[]; methods: Set<string>; files: Set<string> }>();
  for (const route of routes) {
    for (const segments of route.variants) {
      const key = folderPath(segments);
      const entry = served.get(key) ?? { segments, methods: new Set<string>(), files: new Set<string>() };
      entry.methods.add(route.method);
      if (route.method === 'GET') entry.methods.add('HEAD');
      entry.files.add(route.file);
      served.set(key, entry);
    }
  }
  return served;
}

/**
 * The folders planned that would take some of the route's requests without serving their method, each with how
 * it hands them on, or why it cannot.
 */
function shadowsOf(
  route: FoundRoute,
  served: ReturnType<typeof servedMethods>,
  dir: string,
): { key: string; variant: PathSegment[]; forward: ReturnType<typeof forwardOf> }[] {
  const found: { key: string; variant: PathSegment[]; forward: ReturnType<typeof forwardOf> }[] = [];
  for (const [key, { segments, methods, files }] of served) {
    if (methods.has('ANY') || (route.method !== 'ANY' && methods.has(route.method))) continue;
    const variant = route.variants.find((v) => overlaps(segments, v) && precedes(segments, v));
    if (!variant) continue;
    const target = folderPath(variant);
    // Both endpoint files are JavaScript the command writes: the handing on is written in it.
    const written = [...files, ...(served.get(target)?.files ?? [])];
    const forward = written.some((file) => !/\.[cm]?js$/.test(file))
      ? 'one of the files is TypeScript'
      : endpointFileIn(path.join(dir, target)) || endpointFileIn(path.join(dir, key))
        ? 'an endpoint file is already there'
        : forwardOf(route, variant, segments);
    found.push({ key, variant, forward });
  }
  return found;
}

/** The endpoint file a folder of the tree already has, in whichever language. */
function endpointFileIn(folder: string): string | undefined {
  return MODULE_EXTENSIONS.map((ext) => path.join(folder, `endpoint${ext}`)).find(existsSync);
}

/**
 * Where the route's folders name a param (or a catch-all) otherwise than one planned before at the same place
 * (`[id]` and `[name]` under one folder): why, after noting its own names in `names`.
 */
function paramClash(route: FoundRoute, names: Map<string, string>): string | undefined {
  const mine = new Map<string, string>();
  let own: string | undefined;
  for (const segments of route.variants) {
    segments.forEach((segment, i) => {
      if (segment.kind === 'static') return;
      const place = `${folderPath(segments.slice(0, i))}|${segment.kind}`;
      const had = mine.get(place);
      if (had !== undefined && had !== segment.value) own ??= `${had} and ${segment.value}`;
      mine.set(place, segment.value);
    });
  }
  // `/a{/:id}/:name`: without its optional part, its next param takes that part's place.
  if (own) return `its optional part puts two params at one place (${own}): a folder has one name for it`;
  for (const [place, name] of mine) {
    const had = names.get(place);
    if (had !== undefined && had !== name) {
      const folder = place.split('|')[0] || 'the tree';
      return `its param ${name} is named ${had} at the same place by a route moved before it, in ${folder}: a folder has one name for it`;
    }
  }
  for (const [place, name] of mine) names.set(place, name);
  return undefined;
}

/** The middleware a route runs behind, as one text, to tell which routes share theirs. */
function chainKey(route: FoundRoute): string {
  return route.middleware.map((m) => `${m.file}:${m.node.start}`).join(',');
}

/** A top-level name the moved code reads, by name: what it is bound to, in the file it is read from. */
type Needs = Map<string, { binding: Binding; from: AppFile }>;

/**
 * The top-level names the route's code reads from the files it is written in (an outer router's middleware is
 * its file's): imports it re-imports, `const`s and functions it copies (with what they read in turn). A reason
 * when one cannot go along.
 */
function collectNeeds(
  nodes: readonly Middleware[],
  files: ReadonlyMap<string, AppFile>,
  into: Needs,
): string | undefined {
  for (const { node, file } of nodes) {
    const appFile = files.get(file)!;
    for (const name of freeNames(node)) {
      const binding = appFile.bindings.get(name);
      const had = into.get(name);
      if (had && had.binding === binding) continue;
      if (had && binding)
        return `it uses ${name} of ${rel(had.from.file)} and ${name} of ${rel(appFile.file)}, which one file cannot both name so`;
      if (!binding) {
        if (GLOBALS.has(name)) continue;
        return `it uses ${name}, which is not declared at the top of ${rel(appFile.file)}: the command moves only what it can import or copy`;
      }
      if (binding.kind === 'app' || binding.kind === 'router')
        return `it uses the ${binding.kind} ${name} itself`;
      if (binding.kind === 'local' && binding.mutable) {
        return `it uses ${name}, a variable of ${rel(appFile.file)} that other code may change: make it a module of its own that both import`;
      }
      into.set(name, { binding, from: appFile });
      if (binding.kind === 'local') {
        const problem = collectNeeds([{ node: binding.declaration, file }], files, into);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

/** Import statements and copied declarations for the names a module needs, from the files they came from. */
function preamble(needs: Needs, file: string, kind: ModuleKind, extra: [string, string, string][]): string {
  const bySpecifier = new Map<string, { default?: string; namespace?: string; named: [string, string][] }>();
  const add = (specifier: string, imported: string, local: string) => {
    const entry = bySpecifier.get(specifier) ?? { named: [] };
    if (imported === 'default') entry.default = local;
    else if (imported === '*') entry.namespace = local;
    else if (!entry.named.some(([, l]) => l === local)) entry.named.push([imported, local]);
    bySpecifier.set(specifier, entry);
  };
  for (const [specifier, imported, local] of extra) add(specifier, imported, local);
  const copied: { declaration: Node; from: AppFile }[] = [];
  for (const [name, { binding, from }] of needs) {
    if (binding.kind === 'import')
      add(moveSpecifier(binding.specifier, from.file, file), binding.imported, name);
    else if (binding.kind === 'express') add('express', 'default', name);
    else if (binding.kind === 'router-factory') add('express', 'Router', name);
    else if (binding.kind === 'local' && !copied.some((c) => c.declaration === binding.declaration))
      copied.push({ declaration: binding.declaration, from });
  }
  const lines: string[] = [];
  for (const [specifier, { default: def, namespace, named }] of bySpecifier) {
    const list = named
      .map(([imported, local]) =>
        imported === local ? local : kind.esModule ? `${imported} as ${local}` : `${imported}: ${local}`,
      )
      .join(', ');
    if (kind.esModule) {
      const parts = [
        ...(def ? [def] : []),
        ...(namespace ? [`* as ${namespace}`] : []),
        ...(list ? [`{ ${list} }`] : []),
      ];
      lines.push(`import ${parts.join(', ')} from '${specifier}';`);
    } else {
      if (def) lines.push(`const ${def} = require('${specifier}');`);
      if (list) lines.push(`const { ${list} } = require('${specifier}');`);
    }
  }
  // In the order of their files, outer routers' after the route's own, as each file declared them.
  const declarations = copied
    .sort((a, b) => (a.from === b.from ? a.declaration.start! - b.declaration.start! : 0))
    .map(({ declaration: d, from }) => {
      const node = d.type === 'ExportNamedDeclaration' && d.declaration ? d.declaration : d;
      return from.source.slice(node.start!, node.end!);
    });
  return [lines.join('\n'), declarations.join('\n\n')].filter((part) => part !== '').join('\n\n');
}

/** A relative import, as seen from the new file; a package's name as it is. */
function moveSpecifier(specifier: string, from: string, to: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const target = path.resolve(path.dirname(from), specifier);
  const relative = path.relative(path.dirname(to), target).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** What differs for a wildcard route, however it moves. */
const WILDCARD_NOTE =
  'a trailing slash is no part of its wildcard in the tree (docs/migrating.md, "A wildcard ends at the last segment")';

const EXPORT_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'ANY'];

function endpointModule(
  segments: readonly PathSegment[],
  routes: readonly FoundRoute[],
  needs: Map<FoundRoute, Needs>,
  file: string,
  kind: ModuleKind,
  major: number,
  sharedMiddleware: boolean,
  front: Discovery['front'],
  files: Map<string, AppFile>,
  forwards: readonly Forward[],
): { text: string; how: Map<FoundRoute, Omit<MovedRoute, 'method' | 'path' | 'from' | 'to'>> } {
  const sorted = [...routes].sort((a, b) => EXPORT_ORDER.indexOf(a.method) - EXPORT_ORDER.indexOf(b.method));
  const from = files.get(sorted[0]!.file)!;
  const allNeeds: Needs = new Map();
  const extra: [string, string, string][] = [];
  const typeImports = new Set<string>();
  const how = new Map<FoundRoute, Omit<MovedRoute, 'method' | 'path' | 'from' | 'to'>>();
  const blocks: string[] = [];
  let nextRouteUsed = false;
  let sendsValues = false;
  const wildcardName = segments.find((s) => s.kind === 'catchAll')?.value;
  const params = segments
    .filter((s) => s.kind !== 'static')
    .map((s) => ({ name: s.value, catchAll: s.kind === 'catchAll' }));
  // The comment above each route's statement, over the first block it became; kept out of what is scanned for
  // the names the module reads.
  const comments = new Map<number, string>();
  const commented = new Set<FoundRoute['statement']>();
  for (const route of sorted) {
    const source = files.get(route.file)!.source;
    const routeNeeds = needs.get(route)!;
    const firstBlock = blocks.length;
    // Once for a route() chain, whose methods are one statement.
    if (route.statement.comment && !commented.has(route.statement)) {
      commented.add(route.statement);
      comments.set(firstBlock, route.statement.comment);
    }
    const ownMiddleware = sharedMiddleware ? [] : route.middleware;
    const options: RewriteOptions = {
      major,
      typescript: kind.typescript,
      ...(route.wildcard !== undefined && wildcardName
        ? { wildcard: { index: route.wildcard, name: wildcardName } }
        : {}),
      params,
      body: bodyRule(route, front, files),
    };
    const found = rewriteHandler(route.handler, source, options);
    const rewritten =
      found.kind === 'rewritten'
        ? { ...found, code: dedent(found.code, lineIndent(source, route.handler.start!)) }
        : found;
    const name = route.method.toLowerCase();
    const text = (node: Node) => sourceOf(source, node);
    const written = (m: Middleware) => sourceOf(files.get(m.file)!, m.node);
    const exportAs = (value: string) =>
      kind.esModule ? `export const ${route.method} = ${value};` : `exports.${route.method} = ${value};`;
    const contextType = kind.typescript ? `: EndpointContext${paramsType(params)}` : '';
    // A middleware takes any route's context, which TypeScript does not see in EndpointContext<{ id: string }>:
    // its params type is read through a conditional type, so it is compared as neither wider nor narrower.
    const anyContext =
      kind.typescript && params.length > 0 ? 'context as unknown as EndpointContext' : 'context';
    const requestType = kind.typescript ? ': Request' : '';
    if (kind.typescript) typeImports.add('EndpointContext');
    if (rewritten.kind === 'rewritten') {
      for (const used of rewritten.imports) {
        if (used === 'jsonBody' || used === 'sendFile') extra.push(['express-file-endpoints', used, used]);
        if (used === 'querystring') extra.push(['node:querystring', 'default', 'querystring']);
        if (used === 'sendValue') sendsValues = true;
      }
      // Names the rewritten handler no longer reads (req.params read through params) are still imported
      // only if the middleware or the handler's new text reads them.
      if (ownMiddleware.length === 0) blocks.push(exportAs(rewritten.code));
      else {
        // What the middleware's next() runs: the handler, with what it takes, as a promise.
        const handlerCall = `async () => ${name}Handler(${['request', 'context'].slice(0, rewritten.arity).join(', ')})`;

        extra.push(['express-file-endpoints', 'expressMiddleware', 'expressMiddleware']);
        blocks.push(
          [
            `// The route's own middleware, in front of its handler as Express ran them.`,
            `const ${name}Middleware = expressMiddleware(${[...wildcardStep(route, wildcardName, kind), ...ownMiddleware.map(written)].join(', ')});`,
            `const ${name}Handler = ${rewritten.code};`,
            exportAs(
              `(request${requestType}, context${contextType}) => ${name}Middleware(request, ${handlerCall}, ${anyContext})`,
            ),
          ].join('\n'),
        );
      }
      const notes = [
        ...(rewritten.readsNode ? ['reads the Node request (context.node)'] : []),
        ...(route.variants.some((v) => v.some((segment) => segment.kind === 'catchAll'))
          ? [WILDCARD_NOTE]
          : []),
      ];
      how.set(route, { how: 'rewritten', ...(notes.length > 0 ? { note: notes.join('; ') } : {}) });
    } else {
      extra.push(['express-file-endpoints', 'expressMiddleware', 'expressMiddleware']);
      nextRouteUsed = true;
      blocks.push(
        [
          `// Moved as it was, to run with Express's req and res (Node hosts only): ${rewritten.reason}.`,
          `// Rewrite it to return a Response to serve it under .fetch and in unit tests (docs/migrating.md).`,
          `const ${name}Route = expressMiddleware(${[...wildcardStep(route, wildcardName, kind), ...ownMiddleware.map(written), text(route.handler)].join(', ')});`,
          exportAs(
            `(request${requestType}, context${contextType}) => ${name}Route(request, nextRoute, ${anyContext})`,
          ),
        ].join('\n'),
      );
      how.set(route, { how: 'as-is', note: rewritten.reason });
    }
    for (const [k, v] of routeNeeds) {
      if (
        !sharedMiddleware ||
        !route.middleware.some((m) => freeNames(m.node).has(k)) ||
        freeNames(route.handler).has(k)
      )
        allNeeds.set(k, v);
    }
  }
  for (const forward of forwards) {
    const { block, import: imported } = forwardBlock(forward, file, kind.esModule);
    blocks.push(block);
    extra.push(imported);
  }
  const prelude: string[] = [];
  if (nextRouteUsed) {
    prelude.push(
      [
        '// Express went on to the next route when a handler called next() without an error; no route follows',
        "// an endpoint, so the request is your error handler's 404.",
        "const nextRoute = () => Promise.reject(Object.assign(new Error('Not Found'), { status: 404, expose: true }));",
      ].join('\n'),
    );
  }
  if (sendsValues) {
    blocks.push(sendValueFunction(kind.typescript, major));
    if (major < 5) extra.push(['node:http', 'STATUS_CODES', 'STATUS_CODES']);
  }
  const header = `// ${sorted.map((r) => `${r.method} ${r.path}`).join(', ')}: moved from ${rel(from.file)} by express-file-endpoints migrate.`;
  const body = [...prelude, ...blocks].join('\n\n');
  const withComments = [
    ...prelude,
    ...blocks.map((block, i) => (comments.has(i) ? `${comments.get(i)}\n${block}` : block)),
  ];
  // Only what the new text still reads.
  const used = new Set<string>();
  for (const match of body.matchAll(/[A-Za-z_$][\w$]*/g)) used.add(match[0]);
  const needed = new Map([...allNeeds].filter(([k]) => used.has(k) || isReadByCopied(k, allNeeds, used)));
  const types =
    kind.typescript && typeImports.size > 0 && /EndpointContext/.test(body)
      ? [`import type { ${[...typeImports].join(', ')} } from 'express-file-endpoints';`]
      : [];
  const imports = preamble(needed, file, kind, dedupe(extra));
  const head = [header, ...types, imports].filter(Boolean).join('\n');
  return { text: keepFilePaths(`${head}\n\n${withComments.join('\n\n')}\n`, file, from.file, kind), how };
}

/**
 * expressMiddleware hands Express code the route's params as `req.params`, a catch-all as its segments (Express
 * 5's `*name`); Express 4's `*` was `req.params[0]`, the segments joined: a step in front that puts it there,
 * in place of the folder's name for it, which Express 4 code never saw.
 */
function wildcardStep(route: FoundRoute, wildcardName: string | undefined, kind: ModuleKind): string[] {
  if (route.wildcard === undefined || !wildcardName) return [];
  const [req, path] = kind.typescript
    ? [
        `req: { params: Record<string, unknown> }, _res: unknown, next: () => void`,
        `(req.params.${wildcardName} as string[])`,
      ]
    : ['req, res, next', `req.params.${wildcardName}`];
  const star = quote(route.wildcard);
  const name = quote(wildcardName);
  return [
    `(${req}) => {\n  req.params[${star}] = ${path}.join('/');\n  delete req.params[${name}];\n  next();\n}`,
  ];
}

/** A copied declaration's own imports stay, when the declaration is kept. */
function isReadByCopied(name: string, needs: Needs, used: Set<string>): boolean {
  for (const [other, { binding }] of needs) {
    if (other === name || binding.kind !== 'local' || !used.has(other)) continue;
    if (freeNames(binding.declaration).has(name)) return true;
  }
  return false;
}

function dedupe(list: [string, string, string][]): [string, string, string][] {
  const seen = new Set<string>();
  return list.filter((entry) => {
    const key = entry.join('\0');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function middlewareModule(
  route: FoundRoute,
  needs: Needs,
  file: string,
  kind: ModuleKind,
  files: Map<string, AppFile>,
): string {
  const from = files.get(route.file)!;
  const used: Needs = new Map();
  for (const m of route.middleware)
    for (const name of freeNames(m.node)) if (needs.has(name)) used.set(name, needs.get(name)!);
  for (const [name, need] of needs)
    if (isReadByCopied(name, needs, new Set(used.keys()))) used.set(name, need);
  const wildcardName = route.variants[0]!.find((s) => s.kind === 'catchAll')?.value;
  const items = [
    ...wildcardStep(route, wildcardName, kind),
    ...route.middleware.map((m) => sourceOf(files.get(m.file)!, m.node)),
  ];
  const inline = `expressMiddleware(${items.join(', ')})`;
  const call =
    inline.length <= 80 && !inline.includes('\n')
      ? inline
      : `expressMiddleware(\n  ${items.map((i) => i.replace(/\n/g, '\n  ')).join(',\n  ')},\n)`;
  const imports = preamble(used, file, kind, [
    ['express-file-endpoints', 'expressMiddleware', 'expressMiddleware'],
  ]);
  const exported = kind.esModule ? 'export default' : 'module.exports =';
  const header = `// The middleware ${route.method} ${route.path} ran behind in ${rel(route.file)}, in the same order.`;
  return keepFilePaths(`${header}\n${imports}\n\n${exported} ${call};\n`, file, from.file, kind);
}

/**
 * How a handler reads `req.body`: with jsonBody, under express.json()'s rules and options, when that parser
 * runs in front of every route and the route has no middleware of its own; otherwise from the Node request,
 * where the route's own middleware left it.
 */
function bodyRule(
  route: FoundRoute,
  front: Discovery['front'],
  files: Map<string, AppFile>,
): RewriteOptions['body'] {
  if (route.middleware.length > 0) return { kind: 'node' };
  // Another parser in front (a form's, text, raw) gives req.body for other types: the Node request has it.
  const parsers = front.map(({ node, file }) => ({ node, file, name: parserName(node) }));
  if (parsers.some((p) => p.name !== undefined && p.name !== 'json')) return { kind: 'node' };
  for (const { node, file } of parsers) {
    if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') continue;
    const property = node.callee.property;
    if (property.type !== 'Identifier' || property.name !== 'json') continue;
    const argument = node.arguments[0];
    if (!argument) return { kind: 'json' };
    if (argument.type === 'ObjectExpression') {
      return { kind: 'json', options: files.get(file)!.source.slice(argument.start!, argument.end!) };
    }
    return { kind: 'node' };
  }
  return { kind: 'node' };
}

function parserName(node: Node): string | undefined {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return undefined;
  const property = node.callee.property;
  return property.type === 'Identifier' && ['json', 'urlencoded', 'text', 'raw'].includes(property.name)
    ? property.name
    : undefined;
}

/** `app.use(mountEndpoints({ dir }))` before the app's first route or router, and its import. */
function addMount(
  edit: MagicString,
  appFile: AppFile,
  mount: { offset: number; app: string },
  dir: string,
): void {
  const source = appFile.source;
  const indent = /^[ \t]*/.exec(source.slice(mount.offset))![0];
  const { esModule, runsAsEsModule: runsAsModule } = moduleKind(appFile);
  let pathName: string | undefined;
  for (const [name, binding] of appFile.bindings) {
    if (
      binding.kind === 'import' &&
      (binding.specifier === 'node:path' || binding.specifier === 'path') &&
      (binding.imported === 'default' || binding.imported === '*')
    )
      pathName = name;
  }
  const relative = path.relative(path.dirname(appFile.file), dir).split(path.sep).join('/');
  const here = runsAsModule ? 'import.meta.dirname' : '__dirname';
  const imports: string[] = [];
  if (!pathName) {
    pathName = 'path';
    imports.push(esModule ? "import path from 'node:path';" : "const path = require('node:path');");
  }
  imports.push(
    esModule
      ? "import { mountEndpoints } from 'express-file-endpoints';"
      : "const { mountEndpoints } = require('express-file-endpoints');",
  );
  edit.appendLeft(
    mount.offset,
    `${indent}// The endpoints the routes below moved to: they answer first, and what they do not serve goes on.\n${indent}${mount.app}.use(mountEndpoints({ dir: ${pathName}.join(${here}, '${relative}') }));\n`,
  );
  const body = appFile.ast.program.body;
  const lastImport = [...body]
    .reverse()
    .find(
      (s) =>
        s.type === 'ImportDeclaration' ||
        (s.type === 'VariableDeclaration' && /\brequire\(/.test(source.slice(s.start!, s.end!))),
    );
  const at = lastImport ? lastImport.end! : 0;
  edit.appendLeft(at, lastImport ? `\n${imports.join('\n')}` : `${imports.join('\n')}\n`);
}
