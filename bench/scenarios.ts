/**
 * What the bench measures and what it must reach: every scenario (its request, the exact bytes
 * every variant must answer, the variants side by side and the baseline of its ratio columns)
 * and every target. Measuring (lib/measure-*.ts) and the report (lib/report*.ts) only read this.
 *
 * Targets are about the same-round ratio of server CPU per request (lower is better) unless they
 * say otherwise: it is the figure a busy machine or a saturated load generator disturbs least.
 */
import {
  CHUNK_SIZE,
  ECHO_BODY,
  FILL_BYTE,
  HELLO,
  LAST_ROUTE,
  STREAM_CHUNKS,
  routeBody,
  routeName,
} from './lib/payloads';

export interface ThroughputScenario {
  id: 'a' | 'b' | 'c' | 'd';
  title: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  expected: { status: number; body: Buffer };
  variants: string[];
  /** The variant every ratio column is relative to. */
  baseline: string;
  notes?: string;
}

const json = (value: unknown) => ({ status: 200, body: Buffer.from(JSON.stringify(value)) });

export const THROUGHPUT: ThroughputScenario[] = [
  {
    id: 'a',
    title: '(a) GET, small JSON',
    method: 'GET',
    path: '/api/hello',
    expected: json(HELLO),
    variants: [
      'node-raw',
      'node-response',
      'node-readfloor',
      'node-readfloor+request',
      'express5-floor',
      'express5-response',
      'express5-readfloor',
      'express5-readfloor+request',
      'express5-readfloor+etag',
      'express5-readfloor+request+etag',
      'express5-native',
      'express5-native+bridged',
      'ee-express5',
      'ee-express5+request',
      'ee-express5+ctx',
      'ee-express5+helmet',
      'ee-express5+guard',
      'express5-native+helmet',
      'express5-native+guard',
      'ee-express5+noetag',
      'hono-express5',
      'honoNoGlobals-express5',
      'srvx-express5',
      'remix-express5',
      'whatwg-express5',
      'express4-floor',
      'express4-native',
      'ee-express4',
      'ee-node',
      'ee-node+request',
      'hono-node',
      'honoNoGlobals-node',
      'srvx-node',
      'remix-node',
      'whatwg-node',
    ],
    baseline: 'express5-native',
    notes:
      "The handler is `GET()`: it declares no parameters, so express-file-endpoints builds no Request for it (the peers build theirs lazily too). The `+request` rows run the same handler declared as `GET(_request)`, for which it builds one. `+bridged` puts a Web middleware that only calls `next()` in front of the native route, through `bridgeMiddleware`. `+ctx` mounts with `asyncContext: true` (what `getContext()` costs). The `readfloor` rows are the floor of any bridge that hands out the real `Response`: `Response.json()` built, its body read back, its headers copied and written with one `end()`, no routing; `+request` also builds the real Request a `GET(request)` handler gets; `+etag` also sends the weak ETag native Express sends (and the endpoints do, as the app's default), so the SHA-1 both pay is compared like for like.",
  },
  {
    id: 'b',
    title: '(b) POST, 1 KiB JSON echoed',
    method: 'POST',
    path: '/api/echo',
    headers: { 'content-type': 'application/json' },
    body: ECHO_BODY,
    expected: { status: 200, body: Buffer.from(ECHO_BODY) },
    variants: [
      'node-raw',
      'node-reqstream',
      'express5-reqstream',
      'express5-reqstream+etag',
      'express5-native+json',
      'ee-express5',
      'ee-express5+noetag',
      'ee-express5+json',
      'ee-express5+contract',
      'ee-express5+byhand',
      'hono-express5',
      'hono-express5+json',
      'honoNoGlobals-express5',
      'srvx-express5',
      'remix-express5',
      'whatwg-express5',
      'whatwg-express5+json',
      'express4-native+json',
      'ee-node',
      'ee-node+contract',
      'ee-node+byhand',
      'hono-node',
      'honoNoGlobals-node',
      'srvx-node',
      'remix-node',
      'whatwg-node',
    ],
    baseline: 'express5-native+json',
    notes:
      'The `reqstream` rows are the floor of any bridge that hands out a real Request: one over a pull stream of the Node request, its JSON read, and the `Response.json()` of it written as `readfloor` writes one (`+etag`: with the weak ETag native Express sends). `+json`: `express.json()` runs before the route or bridge, so the body arrives already parsed. `+contract`: the handler is `defineHandler({ body: EchoDocument }, …)`, a Zod schema of the document; `+byhand`: the same schema applied in a plain handler (`request.json()`, then `safeParse`), as one writes it without contracts.',
  },
  {
    id: 'c',
    title: '(c) GET, 1 MiB streamed response (16 × 64 KiB, chunked)',
    method: 'GET',
    path: '/api/stream',
    expected: { status: 200, body: Buffer.alloc(CHUNK_SIZE * STREAM_CHUNKS, FILL_BYTE) },
    variants: [
      'node-raw',
      'express5-native',
      'ee-express5',
      'hono-express5',
      'honoNoGlobals-express5',
      'srvx-express5',
      'remix-express5',
      'whatwg-express5',
      'ee-node',
      'hono-node',
      'srvx-node',
    ],
    baseline: 'express5-native',
  },
  {
    id: 'd',
    title: `(d) 1,000 endpoints vs 1: GET /api/${routeName(LAST_ROUTE)}/42, the route Express tries last`,
    method: 'GET',
    path: `/api/${routeName(LAST_ROUTE)}/42`,
    expected: json(routeBody(LAST_ROUTE, '42')),
    variants: [
      'ee-express5@one',
      'ee-express5@many',
      'express5-native@one',
      'express5-native@many',
      'ee-node@one',
      'ee-node@many',
    ],
    baseline: 'ee-express5@one',
  },
];

/**
 * `cpu`: median same-round ratio of server CPU per request, met when `≤ bar` (or `< bar` for
 * "ahead of"). `rps`: median same-round ratio of requests per second, met when `≥ bar`.
 */
export interface Target {
  scenario: ThroughputScenario['id'];
  group: string;
  variant: string;
  vs: string;
  metric: 'cpu' | 'rps';
  op: '≤' | '<' | '≥';
  bar: number;
  /** Not among the targets: shown below them, for information. */
  extra?: boolean;
}

const cpu = (
  scenario: Target['scenario'],
  group: string,
  variant: string,
  vs: string,
  bar: number,
): Target => ({
  scenario,
  group,
  variant,
  vs,
  metric: 'cpu',
  op: '≤',
  bar,
});
const ahead = (scenario: Target['scenario'], group: string, variant: string, vs: string): Target => ({
  ...cpu(scenario, group, variant, vs, 1),
  op: '<',
});
const extra = (target: Target): Target => ({ ...target, extra: true });

/** Bars for information, one group of them: `[variant, against, bar]` each. */
const likeForLike = (
  scenario: Target['scenario'],
  group: string,
  bars: [variant: string, vs: string, bar: number][],
): Target[] => bars.map(([variant, vs, bar]) => extra(cpu(scenario, group, variant, vs, bar)));

export const TARGETS: Target[] = [
  // Against the floor a real Request and Response allow, and the peers that run the same handler.
  cpu('a', '(a) GET in Express 5, `GET()`', 'ee-express5', 'express5-readfloor', 1.1),
  cpu('a', '(a) GET in Express 5, `GET()`', 'ee-express5', 'honoNoGlobals-express5', 1.0),
  cpu('a', '(a) GET in Express 5, `GET()`', 'ee-express5', 'srvx-express5', 1.05),
  cpu('a', '(a) GET on node:http, `GET()`', 'ee-node', 'node-readfloor', 1.1),
  cpu('a', '(a) GET on node:http, `GET()`', 'ee-node', 'honoNoGlobals-node', 1.0),
  cpu('a', '(a) GET on node:http, `GET()`', 'ee-node', 'srvx-node', 1.05),
  cpu('a', '(a) GET in Express 5, `GET(request)`', 'ee-express5+request', 'express5-readfloor+request', 1.1),
  cpu('a', '(a) GET in Express 5, `asyncContext: true`', 'ee-express5+ctx', 'ee-express5', 1.05),
  cpu('a', '(a) `expressMiddleware`, a trivial guard', 'ee-express5+guard', 'ee-express5', 1.05),
  cpu('b', '(b) POST 1 KiB JSON echo', 'ee-express5', 'express5-reqstream', 1.1),
  cpu('b', '(b) POST 1 KiB JSON echo', 'ee-express5', 'srvx-express5', 1.0),
  cpu('b', '(b) POST 1 KiB JSON echo', 'ee-express5', 'honoNoGlobals-express5', 1.0),
  ...['whatwg-express5', 'remix-express5'].map((peer) =>
    ahead('b', '(b) POST 1 KiB JSON echo, ahead of', 'ee-express5', peer),
  ),
  {
    scenario: 'c',
    group: '(c) 1 MiB stream',
    variant: 'ee-express5',
    vs: 'express5-native',
    metric: 'rps',
    op: '≥',
    bar: 0.9,
  },
  cpu('d', '(d) 1,000 endpoints', 'ee-express5@many', 'ee-express5@one', 1.05),
  cpu('d', '(d) 1,000 endpoints', 'ee-node@many', 'ee-node@one', 1.05),
  // Like for like, where the targets' floors and peers send no ETag and an Express app's endpoints do.
  ...likeForLike('a', '(a) GET in Express 5, `GET()`, like for like', [
    ['ee-express5', 'express5-readfloor+etag', 1.1],
    ['ee-express5+noetag', 'express5-readfloor', 1.1],
    ['ee-express5+noetag', 'honoNoGlobals-express5', 1.0],
    ['ee-express5+noetag', 'srvx-express5', 1.05],
  ]),
  ...likeForLike('a', '(a) GET in Express 5, `GET(request)`, like for like', [
    ['ee-express5+request', 'express5-readfloor+request+etag', 1.1],
  ]),
  ...likeForLike('b', '(b) POST 1 KiB JSON echo, like for like', [
    ['ee-express5', 'express5-reqstream+etag', 1.1],
    ['ee-express5+noetag', 'express5-reqstream', 1.1],
    ['ee-express5+noetag', 'srvx-express5', 1.0],
    ['ee-express5+noetag', 'honoNoGlobals-express5', 1.0],
  ]),
  // The same bars where the targets set none, and the earlier bars against native routes.
  extra(cpu('a', '(a) GET in Express 5', 'ee-express5', 'express5-native', 1.0)),
  extra(cpu('b', '(b) POST 1 KiB JSON echo', 'ee-express5', 'express5-native+json', 1.0)),
  extra(cpu('a', '(a) GET in Express 4', 'ee-express4', 'express4-native', 1.0)),
  extra(cpu('a', '(a) GET on node:http, peers', 'ee-node', 'honoNoGlobals-node', 0.85)),
  extra(cpu('a', '(a) GET on node:http, peers', 'ee-node', 'whatwg-node', 0.7)),
  extra(cpu('b', '(b) POST behind `express.json()`', 'ee-express5+json', 'express5-native+json', 1.0)),
  ...['honoNoGlobals-node', 'srvx-node', 'remix-node', 'whatwg-node'].map((peer) =>
    extra(ahead('b', '(b) POST on node:http, no-global peers', 'ee-node', peer)),
  ),
];

/** (e) Startup over 1,000 endpoints: the median of fresh processes must stay under these. */
export const STARTUP_LIMITS: { tree: string; case: 'cold' | 'warm'; maxMs: number; extra?: boolean }[] = [
  { tree: 'JavaScript', case: 'cold', maxMs: 500 },
  { tree: 'TypeScript (ES module package)', case: 'cold', maxMs: 1000 },
  { tree: 'TypeScript (ES module package)', case: 'warm', maxMs: 800 },
  { tree: 'TypeScript (CommonJS package)', case: 'cold', maxMs: 1000 },
  { tree: 'TypeScript (CommonJS package)', case: 'warm', maxMs: 800 },
  { tree: 'JavaScript', case: 'warm', maxMs: 500, extra: true },
];
/** (e) From process start to the first answered request (bench/lib/measure-first-answer.ts): its rows. */
export const FIRST_ANSWER = {
  baseline: 'Express, one route (baseline)',
  build: 'a build, NODE_ENV=production',
  buildHashed: 'a build, NODE_ENV unset: the tree is hashed against the build',
  bundle: 'a single-file bundle (esbuild), NODE_ENV=production',
  tsx: 'TypeScript, no build, ES module package: tsx, cold',
  stripping: "TypeScript, no build, ES module package: Node's type stripping",
} as const;
/**
 * (e) Their targets: a build and a single-file bundle add at most `overBaselineMs` to the bare
 * Express app; TypeScript without a build answers within `typeScriptMs`.
 */
export const FIRST_ANSWER_LIMITS = { overBaselineMs: 100, typeScriptMs: 1500 };
/** (e) For information: what validation adds to discovery + loading. */
export const MAX_VALIDATION_SHARE = 0.2;

/** (f) 256 MiB each way: every variant against raw node:http piping in the same round. */
export const TRANSFER = {
  variants: ['node-raw', 'ee-node', 'ee-express5', 'hono-node'],
  baseline: 'node-raw',
  judged: ['ee-node', 'ee-express5'],
  minRatio: 0.8,
  maxGrowth: 64 * 1024 * 1024,
};
