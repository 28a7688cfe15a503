/**
 * The `openapi` mount option: the document served as JSON at a path below the mount. Its `servers`
 * default to where the tree is mounted, so a client that reads the document at `/v1/openapi.json`
 * calls `/v1/api/users`. The document is built once per loaded tree and mount path.
 *
 * It is a generated route of the tree's own table, so what guards the endpoints guards it too (the
 * `middleware` option and the `middleware` files of the folders on its path), and it is traced,
 * refused while closing and waited for by `close()`; HEAD, ETags and 405 behave as for any endpoint.
 */
import { generatedRoute, type GeneratedRoute } from '../route';
import type { EndpointContext, ServeOpenAPIOptions } from '../types';
import type { OpenAPIDocument } from './types';

/** The route of the `openapi` option. `current()` is the tree as last loaded: a new object on each reload. */
export function documentRoute(
  options: ServeOpenAPIOptions,
  current: () => object,
  document: (options: Omit<ServeOpenAPIOptions, 'path'>) => OpenAPIDocument,
): GeneratedRoute {
  if (typeof options.path !== 'string' || !options.path.startsWith('/')) {
    throw new TypeError(
      `openapi.path must be a path that starts with "/", not ${JSON.stringify(options.path)}`,
    );
  }
  const { path, ...documentOptions } = options;
  // The document is made once per tree (its warnings told once); only `servers` follows the mount path a
  // request came through, which the client spells (`/:tenant` mounts, case): a few texts are kept, no more.
  let cached: { current: object; document: OpenAPIDocument; texts: Map<string, string> } | undefined;

  const documentText = (mountPath: string): string => {
    const tree = current();
    // Development mode swaps the tree on a change: the document is rebuilt for the new one only.
    if (cached?.current !== tree) {
      cached = { current: tree, document: document(documentOptions), texts: new Map() };
    }
    let text = cached.texts.get(mountPath);
    if (text === undefined) {
      if (cached.texts.size >= MOUNT_PATHS_KEPT) cached.texts.clear();
      text = JSON.stringify(withServers(cached.document, documentOptions.servers, mountPath));
      cached.texts.set(mountPath, text);
    }
    return text;
  };
  const GET = (_request: Request, context: EndpointContext) =>
    new Response(documentText(context.mountPath ?? ''), {
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  return generatedRoute(path, 'the openapi option', () => ({ GET }));
}

const MOUNT_PATHS_KEPT = 16;

/** The document with the servers the options give, or else the mount path it was reached through. */
function withServers(
  document: OpenAPIDocument,
  servers: ServeOpenAPIOptions['servers'],
  mountPath: string,
): OpenAPIDocument {
  if (servers !== undefined || mountPath === '') return document;
  const { openapi, info, ...rest } = document;
  return { openapi, info, servers: [{ url: mountPath }], ...rest } as OpenAPIDocument;
}
