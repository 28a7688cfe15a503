/**
 * Server variants: what each one is, in words, for the results tables. The code that builds them
 * is in `../server.ts`; a variant id is `<host>-<library>[+json]`.
 */
export interface VariantInfo {
  id: string;
  label: string;
}

export const VARIANTS: Record<string, string> = {
  'node-raw': 'raw node:http handler',
  'node-response': "raw node:http + the handler's `Response.json()` built and dropped (diagnostic)",
  'express5-floor': 'Express 5 floor: `app.use((req, res) => res.end(body))`',
  'express5-response': "Express 5 floor + the handler's `Response.json()` built and dropped (diagnostic)",
  'express4-floor': 'Express 4 floor: `app.use((req, res) => res.end(body))`',
  'express5-native': 'Express 5 native route (`app.get`/`app.post` + `res.json`)',
  'express4-native': 'Express 4 native route (`app.get`/`app.post` + `res.json`)',
  'express5-native+json': 'Express 5 native route behind `express.json()`',
  'express4-native+json': 'Express 4 native route behind `express.json()`',
  'ee-express5': 'express-endpoints in Express 5',
  'ee-express4': 'express-endpoints in Express 4',
  'ee-express5+json': 'express-endpoints in Express 5 behind `express.json()`',
  'hono-express5': '@hono/node-server `getRequestListener` in Express 5 (defaults)',
  'hono-express5+json': '@hono/node-server in Express 5 behind `express.json()`',
  'whatwg-express5': '@whatwg-node/server `createServerAdapter` in Express 5',
  'whatwg-express5+json': '@whatwg-node/server in Express 5 behind `express.json()`',
  'ee-node': 'express-endpoints on node:http (no Express)',
  'hono-node': '@hono/node-server standalone (no Express)',
  'honoNoGlobals-express5': '@hono/node-server in Express 5, `overrideGlobalObjects: false`',
  'honoNoGlobals-node': '@hono/node-server standalone, `overrideGlobalObjects: false`',
};

export function describeVariant(id: string): string {
  const [base, routes] = id.split('@');
  const label = VARIANTS[base!] ?? base!;
  return routes ? `${label}, ${routes === 'many' ? '1,000 routes' : '1 route'}` : label;
}
