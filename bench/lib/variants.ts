/**
 * Server variants: what each one is, in words, for the results tables. The code that builds them
 * is in `../server.ts`; a variant id is
 * `<host>-<library>[+json|+request|+contract|+byhand|+bridged|+etag|+noetag|+modules|+setproto]`; a floor takes
 * `+etag` after `+request` too.
 */
export const VARIANTS: Record<string, string> = {
  'node-raw': 'raw node:http handler',
  'node-raw+setproto':
    'raw node:http handler that first gives `req` and `res` new prototypes, as Express does to every request (diagnostic)',
  'node-response': "raw node:http + the handler's `Response.json()` built and dropped (diagnostic)",
  'express5-floor': 'Express 5 floor: `app.use((req, res) => res.end(body))`',
  'node-readfloor':
    'node:http real-Response floor: `Response.json()` built, read back, headers copied, one `end()`',
  'node-readfloor+request': 'node:http real-Response floor + the real Request a `GET(request)` handler gets',
  'express5-readfloor':
    'Express 5 real-Response floor: `Response.json()` built, read back, headers copied, one `end()`',
  'express5-readfloor+request':
    'Express 5 real-Response floor + the real Request a `GET(request)` handler gets',
  'express5-readfloor+etag':
    'Express 5 real-Response floor that also sends the weak ETag native Express sends (one-shot SHA-1)',
  'express5-readfloor+request+etag':
    'Express 5 real-Response floor + the real Request, and the weak ETag native Express sends',
  'node-reqstream':
    'node:http real-Request floor: a Request over a pull stream, `json()`, `Response.json()` written',
  'express5-reqstream':
    'Express 5 real-Request floor: a Request over a pull stream, `json()`, `Response.json()` written',
  'express5-reqstream+etag':
    'Express 5 real-Request floor that also sends the weak ETag native Express sends (one-shot SHA-1)',
  'express5-response': "Express 5 floor + the handler's `Response.json()` built and dropped (diagnostic)",
  'express4-floor': 'Express 4 floor: `app.use((req, res) => res.end(body))`',
  'express5-native': 'Express 5 native route (`app.get`/`app.post` + `res.json`)',
  'express4-native': 'Express 4 native route (`app.get`/`app.post` + `res.json`)',
  'express5-native+json': 'Express 5 native route behind `express.json()`',
  'express5-native+bridged':
    'Express 5 native route behind `bridgeMiddleware((request, next) => next())`, a Web middleware that passes every request on',
  'express4-native+json': 'Express 4 native route behind `express.json()`',
  'ee-express5': 'express-file-endpoints in Express 5',
  'ee-express5+noetag':
    "express-file-endpoints in Express 5 with `app.set('etag', false)`: no ETag hashed (diagnostic)",
  'express5-native+noetag': "Express 5 native route with `app.set('etag', false)` (diagnostic)",
  'ee-node+modules':
    'express-file-endpoints on node:http, one route, in a process that also imported the 1,000 endpoint modules of the large tree without mounting them (diagnostic)',
  'ee-node+etag': 'express-file-endpoints on node:http with `etag: true` (diagnostic)',
  'ee-express4': 'express-file-endpoints in Express 4',
  'ee-express5+json': 'express-file-endpoints in Express 5 behind `express.json()`',
  'hono-express5':
    '@hono/node-server `getRequestListener` in Express 5 (defaults: replaces the global Request/Response)',
  'hono-express5+json': '@hono/node-server in Express 5 behind `express.json()` (replaces the globals)',
  'whatwg-express5': '@whatwg-node/server `createServerAdapter` in Express 5',
  'whatwg-express5+json': '@whatwg-node/server in Express 5 behind `express.json()`',
  'ee-node': 'express-file-endpoints on node:http (no Express)',
  'ee-express5+helmet':
    'express-file-endpoints in Express 5, `helmet()` around the endpoint through `expressMiddleware` (the chain of a folder `middleware.ts`)',
  'ee-express5+apphelmet':
    'express-file-endpoints in Express 5, `helmet()` in front of the mount (`app.use(helmet())`), as the app puts it',
  'ee-express5+guard':
    'express-file-endpoints in Express 5, a trivial `(req, res, next)` guard around the endpoint through `expressMiddleware`',
  'express5-native+helmet': 'Express 5 native route behind `helmet()` (`app.get(path, helmet(), handler)`)',
  'express5-native+guard': 'Express 5 native route behind the same trivial `(req, res, next)` guard',
  'ee-express5+cache':
    'express-file-endpoints in Express 5, the endpoint exporting `cache` and the mount keeping answers in memory: every request a hit',
  'express5-native+apicache':
    'Express 5 native route behind an apicache-style middleware: the answer kept by URL, written back on a hit',
  'ee-express5+ctx':
    'express-file-endpoints in Express 5, mounted with `asyncContext: true` (`getContext()`)',
  'ee-express5+request':
    'express-file-endpoints in Express 5, handler `GET(request)`: a Request is built (diagnostic)',
  'ee-node+request':
    'express-file-endpoints on node:http, handler `GET(request)`: a Request is built (diagnostic)',
  'ee-express5+contract':
    'express-file-endpoints in Express 5, the body validated by a Zod contract (`defineHandler`)',
  'ee-express5+byhand':
    'express-file-endpoints in Express 5, the same Zod schema applied by the handler itself',
  'ee-node+contract':
    'express-file-endpoints on node:http, the body validated by a Zod contract (`defineHandler`)',
  'ee-node+byhand': 'express-file-endpoints on node:http, the same Zod schema applied by the handler itself',
  'hono-node': '@hono/node-server standalone (defaults: replaces the globals)',
  'honoNoGlobals-express5': '@hono/node-server in Express 5, `overrideGlobalObjects: false`',
  'honoNoGlobals-node': '@hono/node-server standalone, `overrideGlobalObjects: false`',
  'srvx-express5': 'srvx `toNodeHandler` in Express 5',
  'srvx-node': 'srvx `toNodeHandler` standalone (no Express)',
  'remix-express5': '@remix-run/node-fetch-server `createRequestListener` in Express 5',
  'remix-node': '@remix-run/node-fetch-server standalone (no Express)',
  'whatwg-node': '@whatwg-node/server standalone (no Express)',
};

/**
 * The variants that replace the global Request/Response (@hono/node-server at its defaults):
 * reported, never counted as a peer held to our rule. Any other variant that does is refused.
 */
export const REPLACES_GLOBALS = new Set(['hono-express5', 'hono-express5+json', 'hono-node']);

export function describeVariant(id: string): string {
  const [base, routes] = id.split('@');
  const label = VARIANTS[base!] ?? base!;
  return routes ? `${label}, ${routes === 'many' ? '1,000 routes' : '1 route'}` : label;
}
