/**
 * The app bench/migrate.ts runs `migrate` on: a CommonJS Express 5 API of `routers` router files,
 * routes/r00.js … (10 routes each), mounted one by one in server.js behind `express.json()`, with a
 * `requireUser` guard on some routes, a 404 handler and a JSON error handler. The routers vary as
 * real ones do: some guard their writes and some only their comments, some write
 * `router.route('/:id')`, some read their records with `await` and pass errors to `next`.
 *
 * Also the hand-written endpoints the bench compares the generated ones with, for one router: what
 * docs/migrating.md has one write, in two forms (`Response.json` as its table writes it, and its
 * `json()` helper that sends `res.json`'s Content-Type).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One request per route, to compare the app's answers before and after the command. */
export interface RouteRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: string;
}

export const TOKEN = 'Bearer u1';
export const NEW_ITEM = JSON.stringify({ name: 'widget', price: 12.5, tags: ['new', 'blue'] });
const COMMENT = JSON.stringify({ text: 'Arrived on time.' });

export const routerName = (i: number): string => `r${String(i).padStart(2, '0')}`;

const PACKAGE = `{
  "name": "catalog-api",
  "version": "1.0.0",
  "private": true,
  "main": "server.js",
  "scripts": { "start": "node server.js" },
  "dependencies": { "express": "^5.1.0", "express-file-endpoints": "^0.1.0" }
}
`;

const AUTH = `// requireUser: the bearer token names the user; without one, a 401.
function requireUser(req, res, next) {
  const match = /^Bearer (\\S+)$/.exec(req.get('authorization') ?? '');
  if (!match) return res.status(401).json({ error: 'sign in first' });
  req.user = { id: match[1] };
  next();
}

module.exports = { requireUser };
`;

const DATA = `// The records of every resource: read-only, made on first use.
const tables = new Map();

function table(resource) {
  let rows = tables.get(resource);
  if (!rows) {
    rows = Array.from({ length: 100 }, (_, i) => ({
      id: String(i + 1),
      name: \`\${resource} item \${i + 1}\`,
      price: Math.round((i * 7.31 + 3) * 100) / 100,
      owner: \`u\${i % 7}\`,
    }));
    tables.set(resource, rows);
  }
  return rows;
}

exports.list = (resource, page) => table(resource).slice((page - 1) * 10, page * 10);
exports.find = (resource, id) => table(resource).find((row) => row.id === id);
exports.load = async (resource, id) => exports.find(resource, id);
exports.search = (resource, q) => table(resource).filter((row) => row.name.includes(q)).slice(0, 10);
exports.comments = (resource, id) => [{ id: '1', on: id, text: \`First comment on \${resource} \${id}\` }];
`;

function server(routers: number): string {
  const mounts = Array.from({ length: routers }, (_, i) => {
    const name = routerName(i);
    return `app.use('/api/${name}', require('./routes/${name}'));`;
  });
  return `// The catalog API: every resource has its router under routes/.
const express = require('express');

const app = express();
app.disable('x-powered-by');
app.use(express.json());

${mounts.join('\n')}

app.use((req, res) => res.status(404).json({ error: 'not found' }));
// eslint-disable-next-line no-unused-vars -- Express tells error handlers by their four parameters
app.use((err, req, res, next) => {
  const status = err.status ?? err.statusCode ?? 500;
  res.status(status).json({ error: status === 500 ? 'Internal Server Error' : err.message });
});

if (require.main === module) {
  const port = Number(process.env.PORT ?? 3000);
  app.listen(port, () => console.log(\`listening on \${port}\`));
}

module.exports = app;
`;
}

/** Router `i`: 10 routes, 5 GET, 2 POST, 1 PUT, 2 DELETE. */
function router(i: number): string {
  const name = routerName(i);
  // Even routers guard their writes; odd ones only the comments and PUT.
  const guardWrites = i % 2 === 0;
  const guard = (on: boolean) => (on ? 'requireUser, ' : '');
  // Some read the record with await and hand errors to next().
  const asyncRead = i % 4 === 3;
  const getOne = asyncRead
    ? `async (req, res, next) => {
  try {
    const item = await data.load(RESOURCE, req.params.id);
    if (!item) return res.status(404).json({ error: 'not found' });
    res.json(item);
  } catch (err) {
    next(err);
  }
}`
    : `(req, res) => {
  const item = data.find(RESOURCE, req.params.id);
  if (!item) return res.status(404).json({ error: 'not found' });
  res.json(item);
}`;
  const put = `(req, res) => {
  res.json({ ...req.body, id: req.params.id });
}`;
  const remove = `(req, res) => {
  res.sendStatus(204);
}`;
  // Some write the item routes as one router.route('/:id').
  const itemRoutes =
    i % 3 === 2
      ? `router
  .route('/:id')
  .get(${getOne.replace(/\n/g, '\n  ')})
  .put(requireUser, ${put.replace(/\n/g, '\n  ')})
  .delete(${guard(guardWrites)}${remove.replace(/\n/g, '\n  ')});`
      : `router.get('/:id', ${getOne});
router.put('/:id', requireUser, ${put});
router.delete('/:id', ${guard(guardWrites)}${remove});`;
  return `// /api/${name}: the ${name} records, their comments and their owner.
const express = require('express');
const { requireUser } = require('../lib/auth');
const data = require('../lib/data');

const RESOURCE = '${name}';
const router = express.Router();

router.get('/', (req, res) => {
  const page = Number(req.query.page) || 1;
  res.json({ items: data.list(RESOURCE, page), page });
});

router.post('/', ${guard(guardWrites)}(req, res) => {
  res.status(201).json(req.body);
});

router.get('/search', (req, res) => {
  if (!req.query.q) return res.status(400).json({ error: 'q is required' });
  res.json({ q: req.query.q, items: data.search(RESOURCE, req.query.q) });
});

${itemRoutes}

router.get('/:id/comments', (req, res) => res.json(data.comments(RESOURCE, req.params.id)));

router.post('/:id/comments', requireUser, (req, res) => {
  if (!req.body.text) return res.status(422).json({ error: 'text is required' });
  res.status(201).json({ on: req.params.id, author: req.user.id, text: req.body.text });
});

router.delete('/:id/comments/:commentId', requireUser, (req, res) => {
  res.status(204).end();
});

router.get('/:id/owner', (req, res) => {
  const item = data.find(RESOURCE, req.params.id);
  if (!item) return res.sendStatus(404);
  res.set('cache-control', 'no-store').json({ id: item.id, owner: item.owner });
});

module.exports = router;
`;
}

/** Router `i`'s routes as Express has them: method and full path, in the order of routeRequests. */
export function routesOf(i: number): { method: string; route: string }[] {
  const base = `/api/${routerName(i)}`;
  return [
    ['GET', base],
    ['POST', base],
    ['GET', `${base}/search`],
    ['GET', `${base}/:id`],
    ['PUT', `${base}/:id`],
    ['DELETE', `${base}/:id`],
    ['GET', `${base}/:id/comments`],
    ['POST', `${base}/:id/comments`],
    ['DELETE', `${base}/:id/comments/:commentId`],
    ['GET', `${base}/:id/owner`],
  ].map(([method, route]) => ({ method: method!, route: route! }));
}

function routeRequests(i: number): RouteRequest[] {
  const base = `/api/${routerName(i)}`;
  return [
    { method: 'GET', path: `${base}?page=2` },
    { method: 'POST', path: base, body: NEW_ITEM },
    { method: 'GET', path: `${base}/search?q=item%201` },
    { method: 'GET', path: `${base}/42` },
    { method: 'PUT', path: `${base}/42`, body: NEW_ITEM },
    { method: 'DELETE', path: `${base}/42` },
    { method: 'GET', path: `${base}/42/comments` },
    { method: 'POST', path: `${base}/42/comments`, body: COMMENT },
    { method: 'DELETE', path: `${base}/42/comments/7` },
    { method: 'GET', path: `${base}/42/owner` },
  ];
}

function write(dir: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

/** Writes the app into `dir`; returns one request per route. */
export function generateApp(dir: string, routers: number): RouteRequest[] {
  write(dir, 'package.json', PACKAGE);
  write(dir, 'server.js', server(routers));
  write(dir, 'lib/auth.js', AUTH);
  write(dir, 'lib/data.js', DATA);
  const requests: RouteRequest[] = [];
  for (let i = 0; i < routers; i++) {
    write(dir, `routes/${routerName(i)}.js`, router(i));
    requests.push(...routeRequests(i));
  }
  return requests;
}

/**
 * The routes of router `i` (an odd one: its POST and DELETE /:id have no middleware of their own) written
 * by hand into `<app>/<folder>`, a folder beside app/ so that the paths to lib/ are the same:
 * `plain` answers with `Response.json` as docs/migrating.md's table writes it, `helper` with its
 * `json()` helper, which sends `res.json`'s Content-Type, as the generated files do.
 */
export function writeHandWritten(app: string, folder: string, i: number, style: 'plain' | 'helper'): void {
  const name = routerName(i);
  const json = style === 'plain' ? 'Response.json' : 'json';
  const helper = style === 'plain' ? '' : `const { json } = require('${'../'.repeat(3)}lib/json');\n`;
  const up = (depth: number) => '../'.repeat(depth);
  const base = path.join(folder, 'api', name);
  write(
    app,
    path.join(base, 'endpoint.js'),
    `// GET and POST /api/${name}.
const { jsonBody } = require('express-file-endpoints');
const data = require('${up(3)}lib/data');
${helper}
exports.GET = (request) => {
  const page = Number(new URL(request.url).searchParams.get('page')) || 1;
  return ${json}({ items: data.list('${name}', page), page });
};

exports.POST = async (request) => {
  return ${json}(await jsonBody(request), { status: 201 });
};
`,
  );
  write(
    app,
    path.join(base, 'search', 'endpoint.js'),
    `// GET /api/${name}/search.
const data = require('${up(4)}lib/data');
${helper.replace(up(3), up(4))}
exports.GET = (request) => {
  const q = new URL(request.url).searchParams.get('q');
  if (!q) return ${json}({ error: 'q is required' }, { status: 400 });
  return ${json}({ q, items: data.search('${name}', q) });
};
`,
  );
  write(
    app,
    path.join(base, '[id]', 'endpoint.js'),
    `// GET, PUT and DELETE /api/${name}/:id.
const { expressMiddleware } = require('express-file-endpoints');
const { requireUser } = require('${up(4)}lib/auth');
const data = require('${up(4)}lib/data');
${helper.replace(up(3), up(4))}
exports.GET = (request, { params }) => {
  const item = data.find('${name}', params.id);
  if (!item) return ${json}({ error: 'not found' }, { status: 404 });
  return ${json}(item);
};

const signedIn = expressMiddleware(requireUser);

exports.PUT = (request, context) =>
  signedIn(request, () => ${json}({ ...context.node.req.body, id: context.params.id }), context);

exports.DELETE = () => new Response(null, { status: 204 });
`,
  );
  // The route's own middleware, in the folder's middleware.js, as the docs' "A route with its middleware" shows.
  const comment = path.join(base, '[id]', 'comments', '[commentId]');
  write(
    app,
    path.join(comment, 'middleware.js'),
    `// requireUser in front of every endpoint of this folder.
const { expressMiddleware } = require('express-file-endpoints');
const { requireUser } = require('${up(6)}lib/auth');

module.exports = expressMiddleware(requireUser);
`,
  );
  write(
    app,
    path.join(comment, 'endpoint.js'),
    `// DELETE /api/${name}/:id/comments/:commentId.
exports.DELETE = () => new Response(null, { status: 204 });
`,
  );
  if (style === 'helper')
    write(
      app,
      'lib/json.js',
      `// res.json byte for byte: Response.json, with the Content-Type Express gives it.
exports.json = (data, init = {}) => {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  return Response.json(data, { ...init, headers });
};
`,
    );
}
