/**
 * The `openapi` mount option: the document served as JSON at a path below the mount, by the Node
 * middleware and by `.fetch`. Its `servers` default to where the tree is mounted, so a client that
 * reads the document at `/v1/openapi.json` calls `/v1/api/users`. The document is built once per
 * loaded tree and mount path; a mount without the option is not wrapped at all.
 */
import { finalNext, mountPathOf, pathBelowMount, sendWebResponse, type NodeMiddleware } from '../bridge';
import type { OpenAPIOptions, ServeOpenAPIOptions } from '../types';
import type { OpenAPIDocument } from './types';

/** What `mountEndpoints` knows of its tree: when it is loaded, which load is current, its document. */
export interface DescribedTree {
  loaded: Promise<void>;
  /** The tree as last loaded: a new object after each reload in development mode. */
  current(): object;
  document(options: OpenAPIOptions): OpenAPIDocument;
}

export interface ServedDocument {
  middleware: NodeMiddleware;
  fetch(request: Request): Promise<Response>;
}

export function serveOpenAPI(
  options: ServeOpenAPIOptions,
  tree: DescribedTree,
  inner: { middleware: NodeMiddleware; fetch(request: Request): Promise<Response> },
): ServedDocument {
  if (typeof options.path !== 'string' || !options.path.startsWith('/')) {
    throw new TypeError(
      `openapi.path must be a path that starts with "/", not ${JSON.stringify(options.path)}`,
    );
  }
  const { path: servedAt, ...documentOptions } = options;
  // The document is made once per tree (its warnings told once); only `servers` follows the mount path a
  // request came through, which the client spells (`/:tenant` mounts, case): a few texts are kept, no more.
  let cached: { tree: object; document: OpenAPIDocument; texts: Map<string, string> } | undefined;

  const answer = async (method: string, mountPath: string): Promise<Response> => {
    await tree.loaded;
    const current = tree.current();
    // Development mode swaps the tree on a change: the document is rebuilt for the new one only.
    if (cached?.tree !== current) {
      cached = { tree: current, document: tree.document(documentOptions), texts: new Map() };
    }
    let text = cached.texts.get(mountPath);
    if (text === undefined) {
      if (cached.texts.size >= MOUNT_PATHS_KEPT) cached.texts.clear();
      text = JSON.stringify(withServers(cached.document, documentOptions.servers, mountPath));
      cached.texts.set(mountPath, text);
    }
    return new Response(method === 'HEAD' ? null : text, {
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  };
  const isRead = (method: string | undefined) => method === 'GET' || method === 'HEAD';

  return {
    middleware: (req, res, next) => {
      if (!isRead(req.method) || pathBelowMount(req) !== servedAt) return inner.middleware(req, res, next);
      answer(req.method as string, mountPathOf(req))
        .then((response) => sendWebResponse(res, response))
        .catch(next ?? finalNext(res));
    },
    fetch: (request) =>
      isRead(request.method) && new URL(request.url).pathname === servedAt
        ? answer(request.method, '')
        : inner.fetch(request),
  };
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
