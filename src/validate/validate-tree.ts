/**
 * Validation: everything that makes a discovered tree unusable, found without running endpoint code and
 * reported all at once, so one `check` run lists every fix to make.
 */
import path from 'node:path';
import { HANDLER_EXPORTS, HTTP_METHODS, WEBSOCKET_EXPORT } from '../http-methods';
import { formatPattern, type DiscoveredTree, type RouteFile, type Segment } from '../discover';
import { EndpointValidationError } from './endpoint-validation-error';
import { misspeltMethod } from './method-names';
import type { Problem } from './types';
import { listWords } from '../words';

const METHODS = new Set<string>(HTTP_METHODS);
const HANDLERS = new Set<string>(HANDLER_EXPORTS);
// What a page serves itself (the app renders it on GET); an endpoint beside it may not answer GET, so not
// GET, nor ANY or a default export, which would answer every method.
const SERVES_GET = ['GET', 'ANY', 'default'];

/** Every problem of the tree; empty when it can be mounted. */
export function validateTree(tree: DiscoveredTree): Problem[] {
  const routed = tree.files.filter((file) => file.kind !== 'page');
  const endpoints = routed.filter((file) => file.kind === 'endpoint');
  const pages = tree.files.filter((file) => file.kind === 'page');
  return [
    ...folderProblems(routed),
    ...exportProblems(routed),
    ...routeProblems(endpoints, pages),
    ...misnamedProblems(tree),
  ];
}

/** Throws an `EndpointValidationError` listing every problem, if there is any. */
export function assertValidTree(tree: DiscoveredTree): void {
  const problems = validateTree(tree);
  if (problems.length > 0) throw new EndpointValidationError(problems);
}

/** Folder names: malformed segments, a param name used twice, catch-alls with something below them. */
function folderProblems(files: readonly RouteFile[]): Problem[] {
  // Keyed by folder, so a folder holding many files is one problem listing them all.
  const found = new Map<string, { code: string; url: string; files: string[]; says: string }>();
  const report = (code: string, folder: string, file: RouteFile, url: string, says: string): void => {
    const key = `${code}\0${folder}`;
    const entry = found.get(key);
    if (entry) entry.files.push(file.displayPath);
    else found.set(key, { code, url, files: [file.displayPath], says });
  };
  for (const file of files) {
    const seen = new Set<string>();
    const segments: Segment[] = [];
    let catchAll: string | undefined;
    let below = false;
    file.folders.forEach((name, i) => {
      const parsed = file.parsedFolders[i]!;
      if (parsed.kind === 'group' || parsed.kind === 'private') return;
      const folder = folderPath(file, i);
      if (catchAll !== undefined && !below) {
        const says = `the catch-all folder ${catchAll} must be the last segment of a URL, so no route file may sit in a folder below it; move the files out of it.`;
        report('catch-all-not-last', catchAll, file, formatPattern(segments), says);
        below = true; // once per file, however deep it sits
      }
      const segment: Segment = parsed.kind === 'malformed' ? { kind: 'static', value: name } : parsed;
      segments.push(segment);
      if (parsed.kind === 'malformed') {
        const says = `the folder name "${name}" is not a valid route segment: ${parsed.reason}.`;
        report('malformed-segment', folder, file, formatPattern(segments), says);
      }
      if (segment.kind === 'static') return;
      if (seen.has(segment.name)) {
        const url = formatPattern(segments);
        const says = `the parameter name "${segment.name}" is used twice in ${url}; rename one of the folders.`;
        report('duplicate-param', folder, file, url, says);
      }
      seen.add(segment.name);
      if (segment.kind !== 'param' && catchAll === undefined) catchAll = folder;
    });
  }
  return [...found.values()].map(({ code, url, files: involved, says }) => ({
    code,
    files: involved,
    url,
    message: `${listOf(involved)}: ${says}`,
  }));
}

/** What each endpoint and middleware file exports, as far as static reading can tell. */
function exportProblems(files: readonly RouteFile[]): Problem[] {
  const problems: Problem[] = [];
  for (const file of files) {
    const info = file.exports;
    if (!info) continue;
    const at = file.displayPath;
    const problem = (code: string, message: string): void => {
      problems.push({ code, files: [at], url: file.pattern, message: `${at}: ${message}` });
    };
    // Not lexable statically (a syntax error, or code the lexer cannot read, such as JSX): not reported, since it
    // may be valid code; its names are unknown (namesIncomplete), and mountEndpoints checks the real ones after import.
    if (info.parseError !== undefined) continue;
    const names = new Set(info.names);
    if (file.kind === 'middleware') {
      if (info.nonFunctions.includes('default')) {
        problem(
          'not-a-function',
          'the default export is not a function; a middleware is a (req, next) function: `export default async function (req, next) { return next(); }`.',
        );
      } else if (!names.has('default') && !info.namesIncomplete) {
        problem(
          'middleware-no-default',
          'a middleware file must have a default export, a (req, next) function: `export default async function (req, next) { return next(); }`.',
        );
      }
      continue;
    }
    if (names.has('ANY') && names.has('default')) {
      problem('any-and-default', 'exports both ANY and default, which mean the same; keep one of them.');
    }
    for (const name of info.nonFunctions) {
      if (HANDLERS.has(name))
        problem(
          'not-a-function',
          `the export ${name} is not a function; a handler is a function: \`export async function ${name}(req) { return Response.json(…); }\`.`,
        );
    }
    let misspelt = false;
    for (const name of info.names) {
      const upper = name.toUpperCase();
      if (name !== upper && (METHODS.has(upper) || upper === 'ANY') && !names.has(upper)) {
        problem(
          'lowercase-method',
          `the export "${name}" is not a handler name (they are upper case): did you mean ${upper}?`,
        );
        misspelt = true;
      }
      const meant = HANDLERS.has(name) ? undefined : misspeltMethod(name);
      if (meant) {
        problem(
          'misspelt-method',
          `the export "${name}" is not a method name, so no request reaches it: did you mean ${meant}? An all-caps export this close to a method name is taken for a misspelling; if it is not a handler, give it another name.`,
        );
        misspelt = true;
      }
    }
    // A file may serve WebSockets alone: `export const websocket = { … }`.
    const serves = (name: string) => HANDLERS.has(name) || name === WEBSOCKET_EXPORT;
    if (!misspelt && !info.namesIncomplete && !info.names.some(serves)) {
      problem(
        'no-handler',
        `exports no handler; export one of ${[...HANDLERS].join(', ')}, or a \`websocket\` object: \`export async function GET(req) { … }\`, or in a CommonJS .js file \`exports.GET = async (req) => …\`.`,
      );
    }
  }
  return problems;
}

/**
 * Contracts that can only fail or check nothing, known once the modules are loaded: a body schema on GET
 * or HEAD, whose requests carry none, and a params schema on a route without params. `check --load` (and
 * so `build`) reports them; a mount does not stop on them, since a schema that accepts nothing there is
 * harmless.
 */
export function contractProblems(tree: DiscoveredTree): Problem[] {
  const problems: Problem[] = [];
  for (const file of tree.files) {
    if (file.kind !== 'endpoint') continue;
    const at = file.displayPath;
    const problem = (code: string, message: string): void => {
      problems.push({ code, files: [at], url: file.pattern, message: `${at}: ${message}` });
    };
    for (const [name, contract] of Object.entries(file.exports?.contracts ?? {})) {
      // A Request for GET or HEAD cannot carry a body (Fetch): the schema only ever sees none.
      if (contract.validates.includes('body') && (name === 'GET' || name === 'HEAD')) {
        problem(
          'contract-body-without-body',
          `the contract of ${name} has a body schema, but a ${name} request has no body, so the schema only ever sees none; validate the query instead, or move the handler to POST.`,
        );
      }
      if (
        contract.validates.includes('params') &&
        file.segments.every((segment) => segment.kind === 'static')
      ) {
        problem(
          'contract-params-without-params',
          `the contract of ${name} has a params schema, but ${file.pattern} has no params (no [name] folder), so it has nothing to check; remove it, or put the endpoint in a [param] folder.`,
        );
      }
    }
  }
  return problems;
}

/**
 * A `route.ts` (Next.js's name) or an `index.ts` that exports handlers, in a folder with no endpoint file: the
 * user meant an endpoint, and nothing would serve it. One beside an endpoint, or exporting no method, is a
 * helper module and stays allowed.
 */
function misnamedProblems(tree: DiscoveredTree): Problem[] {
  const endpointFolders = new Set(
    tree.files.filter((file) => file.kind === 'endpoint').map((file) => path.dirname(file.file)),
  );
  const problems: Problem[] = [];
  for (const file of tree.misnamed ?? []) {
    if (endpointFolders.has(path.dirname(file.file))) continue;
    const methods = file.exports.names.filter((name) => METHODS.has(name) || name === 'ANY');
    if (methods.length === 0) continue;
    const rename = `endpoint${path.extname(file.file)}`;
    const them = methods.length === 1 ? 'it' : 'them';
    problems.push({
      code: 'misnamed-endpoint',
      files: [file.displayPath],
      url: file.pattern,
      message: `${file.displayPath}: exports ${listOf(methods)}, but only files named endpoint serve requests, so no request reaches ${them}; rename it ${rename}.`,
    });
  }
  return problems;
}

/** URLs: two endpoints for one URL, ambiguous params or catch-alls, and endpoints serving a page's GET. */
function routeProblems(endpoints: readonly RouteFile[], pages: readonly RouteFile[]): Problem[] {
  const problems: Problem[] = [];
  const byShape = groupBy(endpoints, (file) => shapeOf(file.segments));
  for (const files of byShape.values()) {
    if (files.length < 2) continue;
    const url = (files[0] as RouteFile).pattern;
    problems.push({
      code: 'duplicate-route',
      files: files.map((file) => file.displayPath),
      url,
      message: `${listOf(files)}: ${files.length} endpoint files serve the same URL ${url}; keep one of them.`,
    });
  }

  // Optional and required catch-alls, grouped by the URL they hang below.
  const catchAlls = groupBy(
    endpoints.filter((file) => isCatchAll(file.segments.at(-1))),
    (file) => shapeOf(file.segments.slice(0, -1)),
  );
  for (const [parentShape, files] of catchAlls) {
    const url = formatPattern((files[0] as RouteFile).segments.slice(0, -1));
    const optional = files.filter((file) => file.segments.at(-1)?.kind === 'optionalCatchAll');
    if (optional.length > 0 && optional.length < files.length) {
      problems.push({
        code: 'catch-all-kinds',
        files: files.map((file) => file.displayPath),
        url,
        message: `${listOf(files)}: a catch-all and an optional catch-all below ${url} match the same URLs; keep one kind.`,
      });
    }
    const parents = byShape.get(parentShape) ?? [];
    for (const file of optional) {
      if (parents.length === 0) continue;
      problems.push({
        code: 'optional-catch-all-conflict',
        files: [...parents, file].map((f) => f.displayPath),
        url,
        message: `${listOf([...parents, file])}: both serve ${url}, because an optional catch-all also matches the URL of its parent folder; remove one or make the catch-all required ([...${paramName(file)}]).`,
      });
    }
  }

  problems.push(...paramNameProblems(endpoints));

  const pagesByShape = groupBy(pages, (file) => shapeOf(file.segments));
  for (const endpoint of endpoints) {
    const info = endpoint.exports;
    const serving = SERVES_GET.filter((name) => info?.names.includes(name));
    if (!info || info.parseError !== undefined || serving.length === 0) continue;
    const shapes = [shapeOf(endpoint.segments)];
    // `docs/[[...slug]]` serves `/docs` too, so a `docs/page.tsx` is beside it.
    if (endpoint.segments.at(-1)?.kind === 'optionalCatchAll')
      shapes.push(shapeOf(endpoint.segments.slice(0, -1)));
    const fix =
      serving.length === 1 && serving[0] === 'GET'
        ? `GET ${endpoint.pattern} belongs to the page, which your app's own route renders: remove GET from the endpoint (answer it in that route), move the endpoint to another folder,`
        : 'export only methods other than GET (POST, PUT, PATCH, DELETE…) instead of ANY or default,';
    for (const page of shapes.flatMap((shape) => pagesByShape.get(shape) ?? [])) {
      problems.push({
        code: 'page-conflict',
        files: [page.displayPath, endpoint.displayPath],
        url: page.pattern,
        message: `${page.displayPath} and ${endpoint.displayPath}: an endpoint beside a page may not serve GET (it exports ${listOf(serving)}); ${fix} or remove the page file.`,
      });
    }
  }
  return problems;
}

/** One param name per URL position: the router keeps a single param branch per position. */
function paramNameProblems(endpoints: readonly RouteFile[]): Problem[] {
  const positions = new Map<string, { url: string; names: Map<string, RouteFile> }>();
  for (const file of endpoints) {
    file.segments.forEach((segment, i) => {
      if (segment.kind !== 'param') return;
      const key = shapeOf(file.segments.slice(0, i));
      let position = positions.get(key);
      if (!position) {
        position = { url: formatPattern(file.segments.slice(0, i + 1)), names: new Map() };
        positions.set(key, position);
      }
      if (!position.names.has(segment.name)) position.names.set(segment.name, file);
    });
  }
  const problems: Problem[] = [];
  for (const { url, names } of positions.values()) {
    if (names.size < 2) continue;
    const files = [...names.values()];
    const written = [...names.keys()].map((name) => `[${name}]`);
    problems.push({
      code: 'param-name-mismatch',
      files: files.map((file) => file.displayPath),
      url,
      message: `${listOf(files)}: one URL position has different parameter names (${listOf(written)}), which the router cannot tell apart; merge them: move what is in ${listOf(written.slice(1))} into ${written[0]}, so that one name is used at ${url}.`,
    });
  }
  return problems;
}

/** A URL shape: param names dropped, since `/u/[id]` and `/u/[slug]` match the same URLs. */
function shapeOf(segments: readonly Segment[]): string {
  // NUL cannot appear in a folder name, so a static folder never collides with a dynamic marker.
  return segments.map((s) => (s.kind === 'static' ? s.value : `\0${s.kind}`)).join('/');
}

function isCatchAll(segment: Segment | undefined): boolean {
  return segment?.kind === 'catchAll' || segment?.kind === 'optionalCatchAll';
}

function paramName(file: RouteFile): string {
  const last = file.segments.at(-1);
  return last && last.kind !== 'static' ? last.name : '';
}

/** The display path of `file`'s folder number `index` (`app/users/[id]`). */
function folderPath(file: RouteFile, index: number): string {
  const parts = file.displayPath.split('/');
  return parts.slice(0, parts.length - (file.folders.length - index)).join('/');
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** `a`, `a and b`, `a, b and c`, for files (by display path) or plain words. */
function listOf(items: readonly (RouteFile | string)[]): string {
  return listWords(items.map((item) => (typeof item === 'string' ? item : item.displayPath)));
}
