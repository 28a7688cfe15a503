/**
 * The guards' invariant, as a property: an endpoint answered => every guard on its prefix ran.
 *
 * Real Express 5, Express 4 and Connect apps put a recording guard on every folder prefix of the
 * tree (`app.use('/admin', guard)`, `app.use('/users/:id', guard)`), then mount the tree, at the
 * root or under `/v1`, in every mounting form (`mountEndpoints(app)`, `app.use(mountEndpoints())`,
 * `mountEndpoints(router)`), with the host's routing settings off and on, never passed by hand. Thousands of generated paths (any
 * character percent-encoded, double encoding, hex case, `//`, dot segments, `%2F`, `%5C`, `\`,
 * trailing slashes, letter case, `;` parameters, look-alikes, overlong UTF-8) go through each app
 * over HTTP. For every request an endpoint answered:
 *   - the host's guard on each folder prefix of its route ran;
 *   - a Web guard in front (`bridgeMiddleware`) and the tree's own middleware saw, in
 *     `new URL(request.url).pathname`, exactly the path that was sent, so a check on it decides
 *     as the host's router would;
 * and no request was answered 500.
 *
 * The fixed seed runs every time; a random seed runs too and is printed when it finds something
 * (rerun it with GUARD_SEED=<seed>).
 */
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import connect from 'connect';
import express5 from 'express';
import fc from 'fast-check';
import { bridgeMiddleware, mountEndpoints, type WebMiddleware } from '../../src';
import { listen, type Listening } from '../support/net';

const express4 = require('express4') as typeof express5;

const DIR = path.join(__dirname, '../fixtures/guarded-app/app');
const FIXED_SEED = 21;
const RANDOM_SEED = Number(process.env.GUARD_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Paths per host with the fixed seed (split over its apps), then with the random one. */
const FIXED_RUNS = 10_000;
const RANDOM_RUNS = 1_000;

/** The tree's URL folders, each route as its folders; groups add nothing to a URL. */
const ROUTES: string[][] = [
  ['admin'],
  ['admin', 'secret'],
  ['admin', '[...rest]'],
  ['api', 'health'],
  ['users', '[id]', 'settings'],
  ['files', '[name]'],
  ['docs', '[[...slug]]'],
  ['café'],
  ['a b'],
  ['[tenant]', 'public'],
  ['ops'],
];

/** Folder prefixes a guard goes on: every prefix of a route short of a catch-all folder. */
const PREFIXES: string[][] = [];
for (const route of ROUTES) {
  for (let n = 1; n <= route.length; n++) {
    if (route[n - 1]!.startsWith('[...') || route[n - 1]!.startsWith('[[...')) break;
    const prefix = route.slice(0, n);
    if (!PREFIXES.some((p) => p.join('/') === prefix.join('/'))) PREFIXES.push(prefix);
  }
}

const isParam = (folder: string) => folder.startsWith('[');
/** How a folder is written in an Express path: its URL encoding, or `:name` for `[name]`. */
const expressSegment = (folder: string) =>
  isParam(folder) ? `:${folder.slice(1, -1)}` : new URL(`http://h/${folder}`).pathname.slice(1);
const guardPath = (prefix: string[]) => `/${prefix.map(expressSegment).join('/')}`;

// ---------------------------------------------------------------------------------------------
// The paths.

const hex = (byte: number, upper: boolean) => {
  const digits = byte.toString(16).padStart(2, '0');
  return `%${upper ? digits.toUpperCase() : digits}`;
};

/** One character of a folder name, spelled one way or another. */
function spellChar(char: string): fc.Arbitrary<string> {
  const bytes = [...Buffer.from(char)];
  // A request line carries no space or control character, nor anything past Latin-1, unencoded.
  const sendable = /^[\u0021-\u00ff]$/.test(char);
  const options: fc.Arbitrary<string>[] = [
    fc.constant(sendable ? char : bytes.map((b) => hex(b, true)).join('')),
    fc.constant(
      sendable
        ? char.toUpperCase()
        : hex(bytes[0]!, false) +
            bytes
              .slice(1)
              .map((b) => hex(b, true))
              .join(''),
    ),
    fc.boolean().map((upper) => bytes.map((b) => hex(b, upper)).join('')),
    // Double encoding: `a` -> `%2561`.
    fc.constant(bytes.map((b) => `%25${hex(b, true).slice(1)}`).join('')),
  ];
  const code = char.charCodeAt(0);
  if (/[a-z]/i.test(char)) {
    // Overlong UTF-8 and a full-width look-alike.
    options.push(fc.constant(`${hex(0xc0 | (code >> 6), true)}${hex(0x80 | (code & 0x3f), true)}`));
    const fullWidth = String.fromCharCode(0xff00 + code - 0x20);
    options.push(fc.constant(encodeURIComponent(fullWidth)));
  }
  return fc.oneof({ weight: 6, arbitrary: options[0]! }, ...options.slice(1));
}

const VALUE_PIECES = [
  'x',
  'A',
  '.',
  '..',
  '%2e',
  '%2E%2e',
  '%2F',
  '%5C',
  '\\',
  '%zz',
  '%C3%A9',
  ';p=1',
  '%00',
  '~',
];
const valueArb = fc
  .array(fc.constantFrom(...VALUE_PIECES), { minLength: 1, maxLength: 3 })
  .map((p) => p.join(''));

/** One folder of a route, as path segments. */
function spellFolder(folder: string): fc.Arbitrary<string[]> {
  if (folder.startsWith('[[...') || folder.startsWith('[...')) {
    return fc.array(valueArb, { minLength: folder.startsWith('[[') ? 0 : 1, maxLength: 3 });
  }
  if (isParam(folder)) return valueArb.map((v) => [v]);
  const canonical = expressSegment(folder);
  const spelled = fc.tuple(...[...folder].map(spellChar)).map((chars) => chars.join(''));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<string[]>([canonical]) },
    { weight: 2, arbitrary: fc.constant<string[]>([canonical.toUpperCase()]) },
    { weight: 6, arbitrary: spelled.map((s): string[] => [s]) },
    { weight: 1, arbitrary: fc.constant<string[]>([`${canonical};x=1`]) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%2F', '%5C', '\\', '%2f').map((sep) => [`${canonical}${sep}x`]),
    },
  );
}

const STRAYS = ['.', '..', '%2e', '%2E', '.%2e', '%2e%2E', '', 'x\\..', 'admin', '..\\admin'];

const pathArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...ROUTES),
    fc.boolean(),
    fc.constantFrom('none', 'none', 'none', 'insert', 'trailing', 'double'),
    fc.constantFrom(...STRAYS),
    fc.nat(),
  )
  .chain(([route, , bend, stray, at]) =>
    fc.tuple(...route.map(spellFolder)).map((spelled) => {
      const parts = spelled.flat();
      if (bend === 'insert') parts.splice(at % (parts.length + 1), 0, stray);
      if (bend === 'double') parts.splice(at % (parts.length + 1), 0, '');
      const p = `/${parts.join('/')}`;
      return bend === 'trailing' ? `${p}/` : p;
    }),
  );

// ---------------------------------------------------------------------------------------------
// The apps.

type Req = http.IncomingMessage & { originalUrl?: string };
type Next = (error?: unknown) => void;

/** What each request met on its way, by the probe id it carries. */
interface Trace {
  guards: string[];
  bridged?: string;
  tree?: string;
}

interface App {
  name: string;
  prefix: string;
  /** Letter case is compared (Express's `case sensitive routing`). */
  caseSensitive: boolean;
  /** Connect cannot guard a prefix with a param. */
  paramGuards: boolean;
  bridged: boolean;
  traces: Map<string, Trace>;
  server: Listening;
}

interface AppConfig {
  prefix: string;
  /** The app's `case sensitive routing` (or, for the `router` form, the Router's `caseSensitive`). */
  caseSensitive?: boolean;
  /** The app's `strict routing` (or the Router's `strict`). */
  strict?: boolean;
  bridged?: boolean;
  /**
   * How the tree is mounted; no routing option is ever passed by hand: `mountEndpoints(app)` (the
   * default at the root), `app.use(mountEndpoints())` (`use`, the default under a prefix), or the
   * guards and `mountEndpoints(router)` on an `express.Router` with settings of its own (`router`).
   */
  form?: 'app' | 'use' | 'router';
}

const traceOf = (traces: Map<string, Trace>, req: { headers: Headers | http.IncomingHttpHeaders }) => {
  const id =
    req.headers instanceof Headers
      ? req.headers.get('x-probe')
      : (req.headers['x-probe'] as string | undefined);
  return id === null || id === undefined ? undefined : traces.get(id);
};

async function startApp(kind: 'Express 5' | 'Express 4' | 'Connect', config: AppConfig): Promise<App> {
  const traces = new Map<string, Trace>();
  const isConnect = kind === 'Connect';
  const express = kind === 'Express 5' ? express5 : express4;
  const app = isConnect ? connect() : express();
  const form = config.form ?? (config.prefix === '' ? 'app' : 'use');
  const router =
    form === 'router'
      ? express.Router({ caseSensitive: config.caseSensitive, strict: config.strict })
      : undefined;
  if (!isConnect && !router && config.caseSensitive)
    (app as express5.Express).set('case sensitive routing', true);
  if (!isConnect && !router && config.strict) (app as express5.Express).set('strict routing', true);
  // Guards and the tree go on the Router when there is one; it is mounted on the app at the end.
  const host = (router ?? app) as unknown as { use(p: string, f: unknown): void };
  const use = (mountPath: string, fn: (req: Req, res: http.ServerResponse, next: Next) => void) =>
    host.use(mountPath, fn);

  if (config.bridged) {
    const webGuard: WebMiddleware = (request, next) => {
      const trace = traceOf(traces, request);
      if (trace) trace.bridged = new URL(request.url).pathname;
      return next();
    };
    use('/', bridgeMiddleware(webGuard));
  }
  if (config.prefix) use(config.prefix, (req, _res, next) => (traceOf(traces, req)?.guards.push(''), next()));
  for (const prefix of PREFIXES) {
    if (isConnect && prefix.some(isParam)) continue;
    const name = prefix.join('/');
    use(config.prefix + guardPath(prefix), (req, _res, next) => {
      traceOf(traces, req)?.guards.push(name);
      next();
    });
  }
  const treeGuard: WebMiddleware = (request, next) => {
    const trace = traceOf(traces, request);
    if (trace) trace.tree = new URL(request.url).pathname;
    return next();
  };
  const options = { dir: DIR, middleware: [treeGuard] };
  if (form === 'use') {
    const endpoints = mountEndpoints(options);
    await endpoints.ready;
    use(config.prefix || '/', endpoints);
  } else if (config.prefix === '') {
    await mountEndpoints((router ?? app) as express5.Express, options);
  } else {
    throw new Error('mountEndpoints(host) mounts at the root of its host');
  }
  if (router) (app as express5.Express).use(router);
  (app as unknown as { use(p: string, f: unknown): void }).use('/', (_req: Req, res: http.ServerResponse) => {
    res.statusCode = 404;
    res.end('app 404');
  });
  (app as unknown as { use(f: (e: unknown, q: Req, s: http.ServerResponse, n: Next) => void): void }).use(
    (error, _req, res, _next) => {
      const status = (error as { status?: unknown }).status;
      res.statusCode = typeof status === 'number' && status < 500 ? status : 500;
      res.end('app error');
    },
  );
  const server = await listen(http.createServer(app as http.RequestListener));
  const label = `${form}, ${config.prefix || '/'}${config.caseSensitive ? ', case-sensitive' : ''}${config.strict ? ', strict' : ''}${config.bridged ? ', bridged guard' : ''}`;
  return {
    name: `${kind} (${label})`,
    prefix: config.prefix,
    caseSensitive: config.caseSensitive === true,
    paramGuards: !isConnect,
    bridged: config.bridged === true,
    traces,
    server,
  };
}

// ---------------------------------------------------------------------------------------------
// Sending and checking.

interface Reply {
  status: number;
  body: string;
}

function send(app: App, agent: http.Agent, target: string, id: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: app.server.port,
      path: target,
      agent,
      headers: { 'x-probe': id },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** What is wrong with one answer, or `undefined`. */
function violation(app: App, target: string, reply: Reply, trace: Trace): string | undefined {
  if (reply.status >= 500) return `answered ${reply.status}`;
  if (reply.status !== 200) return undefined;
  const route = (JSON.parse(reply.body) as { route: string }).route;
  const folders = route.split('/').filter((f) => f !== '' && !f.startsWith('('));
  if (app.prefix && !trace.guards.includes('')) return `the guard on ${app.prefix} did not run for ${route}`;
  for (const prefix of PREFIXES) {
    if (!app.paramGuards && prefix.some(isParam)) continue;
    const covers = prefix.every((folder, i) => folders[i] === folder);
    if (covers && !trace.guards.includes(prefix.join('/')))
      return `${route} answered, but the guard on ${guardPath(prefix)} did not run`;
  }
  if (app.bridged && trace.bridged !== target)
    return `the bridged guard saw ${trace.bridged} for ${route}, not the path sent`;
  if (trace.tree !== target) return `the tree's middleware saw ${trace.tree} for ${route}, not the path sent`;
  return undefined;
}

async function check(app: App, paths: string[], seed: number): Promise<{ served: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  let served = 0;
  const problems: string[] = [];
  try {
    let next = 0;
    const worker = async () => {
      while (next < paths.length && problems.length < 5) {
        const index = next++;
        const target = paths[index]!;
        const id = String(index);
        const trace: Trace = { guards: [] };
        app.traces.set(id, trace);
        const reply = await send(app, agent, target, id);
        app.traces.delete(id);
        if (reply.status === 200) served++;
        const wrong = violation(app, target, reply, trace);
        if (wrong) problems.push(`${target}: ${wrong}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  } finally {
    agent.destroy();
  }
  expect(problems, `${app.name}, seed ${seed} (rerun with GUARD_SEED=${seed})`).to.deep.equal([]);
  return { served };
}

/**
 * Each Express at the root and under `/v1`, with Express's default routing and with both settings
 * on, in every mounting form: the settings reach the tree from the host alone.
 */
const EXPRESS_APPS: AppConfig[] = [
  { prefix: '', bridged: true },
  { prefix: '/v1' },
  { prefix: '', caseSensitive: true, strict: true },
  { prefix: '', caseSensitive: true, strict: true, form: 'use', bridged: true },
  { prefix: '/v1', caseSensitive: true, strict: true, bridged: true },
  { prefix: '', caseSensitive: true, strict: true, form: 'router' },
];

const HOSTS: { kind: 'Express 5' | 'Express 4' | 'Connect'; configs: AppConfig[] }[] = [
  { kind: 'Express 5', configs: EXPRESS_APPS },
  { kind: 'Express 4', configs: EXPRESS_APPS },
  { kind: 'Connect', configs: [{ prefix: '', bridged: true }, { prefix: '/v1' }] },
];

/** A path of the tree under the app's mount, the mount spelled oddly now and then. */
function underMount(prefix: string, paths: string[]): string[] {
  if (prefix === '') return paths;
  const spellings = [prefix, prefix.toUpperCase(), '/%76%31', `${prefix}/.`, `/x/..${prefix}`];
  return paths.map((p, i) => (i % 10 === 0 ? spellings[(i / 10) % spellings.length]! : prefix) + p);
}

describe('guards in front of the tree (property: an endpoint answered => every guard on its prefix ran)', function () {
  this.timeout(120_000);
  for (const { kind, configs } of HOSTS) {
    it(`${kind}: ${FIXED_RUNS} paths with seed ${FIXED_SEED}, ${RANDOM_RUNS} with seed ${RANDOM_SEED}`, async () => {
      const fixed = fc.sample(pathArb, { seed: FIXED_SEED, numRuns: FIXED_RUNS });
      const random = fc.sample(pathArb, { seed: RANDOM_SEED, numRuns: RANDOM_RUNS });
      const share = Math.ceil(fixed.length / configs.length);
      let served = 0;
      for (const [i, config] of configs.entries()) {
        const app = await startApp(kind, config);
        try {
          const mine = fixed.slice(i * share, (i + 1) * share);
          served += (await check(app, underMount(config.prefix, mine), FIXED_SEED)).served;
          const theirs = random.filter((_, j) => j % configs.length === i);
          served += (await check(app, underMount(config.prefix, theirs), RANDOM_SEED)).served;
        } finally {
          await app.server.close();
        }
      }
      // The generator must reach endpoints often, or the property proves little.
      expect(served, 'paths an endpoint answered').to.be.greaterThan(FIXED_RUNS / 8);
    });
  }
});
