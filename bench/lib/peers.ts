/**
 * The peers: other libraries that run Web `Request`/`Response` handlers on node:http, each at its
 * defaults, as a plain `(req, res)` listener (standalone, or as Express middleware). Imported only
 * here and only by their own variant's server process, so a peer that replaces the global
 * Request/Response (@hono/node-server's default) never reaches another variant.
 *
 * They all get the very endpoint modules of bench/trees/small, the same code our bridge runs.
 */
import type { RequestListener } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SMALL_TREE } from './trees';

type Handler = (req: Request, ctx: { params: Record<string, string> }) => Response | Promise<Response>;
type FetchHandler = (req: Request) => Response | Promise<Response>;

export const PEERS = ['hono', 'honoNoGlobals', 'srvx', 'remix', 'whatwg'];

export async function peerListener(library: string): Promise<RequestListener> {
  const fetch = await peerFetch();
  switch (library) {
    case 'hono':
    case 'honoNoGlobals': {
      const { getRequestListener } = await import('@hono/node-server');
      const options = library === 'honoNoGlobals' ? { overrideGlobalObjects: false } : {};
      return getRequestListener(fetch, options) as unknown as RequestListener;
    }
    case 'srvx': {
      // srvx/node's own NodeRequest wraps the Node request; the handler's Response stays the
      // runtime's (srvx's FastResponse is opt-in, and not used here).
      const { toNodeHandler } = await import('srvx/node');
      return toNodeHandler(fetch) as unknown as RequestListener;
    }
    case 'remix': {
      const { createRequestListener } = await import('@remix-run/node-fetch-server');
      return createRequestListener(fetch);
    }
    case 'whatwg': {
      const { createServerAdapter } = await import('@whatwg-node/server');
      return createServerAdapter(fetch) as unknown as RequestListener;
    }
    default:
      throw new Error(`unknown peer ${library}`);
  }
}

/**
 * The peers have no file router: they get the endpoint modules of bench/trees/small behind the
 * cheapest dispatcher that can tell the paths apart (one Map lookup), their best case.
 */
async function peerFetch(): Promise<FetchHandler> {
  const table = new Map<string, Record<string, Handler>>();
  for (const name of ['hello', 'echo', 'stream', 'upload', 'download']) {
    const file = path.join(SMALL_TREE, 'api', name, 'endpoint.js');
    table.set(`/api/${name}`, (await import(pathToFileURL(file).href)) as Record<string, Handler>);
  }
  const params = {};
  return (req) => {
    const url = req.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const query = url.indexOf('?', start);
    const handler = table.get(query === -1 ? url.slice(start) : url.slice(start, query))?.[req.method];
    return handler ? handler(req, { params }) : new Response('Not Found', { status: 404 });
  };
}
