/**
 * A folder that takes requests Express gave a later route: `GET /users/search` beside `PUT /users/:id`. Express
 * hands `PUT /users/search` to `/:id`, its id `search`; the tree hands it to the `search` folder, the more
 * specific one, which does not serve PUT. That folder then answers it by calling the `[id]` folder's PUT with
 * the params Express gave, so the route moves and answers as before.
 */
import path from 'node:path';
import type { PathSegment } from './express-path';
import type { FoundRoute } from './find-routes';
import { quote } from './rewrite-handler';

export interface Forward {
  method: string;
  /** The route Express gave those requests, and the folder it moves to. */
  route: FoundRoute;
  to: string;
  /** The params of `route` that the folder's path fixes: name, the folder's name for it, its place from the end. */
  params: [string, string, number][];
}

/**
 * How requests of `folder`'s path for `route.method` can go on to `route`'s folder, as Express gave them; or why
 * not: the params must line up (a fixed segment, or a param of the same name), and the route is JavaScript
 * (the import of a sibling endpoint file is then written one way).
 */
export function forwardOf(
  route: FoundRoute,
  variant: readonly PathSegment[],
  folder: readonly PathSegment[],
): Omit<Forward, 'to'> | string {
  if (route.method === 'ANY') return 'it serves every method';
  if (variant.length !== folder.length) return 'the paths differ in length';
  const params: [string, string, number][] = [];
  for (let i = 0; i < variant.length; i++) {
    const [own, theirs] = [variant[i]!, folder[i]!];
    if (own.kind === 'catchAll' || theirs.kind === 'catchAll') return 'a catch-all';
    // Where the route's segment is fixed, so is the folder's: only its requests go on.
    if (own.kind === 'static' && theirs.kind !== 'static')
      return `it takes other paths than ${route.path} there`;
    if (own.kind !== 'param') continue;
    if (theirs.kind === 'static') params.push([own.value, theirs.value, variant.length - i]);
    else if (theirs.value !== own.value) return `its param ${own.value} is ${theirs.value} there`;
  }
  return { method: route.method, route, params };
}

/** The export of the folder's endpoint file (at `file`) that hands such requests on. */
export function forwardBlock(
  forward: Forward,
  file: string,
  esModule: boolean,
): { block: string; import: [string, string, string] } {
  const local = `${forward.method.toLowerCase()}Forwarded`;
  let specifier = path.relative(path.dirname(file), forward.to).split(path.sep).join('/');
  if (!specifier.startsWith('.')) specifier = `./${specifier}`;
  // The request's own segment, decoded as Express decodes a param: a folder matches in any case, and Express gave
  // the segment as it was sent (`SEARCH`).
  const given = forward.params.map(
    ([name, , fromEnd]) =>
      `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name)}: decodeURIComponent(segments[segments.length - ${fromEnd}])`,
  );
  const { route } = forward;
  const comment = [
    `// Express gave ${forward.method} requests of this path to ${route.method} ${route.path} (${path.basename(route.file)}:${route.line})${given.length > 0 ? `, its ${forward.params.map(([n, v]) => `${n} ${quote(v)}`).join(', ')}` : ''}:`,
    '// the folder that route moved to answers them, as it did.',
  ];
  const handler =
    given.length === 0
      ? `(request, context) => ${local}(request, context)`
      : `(request, context) => {\n  const segments = new URL(request.url).pathname.split('/').filter(Boolean);\n  Object.assign(context.params, { ${given.join(', ')} });\n  return ${local}(request, context);\n}`;
  const exported = esModule
    ? `export const ${forward.method} = ${handler};`
    : `exports.${forward.method} = ${handler};`;
  return { block: [...comment, exported].join('\n'), import: [specifier, forward.method, local] };
}
