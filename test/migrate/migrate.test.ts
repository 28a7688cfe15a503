/**
 * migrate's parts, in process: Express paths as folders, static route discovery across files, handlers
 * rewritten as Responses (or left as they were, with the reason), and a plan written twice.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STATUS_CODES } from 'node:http';
import { expect } from 'chai';
import { parse } from '@babel/parser';
import {
  folderPath,
  parseExpressPath,
  planMigration,
  rewriteHandler,
  sendValueFunction,
  writePlan,
  type RewriteOptions,
} from '../../src/migrate';
import { keepFilePaths } from '../../src/migrate/file-paths';
import { ensureBuilt, root as ROOT } from '../integration/loading-apps';

const folders = (p: string, major: number) => {
  const parsed = parseExpressPath(p, major);
  return 'reason' in parsed ? parsed.reason : parsed.variants.map(folderPath);
};

describe('migrate: Express paths as folders', () => {
  it('reads params, optional parts and wildcards per version', () => {
    expect(folders('/users/:id', 4)).to.deep.equal(['users/[id]']);
    expect(folders('/users/:id?', 4)).to.deep.equal(['users', 'users/[id]']);
    expect(folders('/users{/:id}', 5)).to.deep.equal(['users', 'users/[id]']);
    expect(folders('/files/*', 4)).to.deep.equal(['files/[...path]']);
    expect(folders('/files/*rest', 5)).to.deep.equal(['files/[...rest]']);
    expect(folders('/', 5)).to.deep.equal(['']);
  });

  it('names what folders cannot say', () => {
    expect(folders('/users/:id(\\d+)', 4)).to.match(/a pattern folders cannot say/);
    expect(folders('/:from-:to', 5)).to.match(/a pattern folders cannot say/);
    expect(folders('/_private', 5)).to.match(/private folder/);
  });
});

const EXPRESS_4 = { major: 4, typescript: false, params: [], body: { kind: 'node' } } as RewriteOptions;
const EXPRESS_5_JSON = { major: 5, typescript: false, params: [], body: { kind: 'json' } } as RewriteOptions;

function rewrite(source: string, options: RewriteOptions = EXPRESS_4) {
  const ast = parse(`(${source})`);
  const statement = ast.program.body[0] as unknown as { expression: Parameters<typeof rewriteHandler>[0] };
  return rewriteHandler(statement.expression, `(${source})`, options);
}

describe('migrate: rewriting a handler', () => {
  it('writes answers as Responses with the headers Express sent, and next(err) as a throw', () => {
    const result = rewrite(`async (req, res, next) => {
  try {
    const user = await find(req.params.id);
    if (!user) return res.sendStatus(404);
    res.status(200).set('x-id', user.id).json(user);
  } catch (err) {
    next(err);
  }
}`);
    expect(result.kind).to.equal('rewritten');
    const code = (result as { code: string }).code;
    expect(code).to.include('async (request, { params }) =>');
    expect(code).to.include('await find(params.id)');
    expect(code).to.include(
      "return new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });",
    );
    expect(code).to.include(
      "return Response.json(user, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'x-id': user.id } });",
    );
    expect(code).to.include('throw err;');
  });

  it('writes an arrow whose body is next(err) as a block that throws, reading what it read of req', () => {
    expect(rewrite('(req, res, next) => next(new Error("boom"))')).to.deep.include({
      kind: 'rewritten',
      code: '() => { throw new Error("boom"); }',
    });
    const reads = rewrite('(req, res, next) => next(missing(req.params.id, req.user))');
    expect((reads as { code: string }).code).to.equal(
      '(request, { params, node }) => {\n  const req = node.req;\n  throw missing(params.id, req.user);\n}',
    );
  });

  it('writes res.set({ … }) field by field, its Content-Type as the type', () => {
    const result = rewrite(
      "(req, res) => res.set({ 'X-A': 'a', Vary: 'Accept', 'Content-Type': 'text/csv' }).send('a,b')",
    );
    expect((result as { code: string }).code).to.equal(
      "() => new Response('a,b', { headers: { 'content-type': 'text/csv; charset=utf-8', 'x-a': 'a', 'vary': 'Accept' } })",
    );
    expect(rewrite('(req, res) => res.set({ [name]: "a" }).send("x")'))
      .to.have.property('reason')
      .that.match(/headers by names known only when it runs \(res.set\(\)\)/);
  });

  it('reads req.body through jsonBody under express.json(), as Express 5 had it', () => {
    const result = rewrite('(req, res) => res.status(201).json({ name: req.body.name })', EXPRESS_5_JSON);
    const code = (result as { code: string }).code;
    expect(code).to.match(/^async \(request\) => \{/);
    expect(code).to.include('const body = await jsonBody(request);');
    expect(code).to.include('Response.json({ name: body.name }, { status: 201');
  });

  it("gives Express 4's {} where jsonBody finds no JSON body", () => {
    const result = rewrite('(req, res) => res.json(req.body)', { ...EXPRESS_5_JSON, major: 4 });
    expect((result as { code: string }).code).to.include('const body = (await jsonBody(request)) ?? {};');
  });

  it('reads what middleware put on req from the Node request', () => {
    const result = rewrite('(req, res) => res.json({ user: req.user, key: req.get("x-key") })');
    const code = (result as { code: string }).code;
    expect(code).to.include('(request, { node }) =>');
    expect(code).to.include('const req = node.req;');
    expect(code).to.include("key: (request.headers.get('x-key') ?? undefined)");
  });

  it('leaves what it cannot rewrite, with the reason', () => {
    expect(rewrite('(req, res) => res.render("home")')).to.deep.equal({
      kind: 'as-is',
      reason: 'it answers with res.render(), which the command does not rewrite',
    });
    expect(rewrite('(req, res) => { db.find((err, row) => res.json(row)); }')).to.have.property(
      'reason',
      'it answers from a callback or a nested function',
    );
    expect(rewrite('(req, res, next) => next()'))
      .to.have.property('reason')
      .that.match(/without an error/);
    expect(rewrite('(req, res) => res.cookie(name, "v").json(1)'))
      .to.have.property('reason')
      .that.match(/cookie whose name is known only when it runs/);
    expect(rewrite('(req, res) => res.cookie("sid", "v", { signed: true }).json(1)'))
      .to.have.property('reason')
      .that.match(/option the command does not write out \(signed\)/);
    expect(rewrite('(req, res) => { if (req.get("a")) res.status(400); res.json(1); }'))
      .to.have.property('reason')
      .that.match(/res.status\(\) where it may run more than once, or not at all/);
    expect(rewrite('(req, res) => { if (req.get("a")) { res.status(400); } res.json(1); }'))
      .to.have.property('reason')
      .that.match(/res.status\(\) in one block and answers outside it/);
    expect(rewrite('(req, res) => { for (const x of [1]) { res.set("x", "1"); } res.json(1); }'))
      .to.have.property('reason')
      .that.match(/more than once/);
    expect(rewrite('(req, res) => res.cookie("sid", make()).json(1)'))
      .to.have.property('reason')
      .that.match(/value the command does not write out/);
  });
});

describe('migrate: file answers', () => {
  const code = (source: string) => {
    const result = rewrite(source, { ...EXPRESS_4, major: 5 });
    return result.kind === 'rewritten' ? result.code : `as-is: ${result.reason}`;
  };

  it('writes res.sendFile and res.download as sendFile, a callback that only passes errors on gone', () => {
    expect(code(`(req, res) => res.sendFile(file)`)).to.equal('(request) => sendFile(request, file)');
    expect(
      code(
        `(req, res, next) => res.sendFile(file, { root: dir, maxAge: '1d' }, (err) => { if (err) next(err); })`,
      ),
    ).to.equal("(request) => sendFile(request, file, { root: dir, maxAge: '1d' })");
    expect(code(`(req, res, next) => res.download(file, 'a.csv', (e) => e && next(e))`)).to.equal(
      "(request) => sendFile(request, file, { download: 'a.csv' })",
    );
    expect(code(`(req, res) => res.download(file, { root: dir })`)).to.equal(
      '(request) => sendFile(request, file, { download: true, root: dir })',
    );
    expect(
      code(`(req, res) => res.download(file, \`\${req.params.id}.pdf\`, { headers: { 'x-a': '1' } })`),
    ).to.equal(
      "(request, { params }) => sendFile(request, file, { download: `${params.id}.pdf`, headers: { 'x-a': '1' } })",
    );
  });

  it('leaves a file answer it cannot write the same way, with the reason', () => {
    expect(code(`(req, res) => res.sendFile(file, (err) => console.error(err))`)).to.equal(
      'as-is: it hands res.sendFile() a callback of its own',
    );
    expect(code(`(req, res, next) => res.sendFile(file, (err) => next(err))`)).to.equal(
      'as-is: it hands res.sendFile() a callback of its own',
    );
    expect(code(`(req, res) => res.sendFile(file, options)`)).to.match(/options known only when it runs/);
    expect(code(`(req, res) => res.download(file, name)`)).to.match(/may be a callback or options/);
    expect(code(`(req, res) => res.sendFile(file, { start: 0 })`)).to.match(
      /option the command does not carry over \(start\)/,
    );
    expect(code(`(req, res) => res.status(404).sendFile(file)`)).to.equal(
      'as-is: it calls res.status() before res.sendFile()',
    );
    expect(code(`(req, res) => { const sendFile = 1; res.sendFile(file); }`)).to.match(/"sendFile"/);
  });

  it("keeps an ES module's import.meta paths and a CommonJS file's __dirname, as the router had them", () => {
    const esm = keepFilePaths(
      "import { readFile } from 'node:fs/promises';\nexport const GET = async () => new Response(await readFile(new URL('./a.txt', import.meta.url)));\nexport const at = { dir: import.meta.dirname, file: import.meta.filename };\n",
      '/app/api/a/endpoint.js',
      '/app/routes/a.js',
      { esModule: true, runsAsEsModule: true },
    );
    expect(esm).to.equal(
      "import { readFile } from 'node:fs/promises';\nimport path from 'node:path';\n// a.js's folder: the code below was written there and reads its paths from it.\nconst fromDir = path.join(import.meta.dirname, '../../routes');\nexport const GET = async () => new Response(await readFile(new URL('./a.txt', new URL('../../routes/a.js', import.meta.url).href)));\nexport const at = { dir: fromDir, file: path.join(fromDir, 'a.js') };\n",
    );
    const cjs = keepFilePaths(
      "const p = require('path');\nconst path = 1;\nexports.at = { __dirname, __filename };\n",
      '/app/api/a/endpoint.js',
      '/app/api/a.js',
      { esModule: false, runsAsEsModule: false },
    );
    expect(cjs).to.equal(
      "const p = require('path');\n// a.js's folder: the code below was written there and reads its paths from it.\nconst fromDir = p.join(__dirname, '..');\nconst path = 1;\nexports.at = { __dirname: fromDir, __filename: p.join(fromDir, 'a.js') };\n",
    );
    const untouched = "exports.GET = () => Response.json({ dir: 'x' });\n";
    const cjs2 = { esModule: false, runsAsEsModule: false };
    expect(keepFilePaths(untouched, '/app/api/a/endpoint.js', '/app/routes/a.js', cjs2)).to.equal(untouched);
  });
});

describe('migrate: a plan, from the entry to the files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ee-migrate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
  };

  it('follows routers across CommonJS and ES files, keeps Express order, and a second run changes nothing', () => {
    write({
      'package.json': '{ "name": "app" }',
      'server.js': `const express = require('express');
const users = require('./routes/users');
const app = express();
app.use(express.json());
app.use('/api/users', users);
app.get(\`/health\`, (req, res) => res.send('ok'));
app.get(pathFromConfig, (req, res) => res.end());
app.get('/after', (req, res) => res.end());
module.exports = app;
`,
      'routes/users.js': `const { Router } = require('express');
const { auth } = require('../lib/auth');
const router = Router();
router.route('/').get((req, res) => res.json([])).post(auth, (req, res) => res.status(201).json(req.body));
router.get('/:id', (req, res) => res.json({ id: req.params.id }));
router.get('/new', (req, res) => res.json({}));
module.exports = router;
`,
      'lib/auth.js': 'exports.auth = (req, res, next) => next();\n',
    });
    const options = { entry: path.join(dir, 'server.js'), dir: path.join(dir, 'app'), major: 5 };
    const plan = planMigration(options);
    expect(plan.moved.map((r) => `${r.method} ${r.path} ${r.to}`)).to.deep.equal([
      'GET /api/users app/api/users/endpoint.js',
      'POST /api/users app/api/users/endpoint.js',
      'GET /api/users/:id app/api/users/[id]/endpoint.js',
      'GET /health app/health/endpoint.js',
    ]);
    expect(plan.left.map((l) => `${l.what}: ${l.reason}`)).to.deep.equal([
      "router.get('/new', …): GET /api/users/:id (routes/users.js:5) comes first in Express and matches some of its paths: the tree would pick by precedence instead",
      'app.get(pathFromConfig, …): its path is not a string the command can read without running the app',
      "app.get('/after', …): it comes after app.get(pathFromConfig, …) at server.js:7, which the command cannot move, and Express tries that first",
    ]);
    writePlan(plan);
    const users = readFileSync(path.join(dir, 'app/api/users/endpoint.js'), 'utf8');
    expect(users).to.include("const { auth } = require('../../../lib/auth');");
    expect(users).to.include('const postMiddleware = expressMiddleware(auth);');
    // Behind route middleware, req.body is what they left on the Node request.
    expect(users).to.include('Response.json(req.body, { status: 201');
    const router = readFileSync(path.join(dir, 'routes/users.js'), 'utf8');
    expect(router).not.to.include("router.route('/')");
    expect(router).to.include("router.get('/new'");
    expect(readFileSync(path.join(dir, 'server.js'), 'utf8')).to.include(
      "app.use(mountEndpoints({ dir: path.join(__dirname, 'app') }));\napp.use('/api/users', users);",
    );
    expect(planMigration(options).changes).to.deep.equal([]);
  });

  it('takes the comment lines right above a route with it, and leaves one blank line where routes went', () => {
    write({
      'package.json': '{ "name": "app" }',
      'server.js': `const express = require('express');
const app = express();

// Health, for the load balancer.
app.get('/health', (req, res) => res.send('ok'));

/**
 * The build, as the deploy wrote it.
 */
app.get('/version', (req, res) => res.json({ version: 1 }));

// Public.
app.get('/a', (req, res) => res.send('a'));
// Public.
app.post('/a', (req, res) => res.send('b'));

// Kept in Express: its path is computed.

app.get(pathFromConfig, (req, res) => res.end());

module.exports = app;
`,
    });
    writePlan(planMigration({ entry: path.join(dir, 'server.js'), dir: path.join(dir, 'app'), major: 5 }));
    expect(readFileSync(path.join(dir, 'app/health/endpoint.js'), 'utf8')).to.include(
      "\n\n// Health, for the load balancer.\nexports.GET = () => new Response('ok'",
    );
    expect(readFileSync(path.join(dir, 'app/version/endpoint.js'), 'utf8')).to.include(
      '\n\n/**\n * The build, as the deploy wrote it.\n */\nexports.GET = () => Response.json({ version: 1 }',
    );
    // Two routes of one file with the same comment: each has it.
    const both = readFileSync(path.join(dir, 'app/a/endpoint.js'), 'utf8');
    expect(both.match(/\/\/ Public\.\nexports\.(GET|POST)/g)).to.have.length(2);
    const server = readFileSync(path.join(dir, 'server.js'), 'utf8');
    expect(server).not.to.match(/Health|The build|Public/);
    // A comment with a blank line under it is not the route's: it stays, and so does a single blank line.
    expect(server).to.include(
      "app.use(mountEndpoints({ dir: path.join(__dirname, 'app') }));\n\n// Kept in Express: its path is computed.\n\napp.get(pathFromConfig",
    );
    expect(server).not.to.match(/\n\s*\n\s*\n/);
  });

  it("finds an app and a router made by require('express')() and require('express').Router()", () => {
    write({
      'package.json': '{ "name": "app" }',
      'server.js': `const app = require('express')();
app.use('/items', require('./items'));
module.exports = app;
`,
      'items.js': `const router = require('express').Router();
router.get('/:id', (req, res) => res.json({ id: req.params.id }));
module.exports = router;
`,
    });
    const plan = planMigration({ entry: path.join(dir, 'server.js'), dir: path.join(dir, 'app'), major: 5 });
    expect(plan.moved.map((r) => `${r.method} ${r.path} ${r.how}`)).to.deep.equal([
      'GET /items/:id rewritten',
    ]);
  });

  it('gives a module whose handlers res.send(value) one sendValue, and Express 4 the statuses it reads', () => {
    write({
      'package.json': '{ "name": "app" }',
      'server.js': `const express = require('express');
const app = express();
app.get('/page', async (req, res) => { const html = await render(); res.send(html); });
app.post('/page', (req, res) => res.status(202).send(made()));
async function render() { return '<p>hi</p>'; }
function made() { return { ok: true }; }
module.exports = app;
`,
    });
    const plan = planMigration({ entry: path.join(dir, 'server.js'), dir: path.join(dir, 'app'), major: 4 });
    const endpoint = plan.changes.find((c) => c.file.endsWith('endpoint.js'))!.after;
    expect(endpoint).to.include("const { STATUS_CODES } = require('node:http');");
    expect(endpoint).to.include('return sendValue(html);');
    expect(endpoint).to.include('exports.POST = () => sendValue(made(), { status: 202 });');
    expect(endpoint.match(/function sendValue\(/g)).to.have.length(1);
  });

  it('moves a route after a more specific one, unless that one stays in Express', () => {
    write({
      'package.json': '{ "name": "app" }',
      'server.js': `const express = require('express');
const app = express();
let visits = 0;
app.get('/users/me', (req, res) => res.json({ visits: ++visits }));
app.get('/users/:id', (req, res) => res.json({ id: req.params.id }));
app.get('/teams/mine', (req, res) => res.json([]));
app.get('/teams/:id', (req, res) => res.json({ id: req.params.id }));
module.exports = app;
`,
    });
    const plan = planMigration({ entry: path.join(dir, 'server.js'), dir: path.join(dir, 'app'), major: 5 });
    expect(plan.moved.map((r) => `${r.method} ${r.path}`)).to.deep.equal([
      'GET /teams/mine',
      'GET /teams/:id',
    ]);
    expect(plan.left.map((l) => `${l.what}: ${l.reason}`)).to.deep.equal([
      'get /users/me: it uses visits, a variable of server.js that other code may change: make it a module of its own that both import',
      'get /users/:id: GET /users/me (server.js:4) stays in Express and comes first there for some of its paths',
    ]);
  });

  it('lists every method of a route() chain that stays, and counts each route once', () => {
    write({
      'package.json': '{ "name": "app" }',
      'server.js': `const express = require('express');
const app = express();
app.get('/items/:name/tags', (req, res) => res.json([]));
app
  .route('/items/:id')
  .get((req, res) => res.json({ id: req.params.id }))
  .put((req, res) => res.json({ put: req.params.id }));
module.exports = app;
`,
    });
    const plan = planMigration({ entry: path.join(dir, 'server.js'), dir: path.join(dir, 'app'), major: 5 });
    expect(plan.moved.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['GET /items/:name/tags']);
    expect(plan.left.map((l) => `${l.what}: ${l.reason}`)).to.have.members([
      'get /items/:id: its param id is named name at the same place by a route moved before it, in items: a folder has one name for it',
      'put /items/:id: it stays with its route() chain',
    ]);
    expect(plan.found).to.equal(plan.moved.length + plan.left.length);
  });

  it('leaves a route that reads a value its file changes in place: a copy would be a second one', () => {
    write({
      'package.json': '{ "name": "app" }',
      'server.js': `const express = require('express');
const app = express();
const items = [];
const seen = new Map();
const LIMITS = { page: 10 };
app.get('/items', (req, res) => res.json(items.slice(0, LIMITS.page)));
app.post('/items', (req, res) => {
  items.push(req.body);
  res.sendStatus(201);
});
app.get('/seen', (req, res) => res.json([...seen.keys()]));
app.use((req, res, next) => {
  seen.set(req.path, true);
  next();
});
module.exports = app;
`,
    });
    const plan = planMigration({ entry: path.join(dir, 'server.js'), dir: path.join(dir, 'app'), major: 5 });
    expect(plan.moved).to.deep.equal([]);
    expect(plan.left.map((l) => `${l.what}: ${l.reason}`)).to.have.members([
      'get /items: it uses items, a variable of server.js that other code may change: make it a module of its own that both import',
      'post /items: it uses items, a variable of server.js that other code may change: make it a module of its own that both import',
      'get /seen: it uses seen, a variable of server.js that other code may change: make it a module of its own that both import',
    ]);
  });

  it('has a folder hand on the requests Express gave a later route, where it does not serve their method', () => {
    write({
      'package.json': '{ "name": "app" }',
      'server.js': `const express = require('express');
const app = express();
app.get('/items/search', (req, res) => res.json([]));
app.put('/items/:id', (req, res) => res.json({ put: req.params.id }));
app.get('/items/:id', (req, res) => res.json({ id: req.params.id }));
module.exports = app;
`,
    });
    const plan = planMigration({ entry: path.join(dir, 'server.js'), dir: path.join(dir, 'app'), major: 5 });
    expect(plan.moved.map((r) => `${r.method} ${r.path}`)).to.deep.equal([
      'GET /items/search',
      'PUT /items/:id',
      'GET /items/:id',
    ]);
    writePlan(plan);
    // PUT /items/search was /:id's, its id "search"; GET is the folder's own.
    expect(readFileSync(path.join(dir, 'app/items/search/endpoint.js'), 'utf8')).to.include(
      [
        "const { PUT: putForwarded } = require('../[id]/endpoint.js');",
        '',
        "exports.GET = () => Response.json([], { headers: { 'content-type': 'application/json; charset=utf-8' } });",
        '',
        "// Express gave PUT requests of this path to PUT /items/:id (server.js:4), its id 'search':",
        '// the folder that route moved to answers them, as it did.',
        'exports.PUT = (request, context) => {',
        "  const segments = new URL(request.url).pathname.split('/').filter(Boolean);",
        '  Object.assign(context.params, { id: decodeURIComponent(segments[segments.length - 1]) });',
        '  return putForwarded(request, context);',
        '};',
      ].join('\n'),
    );
  });

  it('writes ES modules for an ES module app', () => {
    write({
      'package.json': '{ "type": "module" }',
      'app.mjs': `import express from 'express';
export const app = express();
app.delete('/items/:id', async (req, res) => { await remove(req.params.id); res.status(204).end(); });
async function remove() {}
`,
    });
    const plan = planMigration({ entry: path.join(dir, 'app.mjs'), dir: path.join(dir, 'app'), major: 5 });
    const endpoint = plan.changes.find((c) => c.file.endsWith('endpoint.mjs'))!.after;
    expect(endpoint).to.include('export const DELETE = async (request, { params }) => {');
    expect(endpoint).to.include('async function remove() {}');
    expect(endpoint).to.include('return new Response(null, { status: 204 });');
    const entry = plan.changes.find((c) => c.file.endsWith('app.mjs'))!.after;
    expect(entry).to.include("import { mountEndpoints } from 'express-file-endpoints';");
    expect(entry).to.include("app.use(mountEndpoints({ dir: path.join(import.meta.dirname, 'app') }));");
  });
});

/**
 * Handlers that set cookies and Vary, each run by Express 5 and, rewritten, as an endpoint handler: the same
 * status, Set-Cookie lines (an Expires computed from `maxAge` within two seconds), Vary and body.
 */
describe('migrate: cookies and Vary answer as Express sent them', () => {
  const HANDLERS = [
    `(req, res) => res.cookie('sid', 'abc').json({ ok: true })`,
    `(req, res) => res.cookie('sid', 'a b;c', { httpOnly: true, secure: true, sameSite: 'lax', path: '/app', domain: 'example.com' }).send('hi')`,
    `(req, res) => res.status(201).cookie('remember', 1, { maxAge: 90061, sameSite: true }).cookie('theme', 'dark').json({})`,
    `(req, res) => res.clearCookie('sid').sendStatus(204)`,
    `(req, res) => res.clearCookie('sid', { path: '/app', httpOnly: true }).status(401).end()`,
    `(req, res) => res.set('x-a', '1').cookie('a', 'b').sendStatus(404)`,
    `(req, res) => { const user = { id: 7 }; return res.cookie('user', user).json(user); }`,
    `(req, res) => { const token = 'x/y=z'; res.cookie('token', token, { httpOnly: true }).end(); }`,
    `(req, res) => res.vary('Accept').vary(['Origin', 'accept']).vary('Accept-Language, Origin').json([1])`,
    `(req, res) => {
  res.status(201);
  res.cookie('a', 'b').set('x-a', '2');
  res.json({ made: true });
}`,
    `(req, res) => {
  res.set('x-a', '1');
  if (req.get('x-none')) return res.sendStatus(404);
  res.vary('Accept');
  res.send('ok');
}`,
  ];

  let server: import('node:http').Server;
  let base: string;
  before(async () => {
    const { default: express } = await import('express');
    const app = express();
    HANDLERS.forEach((source, i) => app.get(`/h${i}`, eval(source) as never));
    server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => server.close());

  const expiresWithin = (ours: string, theirs: string) => {
    const date = (line: string) => /Expires=([^;]+)/.exec(line)?.[1];
    const [a, b] = [date(ours), date(theirs)];
    if (a === undefined || b === undefined) return a === b && ours === theirs;
    return Math.abs(Date.parse(a) - Date.parse(b)) <= 2000 && ours.replace(a, '') === theirs.replace(b, '');
  };

  HANDLERS.forEach((source, i) => {
    it(source, async () => {
      const result = rewrite(source, { ...EXPRESS_4, major: 5 });
      expect(result.kind, JSON.stringify(result)).to.equal('rewritten');
      const handler = eval(`(${(result as { code: string }).code})`) as (
        request: Request,
        context: object,
      ) => Response | Promise<Response>;
      const ours = await handler(new Request(`${base}/h${i}`), { params: {} });
      const theirs = await fetch(`${base}/h${i}`, { redirect: 'manual' });
      expect(ours.status).to.equal(theirs.status);
      const [mine, express] = [ours.headers.getSetCookie(), theirs.headers.getSetCookie()];
      expect(mine.length, `${mine.join('\n')}\nagainst\n${express.join('\n')}`).to.equal(express.length);
      mine.forEach((line, n) =>
        expect(expiresWithin(line, express[n]!), `${line}\nagainst\n${express[n]}`).to.equal(true),
      );
      expect(ours.headers.get('vary')).to.equal(theirs.headers.get('vary'));
      expect(ours.headers.get('x-a')).to.equal(theirs.headers.get('x-a'));
      expect(await ours.text()).to.equal(await theirs.text());
    });
  });
});

/**
 * Routes that answer with files, read relative to their router's folder: run by Express 5, then moved by the
 * command into endpoint files two folders away and served by the tree. The same status, the headers that
 * matter and the same bytes, for the requests send answers each in its own way.
 */
describe('migrate: file answers, their paths kept, answer as Express sent them', function () {
  // The app's own error handler, for both apps: the missing file's 404, the unsatisfiable range's 416.
  const errorHandler: import('express').ErrorRequestHandler = (
    err: { status?: number },
    _req,
    res,
    _next,
  ) => {
    res.status(err.status ?? 500).send(`error ${err.status}`);
  };
  this.timeout(60_000);
  let dir: string;
  let express: string;
  let tree: string;
  const servers: import('node:http').Server[] = [];
  const listen = async (app: import('node:http').RequestListener) => {
    const { createServer } = await import('node:http');
    const server = createServer(app).listen(0);
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  };

  before(async function () {
    this.timeout(120_000);
    await ensureBuilt();
    dir = mkdtempSync(path.join(tmpdir(), 'ee-migrate-files-'));
    const files: Record<string, string> = {
      'package.json': '{ "name": "app" }',
      'server.js': `const express = require('express');
const app = express();
app.use('/pages', require('./src/routes/pages'));
module.exports = app;
`,
      'src/routes/pages.js': `const path = require('node:path');
const router = require('express').Router();
router.get('/page', (req, res) => res.sendFile(path.join(__dirname, '../public/page.html')));
router.get('/styles', (req, res) => res.sendFile('styles.css', { root: path.join(__dirname, '..', 'public'), maxAge: '1d', immutable: true }));
router.get('/export', (req, res, next) => {
  res.download(__dirname + '/../public/data.csv', 'export.csv', (err) => {
    if (err) next(err);
  });
});
router.get('/missing', (req, res) => res.sendFile(path.join(__dirname, 'nothing.txt')));
router.get('/where', (req, res) => res.json({ dir: __dirname, file: __filename }));
module.exports = router;
`,
      'src/public/page.html': `<!doctype html><p>${'a page '.repeat(40)}</p>\n`,
      'src/public/styles.css': 'p { color: teal }\n',
      'src/public/data.csv': 'year,total\n2025,7\n',
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    mkdirSync(path.join(dir, 'node_modules'));
    for (const name of ['express', 'express-file-endpoints'])
      symlinkSync(
        name === 'express' ? path.join(ROOT, 'node_modules/express') : ROOT,
        path.join(dir, 'node_modules', name),
        'dir',
      );
    const { createRequire } = await import('node:module');
    const original = createRequire(path.join(dir, 'server.js'))('./server.js') as import('express').Express;
    original.use(errorHandler);
    express = await listen(original);
    tree = path.join(dir, 'api');
    const plan = planMigration({ entry: path.join(dir, 'server.js'), dir: tree, major: 5 });
    expect(plan.left, JSON.stringify(plan.left)).to.deep.equal([]);
    expect(plan.moved.map((m) => m.how)).to.deep.equal(Array(5).fill('rewritten'));
    writePlan(plan);
  });
  after(() => {
    for (const server of servers) server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads each path from the router folder, through one constant', () => {
    const where = readFileSync(path.join(tree, 'pages/where/endpoint.js'), 'utf8');
    expect(where).to.include("const fromDir = path.join(__dirname, '../../../src/routes');");
    expect(where).to.include("Response.json({ dir: fromDir, file: path.join(fromDir, 'pages.js') }");
    const page = readFileSync(path.join(tree, 'pages/page/endpoint.js'), 'utf8');
    expect(page).to.include("sendFile(request, path.join(fromDir, '../public/page.html'))");
    expect(planMigration({ entry: path.join(dir, 'server.js'), dir: tree, major: 5 }).changes).to.deep.equal(
      [],
    );
  });

  it('answers every request as Express did', async () => {
    const { default: expressApp } = await import('express');
    const app = expressApp();
    // The library as the app installed it, which the endpoint files import too.
    const { createRequire } = await import('node:module');
    const { mountEndpoints } = createRequire(path.join(dir, 'server.js'))(
      'express-file-endpoints',
    ) as typeof import('../../src');
    await mountEndpoints(app, { dir: tree });
    app.use(errorHandler);
    const moved = await listen(app);
    const page = await fetch(`${express}/pages/page`);
    const etag = page.headers.get('etag')!;
    const lastModified = page.headers.get('last-modified')!;
    const requests: Array<[string, RequestInit]> = [
      ['/pages/page', {}],
      ['/pages/page', { method: 'HEAD' }],
      ['/pages/page', { headers: { 'if-none-match': etag } }],
      ['/pages/page', { headers: { 'if-modified-since': lastModified } }],
      ['/pages/page', { headers: { range: 'bytes=10-29' } }],
      ['/pages/page', { headers: { range: 'bytes=-5' } }],
      ['/pages/page', { headers: { range: 'bytes=9000-' } }],
      ['/pages/page', { headers: { range: 'bytes=0-4', 'if-range': '"stale"' } }],
      ['/pages/page', { headers: { range: 'bytes=0-4', 'if-range': etag } }],
      ['/pages/styles', {}],
      ['/pages/export', {}],
      ['/pages/where', {}],
    ];
    const HEADERS = [
      'content-type',
      'content-length',
      'content-range',
      'accept-ranges',
      'cache-control',
      'etag',
      'last-modified',
      'content-disposition',
    ];
    for (const [url, init] of requests) {
      const [theirs, ours] = await Promise.all([fetch(express + url, init), fetch(moved + url, init)]);
      const what = `${init.method ?? 'GET'} ${url} ${JSON.stringify(init.headers ?? {})}`;
      expect(ours.status, what).to.equal(theirs.status);
      for (const name of HEADERS)
        expect(ours.headers.get(name), `${what}: ${name}`).to.equal(theirs.headers.get(name));
      expect(await ours.text(), what).to.equal(await theirs.text());
    }
  });
});

/**
 * res.send(value) with a value whose kind only shows when it runs, each kind run by Express 5 and Express 4 and,
 * rewritten, with the module's sendValue: the same status, Content-Type and bytes.
 */
describe('migrate: res.send(value) answers as Express sent each kind', () => {
  const VALUES: Record<string, unknown> = {
    string: '<p>hi</p>',
    bytes: Buffer.from([0, 1, 2, 255]),
    null: null,
    undefined: undefined,
    object: { a: 1, b: [true, null] },
    array: [1, 'two'],
    number: 404,
    boolean: false,
  };
  const HANDLERS = [
    `(req, res) => res.send(VALUES[req.params.kind])`,
    `(req, res) => res.status(201).send(VALUES[req.params.kind])`,
    `(req, res) => res.type('text').send(VALUES[req.params.kind])`,
    `(req, res) => res.set('Content-Type', 'application/xml; charset=latin1').send(VALUES[req.params.kind])`,
  ];

  for (const major of [5, 4]) {
    describe(`Express ${major}`, () => {
      let base: string;
      let server: import('node:http').Server;
      const quiet = process.env.NO_DEPRECATION;
      before(async () => {
        process.env.NO_DEPRECATION = 'express'; // Express 4's warning for res.send(number)
        const { default: express } = (await import(major === 5 ? 'express' : 'express4')) as {
          default: typeof import('express');
        };
        const app = express();
        HANDLERS.forEach((source, i) => app.get(`/h${i}/:kind`, eval(source) as never));
        server = app.listen(0);
        await new Promise((resolve) => server.once('listening', resolve));
        base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      });
      after(() => {
        server.close();
        if (quiet === undefined) delete process.env.NO_DEPRECATION;
        else process.env.NO_DEPRECATION = quiet;
      });

      HANDLERS.forEach((source, i) => {
        it(source, async () => {
          const result = rewrite(source, { ...EXPRESS_4, major });
          expect(result.kind, JSON.stringify(result)).to.equal('rewritten');
          const { code } = result as { code: string };
          // The module as the command writes it: the handler, and sendValue below it.
          const handler = new Function(
            'VALUES',
            'STATUS_CODES',
            `${sendValueFunction(false, major)}\nreturn ${code};`,
          )(VALUES, STATUS_CODES) as (request: Request, context: object) => Response;
          for (const kind of Object.keys(VALUES)) {
            if (major === 4 && kind === 'number' && i > 0) continue; // a status and another: Express 4 warns
            const ours = handler(new Request(`${base}/h${i}/${kind}`), { params: { kind } });
            const theirs = await fetch(`${base}/h${i}/${kind}`);
            expect(ours.status, kind).to.equal(theirs.status);
            expect(ours.headers.get('content-type'), kind).to.equal(theirs.headers.get('content-type'));
            expect(Buffer.from(await ours.arrayBuffer()), kind).to.deep.equal(
              Buffer.from(await theirs.arrayBuffer()),
            );
          }
        });
      });
    });
  }
});
