/**
 * migrate's parts, in process: Express paths as folders, static route discovery across files, handlers
 * rewritten as Responses (or left as they were, with the reason), and a plan written twice.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parse } from '@babel/parser';
import {
  folderPath,
  parseExpressPath,
  planMigration,
  rewriteHandler,
  writePlan,
  type RewriteOptions,
} from '../../src/migrate';

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
    expect(rewrite('(req, res) => res.send(html)'))
      .to.have.property('reason')
      .that.match(/known only when it runs/);
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
