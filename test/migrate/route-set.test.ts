/**
 * migrate, as a property: for generated route tables, the route set before (Express's own router) equals the
 * route set after (the tree mounted in front of what is left of the routers), per method.
 *
 * Each table is a few routers under mount prefixes, with routes of every method whose paths are static
 * segments, params, optional params (Express 4's `:id?`, Express 5's `{/:id}`) and wildcards (Express 4's `*`,
 * Express 5's `*rest`), written as a CommonJS app: server.js and routes/*.js. Every handler answers with the
 * route's number and its params, in a form the command rewrites whole. The app is served as it was written,
 * then migrated with planMigration and writePlan and its entry required afresh, exactly what the user gets.
 * Both are asked the same probes (each route's paths with sample values, and the near misses around them:
 * an extra segment, a missing one, another static name, another letter case, a trailing slash) for every
 * method, and must answer each with the same route and params, or both with the same non-route answer.
 * A route the command leaves in its router still answers there, so what it leaves counts the same.
 *
 * One difference is documented, not compared: a trailing slash after a wildcard (docs/migrating.md).
 *
 * Each run draws a fresh seed; fast-check prints it, and the path, with a failure, and the shrunk table is
 * printed as Express lines with the plan and the answers that differ.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request, type RequestListener, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import fc from 'fast-check';
import { planMigration, writePlan, type Plan } from '../../src/migrate';
import { ensureBuilt, root as ROOT } from '../integration/loading-apps';

/** Runs per Express major. */
const RUNS = Number(process.env.ROUTE_SET_RUNS ?? 30);

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'all';
const METHODS: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete', 'all'];
/** The methods every probe is sent with. OPTIONS is left out: its answer differs, as docs/migrating.md says. */
const PROBE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

type Segment =
  | { kind: 'static'; value: string }
  | { kind: 'param'; name: string; optional: boolean }
  | { kind: 'wildcard'; optional: boolean };

interface Route {
  method: Method;
  segments: Segment[];
}

interface RouterSpec {
  /** The mount prefix, `''` for `app.use(router)`. */
  prefix: string;
  routes: Route[];
}

interface Table {
  routers: RouterSpec[];
}

const STATICS = ['a', 'b', 'items'];
const PARAM_NAMES = ['id', 'name'];
/** Mount prefixes: none, static ones (one a static name of the routes too), and one with a param. */
const PREFIXES = ['', '/p', '/q', '/p/q', '/a', '/u/:uid'];

/** Express 5's wildcard name; Express 4's `*` is `req.params[0]`. */
const REST = 'rest';

function segmentArb(): fc.Arbitrary<Segment> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(...STATICS).map((value): Segment => ({ kind: 'static', value })),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({ name: fc.constantFrom(...PARAM_NAMES), optional: fc.boolean() })
        .map(({ name, optional }): Segment => ({ kind: 'param', name, optional })),
    },
  );
}

function lastSegmentArb(major: number): fc.Arbitrary<Segment> {
  return fc.oneof(
    { weight: 4, arbitrary: segmentArb() },
    {
      weight: 1,
      arbitrary: fc
        .boolean()
        // Express 4 has no optional wildcard: `/*` already matches the empty rest.
        .map((optional): Segment => ({ kind: 'wildcard', optional: optional && major >= 5 })),
    },
  );
}

/** A route's segments: a wildcard only last, and each param name once in the path. */
function routeArb(major: number): fc.Arbitrary<Route> {
  const segments = fc.oneof(
    { weight: 1, arbitrary: fc.constant<Segment[]>([]) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.array(segmentArb(), { maxLength: 2 }), lastSegmentArb(major))
        .map(([head, last]) => [...head, last]),
    },
  );
  return fc.record({ method: fc.constantFrom(...METHODS), segments }).filter(({ segments }) => {
    const names = segments.flatMap((s) => (s.kind === 'param' ? [s.name] : []));
    return new Set(names).size === names.length;
  });
}

function tableArb(major: number): fc.Arbitrary<Table> {
  return fc.record({
    routers: fc.array(
      fc.record({
        prefix: fc.constantFrom(...PREFIXES),
        routes: fc.array(routeArb(major), { minLength: 1, maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  });
}

/** The route's path as Express `major` writes it. */
function expressPath(segments: readonly Segment[], major: number): string {
  if (segments.length === 0) return '/';
  return segments
    .map((s) => {
      if (s.kind === 'static') return `/${s.value}`;
      if (s.kind === 'param') {
        if (!s.optional) return `/:${s.name}`;
        return major >= 5 ? `{/:${s.name}}` : `/:${s.name}?`;
      }
      if (major < 5) return '/*';
      return s.optional ? `{/*${REST}}` : `/*${REST}`;
    })
    .join('');
}

/**
 * The handler: its number in a header (for HEAD) and in the body, with its params. Every third one answers
 * with res.append(), which the command moves as it is, to run on Express's req and res: its req.params whole
 * are then expressMiddleware's, Express 4's `*` as `req.params[0]` included.
 */
function handler(route: Route, id: number, major: number): string {
  if (id % 3 === 0)
    return `(req, res) => { res.append('x-route', '${id}'); res.json({ route: ${id}, params: req.params }); }`;
  const wildcard = route.segments.some((s) => s.kind === 'wildcard');
  // Express 4's `*` is `req.params[0]`, and the tree's an array: the command rewrites `req.params[0]` as its
  // segments joined, but not a `req.params` read whole, so each param is read by its name.
  const params =
    wildcard && major < 5
      ? `{ ${[
          ...route.segments.flatMap((s) => (s.kind === 'param' ? [`${s.name}: req.params.${s.name}`] : [])),
          '0: req.params[0]',
        ].join(', ')} }`
      : 'req.params';
  return `(req, res) => res.set('x-route', '${id}').json({ route: ${id}, params: ${params} })`;
}

/** The app's files: server.js mounting each router, and routes/r<n>.js. */
function appFiles(table: Table, major: number): Record<string, string> {
  const files: Record<string, string> = { 'package.json': '{ "name": "app" }\n' };
  const mounts = table.routers.map((router, n) =>
    router.prefix === ''
      ? `app.use(require('./routes/r${n}'));`
      : `app.use('${router.prefix}', require('./routes/r${n}'));`,
  );
  files['server.js'] = [
    "const express = require('express');",
    'const app = express();',
    ...mounts,
    'module.exports = app;',
    '',
  ].join('\n');
  let id = 0;
  table.routers.forEach((router, n) => {
    const lines = router.routes.map(
      (route) =>
        `router.${route.method}('${expressPath(route.segments, major)}', ${handler(route, id++, major)});`,
    );
    files[`routes/r${n}.js`] = [
      "const express = require('express');",
      'const router = express.Router();',
      ...lines,
      'module.exports = router;',
      '',
    ].join('\n');
  });
  return files;
}

/** The table as its lines of Express, for a failure's message. */
function describeTable(table: Table, major: number): string {
  let id = 0;
  return table.routers
    .map((router, n) => {
      const routes = router.routes.map(
        (route) => `  r${n}.${route.method}('${expressPath(route.segments, major)}')  // route ${id++}`,
      );
      return [`app.use(${router.prefix === '' ? '' : `'${router.prefix}', `}r${n});`, ...routes].join('\n');
    })
    .join('\n');
}

/** Sample values a param takes: a plain one, a static name of the table, an encoded one. */
const PARAM_VALUES = ['7', 'a', 'x%20y'];
/** What a wildcard takes: one segment, two, and none. */
const REST_VALUES = [['x'], ['x', 'y'], []];

/** Every concrete path a route's segments spell, optional parts left out or in. */
function variants(segments: readonly Segment[]): Segment[][] {
  let out: Segment[][] = [[]];
  for (const s of segments) {
    const optional = s.kind !== 'static' && s.optional;
    const required: Segment = s.kind === 'static' ? s : { ...s, optional: false };
    out = optional ? out.flatMap((v) => [v, [...v, required]]) : out.map((v) => [...v, required]);
  }
  return out;
}

function spell(segments: readonly Segment[], value: string, rest: readonly string[]): string[] {
  return segments.flatMap((s) =>
    s.kind === 'static' ? [s.value] : s.kind === 'param' ? [value] : [...rest],
  );
}

const join = (parts: readonly string[]) => `/${parts.join('/')}`;

/** A mount prefix's segments: the router's params are its own, but the tree's params include these. */
function prefixSegments(prefix: string): Segment[] {
  return prefix
    .split('/')
    .filter(Boolean)
    .map((part): Segment =>
      part.startsWith(':')
        ? { kind: 'param', name: part.slice(1), optional: false }
        : { kind: 'static', value: part },
    );
}

/** The probes: each route's paths with sample values, and the near misses around them. */
function probes(table: Table): string[] {
  const out = new Set<string>(['/', '/zz']);
  for (const router of table.routers) {
    const prefix = prefixSegments(router.prefix);
    if (prefix.length > 0) {
      const parts = spell(prefix, PARAM_VALUES[0]!, []);
      out.add(join(parts));
      out.add(`${join(parts)}/`);
    }
    for (const route of router.routes) {
      for (const variant of variants(route.segments)) {
        const full = [...prefix, ...variant];
        const hasWildcard = full.some((s) => s.kind === 'wildcard');
        for (const value of PARAM_VALUES) {
          for (const rest of hasWildcard ? REST_VALUES : [[]]) {
            const parts = spell(full, value, rest);
            out.add(join(parts));
            // A wildcard's rest, and a trailing slash after it: `/files/` and `/files/x/`.
            if (hasWildcard) out.add(`${join(parts)}/`.replace(/^\/\/$/, '/'));
            if (value !== PARAM_VALUES[0] || rest !== REST_VALUES[0]) continue;
            // The near misses, around the plain spelling.
            out.add(`${join(parts)}/`.replace(/^\/\/$/, '/'));
            out.add(join([...parts, 'zz']));
            if (parts.length > 0) out.add(join(parts.slice(0, -1)));
            parts.forEach((part, i) => {
              if (!/^[a-z]+$/.test(part)) return;
              out.add(join(parts.map((p, j) => (j === i ? 'zz' : p))));
              out.add(join(parts.map((p, j) => (j === i ? p.toUpperCase() : p))));
            });
          }
        }
      }
    }
  }
  return [...out];
}

interface Answer {
  status: number;
  route: string | null;
  body: unknown;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

function send(port: number, method: string, target: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: target, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const route = res.headers['x-route'];
        const json = /json/.test(res.headers['content-type'] ?? '');
        resolve({
          status: res.statusCode!,
          route: typeof route === 'string' ? route : null,
          body: method === 'HEAD' ? null : json ? (JSON.parse(text) as unknown) : text,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function listen(app: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** Every probe, with every method: `METHOD path` -> the answer. */
async function routeSet(port: number, paths: readonly string[]): Promise<Map<string, Answer>> {
  const keys = paths.flatMap((p) => PROBE_METHODS.map((m) => [m, p] as const));
  const answers = new Map<string, Answer>();
  const queue = [...keys];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [method, target] = next;
        answers.set(`${method} ${target}`, await send(port, method, target));
      }
    }),
  );
  return answers;
}

/** The app's entry, required afresh: nothing of the temp folder's modules is kept from an earlier run. */
function requireEntry(dir: string): RequestListener {
  for (const file of Object.keys(require.cache))
    if (file.startsWith(dir + path.sep)) delete require.cache[file];
  return createRequire(path.join(dir, 'server.js'))('./server.js') as RequestListener;
}

function writeApp(files: Record<string, string>, major: number): string {
  // Its real path: the one require.cache names the app's modules by.
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'ee-route-set-')));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  mkdirSync(path.join(dir, 'node_modules'));
  const express = path.join(ROOT, 'node_modules', major >= 5 ? 'express' : 'express4');
  symlinkSync(express, path.join(dir, 'node_modules/express'), 'dir');
  // The library as the app installed it: what the rewritten entry and the endpoint files require.
  symlinkSync(ROOT, path.join(dir, 'node_modules/express-file-endpoints'), 'dir');
  return dir;
}

const show = (answer: Answer | undefined) =>
  answer === undefined
    ? 'nothing'
    : answer.route !== null
      ? `${answer.status} ${JSON.stringify(answer.body)} (x-route ${answer.route})`
      : `${answer.status} ${typeof answer.body === 'string' ? answer.body.trim().slice(0, 80) : JSON.stringify(answer.body)}`;

/** A JSON value as text, its keys sorted: params are compared by name, not by the order they come in. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );

/** The same answer: status, route and body (params included); a HEAD by its status and route header. */
const same = (a: Answer, b: Answer) =>
  a.status === b.status && a.route === b.route && canonical(a.body) === canonical(b.body);

/** Express 4's `*` matched nothing: `req.params[0]` is `''`. */
const emptyRest = (answer: Answer) =>
  (answer.body as { params?: Record<string, unknown> } | null)?.params?.[0] === '';

async function check(table: Table, major: number): Promise<void> {
  const dir = writeApp(appFiles(table, major), major);
  const servers: Server[] = [];
  try {
    const paths = probes(table);
    const before = await listen(requireEntry(dir));
    servers.push(before.server);
    const expected = await routeSet(before.port, paths);

    const plan: Plan = planMigration({
      entry: path.join(dir, 'server.js'),
      dir: path.join(dir, 'app'),
      major,
    });
    // Each handler is rewritten but the res.append() ones, moved as they were (`handler()`).
    expect(
      plan.moved.filter((m) => m.how !== (m.note?.includes('res.append()') ? 'as-is' : 'rewritten')),
      'moved otherwise than written for',
    ).to.deep.equal([]);
    writePlan(plan);
    let migrated: RequestListener;
    try {
      migrated = requireEntry(dir);
    } catch (err) {
      throw new Error(
        `the migrated app does not start: ${(err as Error).message}\n${describeTable(table, major)}`,
      );
    }
    const after = await listen(migrated);
    servers.push(after.server);
    const actual = await routeSet(after.port, paths);

    const wildcards = new Set(
      table.routers
        .flatMap((router) => router.routes)
        .flatMap((route, id) => (route.segments.some((s) => s.kind === 'wildcard') ? [String(id)] : [])),
    );
    const differences = [...expected]
      .filter(([key, answer]) => !same(answer, actual.get(key)!))
      // docs/migrating.md, "A wildcard ends at the last segment": Express keeps a trailing slash in the
      // wildcard's value, and Express 4's `*` takes an empty rest; the tree's `[...path]` does neither.
      .filter(([key, answer]) => {
        // A HEAD has no body to tell by: its GET's answer does.
        const told = key.startsWith('HEAD ') ? (expected.get(key.replace(/^HEAD/, 'GET')) ?? answer) : answer;
        return !(
          answer.route !== null &&
          wildcards.has(answer.route) &&
          (key.endsWith('/') || emptyRest(told))
        );
      })
      .map(([key, answer]) => `${key}: Express ${show(answer)}; migrated ${show(actual.get(key))}`);
    expect(
      differences,
      [
        `Express ${major}, the route table:`,
        describeTable(table, major),
        'moved:',
        ...plan.moved.map((m) => `  ${m.method} ${m.path} -> ${m.to} (${m.how})`),
        'left:',
        ...plan.left.map((l) => `  ${l.what}: ${l.reason}`),
        'answers that differ:',
        ...differences.slice(0, 12).map((d) => `  ${d}`),
      ].join('\n'),
    ).to.deep.equal([]);
  } finally {
    await Promise.all(servers.map(close));
    for (const file of Object.keys(require.cache))
      if (file.startsWith(dir + path.sep)) delete require.cache[file];
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('migrate: the route set before equals the route set after (property)', function () {
  this.timeout(120_000);
  before(async function () {
    this.timeout(120_000);
    await ensureBuilt();
  });
  after(() => agent.destroy());

  const at = (value: string): Segment => ({ kind: 'static', value });
  const param = (name: string): Segment => ({ kind: 'param', name, optional: false });
  // A folder more specific than a later route, without its method: Express gave PUT /items/a to /items/:id,
  // and so does the folder the tree gives it to (forwards.ts), under a mount with a param too.
  const byId = (prefix: string): RouterSpec => ({
    prefix,
    routes: [
      { method: 'get', segments: [at('items'), at('a')] },
      { method: 'put', segments: [at('items'), param('id')] },
      { method: 'delete', segments: [at('items'), param('id')] },
      { method: 'get', segments: [at('items'), param('id')] },
    ],
  });
  const examples: [Table][] = [[{ routers: [byId('')] }], [{ routers: [byId('/u/:uid'), byId('/p')] }]];

  for (const major of [5, 4]) {
    it(`Express ${major}: every probe and method answered by the same route, with the same params`, async () => {
      await fc.assert(
        fc.asyncProperty(tableArb(major), (table) => check(table, major)),
        { numRuns: RUNS, examples },
      );
    });
  }
});
