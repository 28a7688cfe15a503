/**
 * The exact text of every message users see, pinned here and only here: startup errors for a broken
 * tree, load errors, a handler's wrong return value, the answers the library gives by itself (400,
 * 404, 405, 413, 500; a contract's 400, a WebSocket handshake's 403), the default onError's log
 * lines, and the CLI's output. Each names the file and
 * the fix, so a change to one is a change a reviewer sees. Every other test asserts what a message
 * is about (its status, the file it names, a key fact), so a change of wording touches this file
 * alone. The CLI runs as a child process, from src/cli/main.ts through tsx: this file is in the slow suite.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import express from 'express';
import { z } from 'zod';
import {
  bridgeMiddleware,
  defineHandler,
  mountEndpoints,
  ResponseContractError,
  type EndpointsManifest,
  type EndpointsMiddleware,
  type WebMiddleware,
} from '../../src';
import { buildEndpoints } from '../../src/build';
import { createTestRequest } from '../../src/testing';
import { discoverTree } from '../../src/discover';
import { fixFor } from '../../src/dispatch/run-route';
import { EndpointLoadError, loadModule } from '../../src/load';
import { BUILD_MARKER, libraryVersion } from '../../src/manifest';
import { contractProblems, EndpointValidationError, validateTree } from '../../src/validate';
import { httpRequest, listen, type Listening } from '../support/net';
import { deepJson, reencodesDeepJson } from '../support/deep-json';

const GET = 'export function GET() { return new Response(); }\n';
let root: string;
let cwd: string;

function tree(files: Record<string, string>): string {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, 'app', file)), { recursive: true });
    writeFileSync(path.join(root, 'app', file), text);
  }
  return path.join(root, 'app');
}

/** Each test in a fresh folder, made the working folder: display paths are relative to it (`app/…`). */
function inScratchFolder(): void {
  beforeEach(() => {
    cwd = process.cwd();
    root = mkdtempSync(path.join(os.tmpdir(), 'ee-messages-'));
    process.chdir(root);
  });
  afterEach(() => {
    process.chdir(cwd);
    rmSync(root, { recursive: true, force: true });
  });
}

const HANDLERS = 'GET, HEAD, POST, PUT, PATCH, DELETE, QUERY, OPTIONS, ANY, default';
const VALIDATION: [string, Record<string, string>, string][] = [
  [
    'catch-all-not-last',
    { 'd/[...s]/x/endpoint.ts': GET },
    'app/d/[...s]/x/endpoint.ts: the catch-all folder app/d/[...s] must be the last segment of a URL, so no route file may sit in a folder below it; move the files out of it.',
  ],
  [
    'malformed-segment',
    { '[]/endpoint.ts': GET },
    'app/[]/endpoint.ts: the folder name "[]" is not a valid route segment: the parameter name is empty.',
  ],
  [
    'malformed-segment (an optional catch-all written wrong)',
    { '[[x]]/endpoint.ts': GET },
    'app/[[x]]/endpoint.ts: the folder name "[[x]]" is not a valid route segment: an optional catch-all is written [[...name]].',
  ],
  [
    'duplicate-param',
    { '[id]/x/[id]/endpoint.ts': GET },
    'app/[id]/x/[id]/endpoint.ts: the parameter name "id" is used twice in /[id]/x/[id]; rename one of the folders.',
  ],
  [
    'not-a-function (middleware)',
    { 'middleware.ts': 'export default 42;', 'endpoint.ts': GET },
    'app/middleware.ts: the default export is not a function; a middleware is a (req, next) function: `export default async function (req, next) { return next(); }`.',
  ],
  [
    'not-a-function (handler)',
    { 'endpoint.ts': 'export const GET = 42;' },
    'app/endpoint.ts: the export GET is not a function; a handler is a function: `export async function GET(req) { return Response.json(…); }`.',
  ],
  [
    'middleware-no-default',
    { 'middleware.ts': 'export const x = () => {};', 'endpoint.ts': GET },
    'app/middleware.ts: a middleware file must have a default export, a (req, next) function: `export default async function (req, next) { return next(); }`.',
  ],
  [
    'any-and-default',
    { 'endpoint.ts': 'export const ANY = () => {};\nexport default () => {};' },
    'app/endpoint.ts: exports both ANY and default, which mean the same; keep one of them.',
  ],
  [
    'lowercase-method',
    { 'endpoint.ts': 'export function get() {}' },
    'app/endpoint.ts: the export "get" is not a handler name (they are upper case): did you mean GET?',
  ],
  [
    'misspelt-method (beside GET)',
    { 'endpoint.ts': `${GET}export function PSOT() {}` },
    'app/endpoint.ts: the export "PSOT" is not a method name, so no request reaches it: did you mean POST? An all-caps export this close to a method name is taken for a misspelling; if it is not a handler, give it another name.',
  ],
  [
    'misspelt-method (alone)',
    { 'endpoint.ts': 'export const GTE = () => {};' },
    'app/endpoint.ts: the export "GTE" is not a method name, so no request reaches it: did you mean GET? An all-caps export this close to a method name is taken for a misspelling; if it is not a handler, give it another name.',
  ],
  [
    'misnamed-endpoint (route.ts)',
    { 'api/users/route.ts': `${GET}export function POST() {}` },
    'app/api/users/route.ts: exports GET and POST, but only files named endpoint serve requests, so no request reaches them; rename it endpoint.ts.',
  ],
  [
    'misnamed-endpoint (index.js)',
    { 'api/index.js': 'exports.DELETE = () => {};' },
    'app/api/index.js: exports DELETE, but only files named endpoint serve requests, so no request reaches it; rename it endpoint.js.',
  ],
  [
    'no-handler',
    { 'endpoint.ts': 'export const config = {};' },
    `app/endpoint.ts: exports no handler; export one of ${HANDLERS}, or a \`websocket\` object: \`export async function GET(req) { … }\`, or in a CommonJS .js file \`exports.GET = async (req) => …\`.`,
  ],
  [
    'duplicate-route',
    { 'a/endpoint.ts': GET, 'a/endpoint.js': GET },
    'app/a/endpoint.js and app/a/endpoint.ts: 2 endpoint files serve the same URL /a; keep one of them.',
  ],
  [
    'catch-all-kinds',
    { 'd/[...a]/endpoint.ts': GET, 'd/[[...b]]/endpoint.ts': GET },
    'app/d/[...a]/endpoint.ts and app/d/[[...b]]/endpoint.ts: a catch-all and an optional catch-all below /d match the same URLs; keep one kind.',
  ],
  [
    'optional-catch-all-conflict',
    { 'd/endpoint.ts': GET, 'd/[[...b]]/endpoint.ts': GET },
    'app/d/endpoint.ts and app/d/[[...b]]/endpoint.ts: both serve /d, because an optional catch-all also matches the URL of its parent folder; remove one or make the catch-all required ([...b]).',
  ],
  [
    'param-name-mismatch',
    { 'users/[id]/endpoint.ts': GET, 'users/[userId]/posts/endpoint.ts': GET },
    'app/users/[id]/endpoint.ts and app/users/[userId]/posts/endpoint.ts: one URL position has different parameter names ([id] and [userId]), which the router cannot tell apart; merge them: move what is in [userId] into [id], so that one name is used at /users/[id].',
  ],
  [
    'page-conflict (GET)',
    { 'contact/page.tsx': '', 'contact/endpoint.ts': GET },
    "app/contact/page.tsx and app/contact/endpoint.ts: an endpoint beside a page may not serve GET (it exports GET); GET /contact belongs to the page, which your app's own route renders: remove GET from the endpoint (answer it in that route), move the endpoint to another folder, or remove the page file.",
  ],
  [
    'page-conflict (ANY)',
    { 'contact/page.tsx': '', 'contact/endpoint.ts': 'export const ANY = () => {};' },
    'app/contact/page.tsx and app/contact/endpoint.ts: an endpoint beside a page may not serve GET (it exports ANY); export only methods other than GET (POST, PUT, PATCH, DELETE…) instead of ANY or default, or remove the page file.',
  ],
];

describe('messages: validation problems', () => {
  inScratchFolder();

  for (const [name, files, message] of VALIDATION) {
    it(name, () => {
      const problems = validateTree(discoverTree(tree(files)));
      expect(problems.map((problem) => problem.message)).to.include(message);
    });
  }

  it('contracts, known once the modules are loaded: a body on GET, params on a route without any', () => {
    const discovered = discoverTree(tree({ 'search/endpoint.ts': GET, 'static/endpoint.ts': GET }));
    const loaded = {
      ...discovered,
      files: discovered.files.map((file) => ({
        ...file,
        exports: {
          ...file.exports!,
          contracts: {
            GET: {
              validates: [file.pattern === '/search' ? ('body' as const) : ('params' as const)],
              responses: [],
            },
          },
        },
      })),
    };
    expect(contractProblems(loaded).map((problem) => problem.message)).to.deep.equal([
      'app/search/endpoint.ts: the contract of GET has a body schema, but a GET request has no body, so the schema only ever sees none; validate the query instead, or move the handler to POST.',
      'app/static/endpoint.ts: the contract of GET has a params schema, but /static has no params (no [name] folder), so it has nothing to check; remove it, or put the endpoint in a [param] folder.',
    ]);
  });

  it('EndpointValidationError: one line per problem, no stack trace, problems not repeated when printed', () => {
    const error = new EndpointValidationError([
      { code: 'x', message: 'app/a/endpoint.ts: one.', files: ['app/a/endpoint.ts'] },
      { code: 'y', message: 'app/b/endpoint.ts: two.', files: ['app/b/endpoint.ts'] },
    ]);
    expect(error.message).to.equal(
      'Invalid endpoint tree (2 problems):\n  - app/a/endpoint.ts: one.\n  - app/b/endpoint.ts: two.',
    );
    expect(error.stack).to.equal(`EndpointValidationError: ${error.message}`);
    expect(Object.keys(error)).not.to.include('problems');
    expect(error.problems).to.have.length(2);
  });
});

describe('messages: startup', () => {
  inScratchFolder();

  it('a relative dir that does not exist: where it looked, and path.join(__dirname, …)', () => {
    expect(() => mountEndpoints({ dir: 'routes' })).to.throw(
      `express-file-endpoints: the endpoint folder ${path.join(root, 'routes')} does not exist (or is not a folder).\n` +
        `A relative dir ('routes') is resolved from the folder the app was started in (${root}). To find it ` +
        "from your app's own file instead, pass dir: path.join(__dirname, 'routes') in CommonJS, or dir: " +
        "fileURLToPath(new URL('./routes', import.meta.url)) in an ES module.",
    );
  });

  it('an absolute dir that does not exist: where it looked, nothing more', () => {
    const missing = path.join(root, 'nowhere');
    expect(() => mountEndpoints({ dir: missing })).to.throw(
      `express-file-endpoints: the endpoint folder ${missing} does not exist (or is not a folder).`,
    );
  });

  it('mountEndpoints refuses a misspelt method and a route.ts at startup, with the fix', () => {
    const dir = tree({ 'a/endpoint.ts': `${GET}export function PSOT() {}`, 'b/route.ts': GET });
    expect(() => mountEndpoints({ dir }))
      .to.throw(EndpointValidationError)
      .with.property('message')
      .that.includes('did you mean POST?')
      .and.includes('app/b/route.ts: exports GET');
  });
});

describe('messages: what a handler or a middleware returned instead of a Response', () => {
  inScratchFolder();

  it('undefined: a missing return?', () => {
    expect(fixFor(undefined)).to.equal(
      'is a `return` missing? Return a Response, e.g. `return new Response(null, { status: 204 })`.',
    );
  });
  it('a string: new Response(text)', () => {
    expect(fixFor('hi')).to.equal('return `new Response(text)` to send it as text.');
  });
  it('an object: Response.json(value)', () => {
    expect(fixFor({ a: 1 })).to.equal(
      'return `Response.json(value)` to send it as JSON, or `new Response(body, { status })`.',
    );
  });
  it('through .fetch, the whole message names the file and the export', async () => {
    const dir = tree({ 'endpoint.js': 'export function GET() { return { ok: true }; }' });
    writeFileSync(path.join(root, 'package.json'), '{ "type": "module" }');
    const errors: Error[] = [];
    const endpoints = mountEndpoints({ dir, onError: (error) => errors.push(error as Error) });
    expect((await endpoints.fetch(new Request('http://localhost/'))).status).to.equal(500);
    expect(errors[0]?.message).to.equal(
      'app/endpoint.js: export GET returned an object (Object) instead of a Response; return `Response.json(value)` to send it as JSON, or `new Response(body, { status })`.',
    );
  });

  /** The message of the one error told to onError for `GET /` through `.fetch`. */
  async function reported(options: { endpoint: string; middleware?: WebMiddleware[] }): Promise<string> {
    const dir = tree({ 'endpoint.js': options.endpoint });
    const errors: Error[] = [];
    const endpoints = mountEndpoints({
      dir,
      middleware: options.middleware,
      onError: (error) => errors.push(error as Error),
    });
    expect((await endpoints.fetch(new Request('http://localhost/'))).status).to.equal(500);
    expect(errors).to.have.length(1);
    return errors[0]!.message;
  }

  it('Response.error(): a network error no HTTP response can carry', async () => {
    expect(await reported({ endpoint: 'exports.GET = () => Response.error();' })).to.equal(
      'app/endpoint.js: export GET returned Response.error(), a network error that no HTTP response can carry; throw an error instead, or return an error status, e.g. `new Response(null, { status: 502 })`.',
    );
  });

  it('a middleware that returns no Response', async () => {
    const message = await reported({
      endpoint: 'exports.GET = () => new Response();',
      middleware: [(() => undefined) as unknown as WebMiddleware],
    });
    expect(message).to.equal(
      'middleware option #1: the middleware returned undefined instead of a Response; return `await next()` to pass the request on, or a Response of its own.',
    );
  });

  it('a middleware that calls next() twice', async () => {
    const message = await reported({
      endpoint: 'exports.GET = () => new Response();',
      middleware: [
        async (_req, next) => {
          await next();
          return next();
        },
      ],
    });
    expect(message).to.equal('next() was called more than once by a middleware');
  });

  it('a bridged middleware that returns no Response', async () => {
    const bridged = bridgeMiddleware((() => 'nope') as unknown as WebMiddleware);
    let passed: unknown;
    const server = await listen(
      http.createServer((req, res) =>
        bridged(req, res, (error?: unknown) => {
          passed = error;
          res.end();
        }),
      ),
    );
    try {
      await httpRequest(`${server.url}/`);
    } finally {
      await server.close();
    }
    expect((passed as Error).message).to.equal('A bridged middleware returned string, not a Response');
  });
});

describe('messages: a module that does not load', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'ee-messages-load-'));
    writeFileSync(path.join(dir, 'package.json'), '{ "type": "commonjs" }');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function loadError(name: string, source: string): Promise<string> {
    writeFileSync(path.join(dir, name), source);
    try {
      await loadModule(path.join(dir, name), `app/${name}`);
    } catch (error) {
      expect(error).to.be.instanceOf(EndpointLoadError);
      return (error as Error).message;
    }
    throw new Error(`${name} loaded`);
  }

  it('a missing module: file and line, and `check` for the rest', async () => {
    expect(await loadError('missing.js', "require('./not-there');\nexports.GET = () => {};")).to.equal(
      "Could not load app/missing.js (line 1, column 1): Cannot find module './not-there'\n" +
        'Run `npx express-file-endpoints check` for the line and column, and for every other file that will not load.',
    );
  });

  it('`export` in a .js file of a "type": "commonjs" package: the three fixes', async () => {
    expect(await loadError('esm-syntax.js', 'export function GET() {}')).to.equal(
      "Could not load app/esm-syntax.js (line 1): Unexpected token 'export'\n" +
        'This file is CommonJS (its package.json says "type": "commonjs") but uses ES module syntax. Either ' +
        'rename it to esm-syntax.mjs, or write `exports.GET = …` instead of `export`, or set "type": "module" ' +
        'in package.json.',
    );
  });

  it('`import` in a .cjs file: the same fixes', async () => {
    expect(await loadError('imports.cjs', "import fs from 'node:fs';\nexports.GET = () => fs;")).to.equal(
      'Could not load app/imports.cjs (line 1): Cannot use import statement outside a module\n' +
        'This file is CommonJS (a .cjs file) but uses ES module syntax. Either rename it to imports.mjs, or ' +
        'write `exports.GET = …` instead of `export`, or set "type": "module" in package.json.',
    );
  });

  it('a module that throws while loading: its own error, where it was thrown', async () => {
    expect(await loadError('throws.js', "throw new Error('database down');")).to.equal(
      'Could not load app/throws.js (line 1, column 7): database down',
    );
  });

  it('a SyntaxError its top-level code threw: not one of the file', async () => {
    const message = await loadError(
      'json-env.js',
      "const config = JSON.parse(process.env.EE_NO_SUCH_VAR ?? '{bad');\nexports.GET = () => config;\n",
    );
    // Between the two: V8's own words for the JSON error, which change between Node versions.
    expect(message).to.match(/^Could not load app\/json-env\.js \(line 1, column \d+\): /);
    expect(message.endsWith(`\n${THROWN_HINT}`)).to.equal(true);
  });
});

const THROWN_HINT =
  'This is not a syntax error in the file: its top-level code threw it while the module ran (JSON.parse, ' +
  'new RegExp() or new Function() of bad input, such as an environment variable). Fix that input, or ' +
  'catch the error where it is thrown.';

describe('messages: the answers the library gives by itself', () => {
  const dir = path.join(__dirname, '../fixtures/app');
  const quiet = () => {};
  /**
   * The tree as the whole node:http server; with a 4-byte body limit; behind express.json(). With
   * no error handler after them, the library answers its refusals itself, in these words.
   */
  let bare: Listening;
  let limited: Listening;
  let parsed: Listening;
  let endpoints: EndpointsMiddleware;

  before(async () => {
    endpoints = mountEndpoints({ dir, onError: quiet });
    const small = mountEndpoints({ dir, onError: quiet, bodyLimit: 4 });
    await Promise.all([endpoints.ready, small.ready]);
    // express.json() first, then the tree as the rest of the server: no app error handler behind it.
    const json = express.json();
    [bare, limited, parsed] = await Promise.all([
      listen(http.createServer(endpoints)),
      listen(http.createServer(small)),
      listen(http.createServer((req, res) => json(req, res, () => endpoints(req, res)))),
    ]);
  });
  after(() => Promise.all([bare, limited, parsed].map((server) => server?.close())));

  /** Status and body of a request sent with its target as written (no URL normalising). */
  function send(
    server: Listening,
    target: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) {
    return new Promise<[number, string]>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: server.port, path: target, agent: false, ...init });
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve([res.statusCode!, text]));
      });
      req.end(init.body);
    });
  }

  const cases: [string, string, { method?: string; headers?: Record<string, string> }, number, string][] = [
    ['a path the tree does not serve (nothing after it)', '/nope', {}, 404, 'Not Found'],
    [
      'malformed percent-encoding',
      '/files/%zz',
      {},
      400,
      'Bad Request: malformed percent-encoding in the URL path',
    ],
    [
      'a dot segment the client sent encoded',
      '/files/%2e%2e',
      {},
      400,
      'Bad Request: the URL path has a "." or ".." segment, a backslash, or a character that must be percent-encoded',
    ],
    [
      'a Host header that makes no URL',
      '/whoami',
      { headers: { host: 'bad host/x' } },
      400,
      'Bad Request: invalid Host header, request target or forwarded protocol',
    ],
    [
      'a method the endpoint does not serve',
      '/methods/get-only',
      { method: 'DELETE' },
      405,
      'Method Not Allowed',
    ],
    ['a handler that throws', '/errors/throw', {}, 500, 'Internal Server Error'],
  ];
  for (const [what, target, init, status, text] of cases) {
    it(`${status}: ${what}`, async () => {
      expect(await send(bare, target, init)).to.deep.equal([status, text]);
    });
  }

  it('413: a body over the limit', async () => {
    const reply = await send(limited, '/echo?as=text', { method: 'POST', body: 'too long' });
    expect(reply).to.deep.equal([413, 'Payload Too Large']);
  });

  it('400: a parsed body too deeply nested to encode again (skipped on Nodes that can)', async function () {
    if (reencodesDeepJson) this.skip();
    const reply = await send(parsed, '/echo?as=text', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: deepJson,
    });
    expect(reply).to.deep.equal([400, 'Bad Request: the request body is nested too deeply']);
  });

  it('the same texts through .fetch', async () => {
    const answers = await Promise.all(
      [
        ['/nope', 'GET'],
        ['/files/%zz', 'GET'],
        ['/methods/get-only', 'DELETE'],
        ['/errors/throw', 'GET'],
      ].map(async ([target, method]) => {
        const res = await endpoints.fetch(new Request(`http://localhost${target}`, { method }));
        return [res.status, await res.text()];
      }),
    );
    expect(answers).to.deep.equal([
      [404, 'Not Found'],
      [400, 'Bad Request: malformed percent-encoding in the URL path'],
      [405, 'Method Not Allowed'],
      [500, 'Internal Server Error'],
    ]);
  });
});

describe("messages: the errors the app's error handler gets for the library's refusals", () => {
  it('name, status and message, for each refusal', async () => {
    const dir = path.join(__dirname, '../fixtures/app');
    const app = express();
    await mountEndpoints(app, { dir, onError: () => {}, bodyLimit: 4 });
    const seen: string[] = [];
    app.use((error: Error & { status?: number }, _req: unknown, res: express.Response, _next: unknown) => {
      seen.push(`${error.name} ${error.status}: ${error.message}`);
      res.status(500).end();
    });
    const server = await listen(http.createServer(app));
    try {
      for (const [target, init] of [
        ['/files/%zz', {}],
        ['/files/%2e%2e', {}],
        ['/whoami', { headers: { host: 'bad host/x' } }],
        ['/echo?as=text', { method: 'POST', body: 'too long' }],
      ] as const) {
        // The target as written: a URL parser would resolve `%2e%2e` before it is sent.
        await new Promise((resolve, reject) => {
          const req = http.request({
            host: '127.0.0.1',
            port: server.port,
            path: target,
            agent: false,
            ...init,
          });
          req.on('error', reject).on('response', (res) => res.resume().on('end', resolve));
          req.end('body' in init ? init.body : undefined);
        });
      }
    } finally {
      await server.close();
    }
    expect(seen).to.deep.equal([
      'RequestRefusedError 400: Bad Request: malformed percent-encoding in the URL path',
      'RequestRefusedError 400: Bad Request: the URL path has a "." or ".." segment, a backslash, or a character that must be percent-encoded',
      'RequestRefusedError 400: Bad Request: invalid Host header, request target or forwarded protocol',
      'BodyLimitError 413: Request body too large: the limit is 4 bytes',
    ]);
  });
});

describe('messages: contracts and sockets', () => {
  it('a 400 with more issues than it lists: the count, ten paths, and an ellipsis', async () => {
    const handler = defineHandler({ body: z.array(z.string()) }, () => new Response());
    const res = await handler(
      createTestRequest('/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(new Array(150).fill(0)),
      }),
    );
    const paths = Array.from({ length: 10 }, (_, i) => `body[${i}]`).join(', ');
    expect(((await res.json()) as { detail: string }).detail).to.equal(
      `150 issues with the request: ${paths}, …`,
    );
  });

  it('a response that breaks its contract in more places than the report lists', () => {
    const issue = { location: 'response' as const, path: 'response[0]', pointer: '/0', message: 'Wrong' };
    expect(new ResponseContractError(200, [issue], 149).message).to.equal(
      "The handler answered 200 with a body that does not match its contract's responses[200]: response[0]: Wrong; and 149 more",
    );
  });

  it('a WebSocket handshake from another origin, and an allowed origin that is not one', async () => {
    const endpoints = mountEndpoints({ dir: path.join(__dirname, '../fixtures/socket-app') });
    await endpoints.ready;
    const server = http.createServer(endpoints);
    endpoints.attach(server);
    const listening = await listen(server);
    try {
      const reply = await httpRequest(`${listening.url}/echo`, {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          origin: 'https://evil.example',
        },
      });
      expect([reply.status, reply.body.toString()]).to.deep.equal([
        403,
        'Forbidden: this origin may not open a WebSocket',
      ]);
      expect(() => endpoints.attach(server, { allowedOrigins: ['app.example.com'] })).to.throw(
        `attach(server, { allowedOrigins }): "app.example.com" is not an origin; write it as a browser sends it, e.g. 'https://app.example.com'`,
      );
    } finally {
      await listening.close();
    }
  });
});

describe("messages: the default onError's log lines", () => {
  inScratchFolder();
  let printed: unknown[][];
  const original = console.error;
  beforeEach(() => {
    printed = [];
    console.error = (...args: unknown[]) => void printed.push(args);
  });
  afterEach(() => {
    console.error = original;
  });

  it('a handler that failed: file, export, method and URL, then the error', async () => {
    const dir = tree({ 'endpoint.js': "exports.GET = () => { throw new Error('boom'); };" });
    await mountEndpoints({ dir }).fetch(new Request('http://localhost/?q=1'));
    expect(printed.map(([line]) => line)).to.deep.equal([
      'express-file-endpoints: app/endpoint.js (export GET) failed on GET http://localhost/?q=1:',
    ]);
    expect((printed[0]![1] as Error).message).to.equal('boom');
  });

  it('a module that failed to load: file and route, then the error', async () => {
    const dir = tree({ 'a/endpoint.js': "throw new Error('boom');\nexports.GET = () => {};" });
    await mountEndpoints({ dir }).ready.catch(() => {});
    expect(printed.map(([line]) => line)).to.deep.equal([
      'express-file-endpoints: app/a/endpoint.js failed to load (the mount rejects with this error; an app that serves without waiting for it answers /a with it):',
    ]);
  });

  it('an onError that throws', async () => {
    const dir = tree({ 'endpoint.js': "exports.GET = () => { throw new Error('boom'); };" });
    const broken = new Error('the reporter broke');
    const onError = () => {
      throw broken;
    };
    await mountEndpoints({ dir, onError }).fetch(new Request('http://localhost/'));
    expect(printed).to.deep.equal([['express-file-endpoints: onError threw', broken]]);
  });

  it('a bridged request whose Host header makes no URL', async () => {
    const bridged = bridgeMiddleware(async function failsAfterNext(_req, next) {
      await next();
      throw new Error('after next');
    });
    const server = await listen(http.createServer((req, res) => bridged(req, res, () => res.end('app'))));
    try {
      await httpRequest(`${server.url}/`, { headers: { host: 'bad host/x' } });
    } finally {
      await server.close();
    }
    expect(printed.map(([line]) => line)).to.deep.equal([
      'express-file-endpoints: bridgeMiddleware (export failsAfterNext) failed on GET (a Host header that makes no URL):',
    ]);
  });
});

describe('messages: a build that cannot be mounted or made, and what building notes', function () {
  this.timeout(20_000);
  inScratchFolder();
  const AGAIN = 'Run `npx express-file-endpoints build` again.';

  beforeEach(async () => {
    tree({ 'a/endpoint.ts': GET });
    await buildEndpoints('app', 'dist/endpoints');
  });

  it('a tree changed since the build', () => {
    tree({ 'a/endpoint.ts': `${GET}// changed\n` });
    expect(() => mountEndpoints({ dir: 'dist/endpoints' })).to.throw(
      `express-file-endpoints: app has changed since the build in dist/endpoints was made. ${AGAIN} (This check runs when NODE_ENV is not production.)`,
    );
  });

  it('a build made by another version', () => {
    const marker = path.join(root, 'dist/endpoints', BUILD_MARKER);
    writeFileSync(marker, JSON.stringify({ ...JSON.parse(readFileSync(marker, 'utf8')), version: '0.0.1' }));
    expect(() => mountEndpoints({ dir: 'dist/endpoints' })).to.throw(
      `express-file-endpoints: the build in dist/endpoints was made by express-file-endpoints 0.0.1; this is ${libraryVersion()}. ${AGAIN}`,
    );
  });

  it('a build folder without its marker', () => {
    rmSync(path.join(root, 'dist/endpoints', BUILD_MARKER));
    expect(() => mountEndpoints({ dir: 'dist/endpoints' })).to.throw(
      'express-file-endpoints: dist/endpoints holds the manifest module manifest.cjs of a build, but not express-file-endpoints-build.json, the file that makes the folder a build and holds its route table. Deploy the build folder whole (a .dockerignore or a files list that leaves out *.json drops it), or run `npx express-file-endpoints build` again.',
    );
  });

  it('a manifest option that is no manifest', () => {
    expect(() => mountEndpoints({ manifest: {} as EndpointsManifest })).to.throw(
      'express-file-endpoints: the manifest option is not a build made by `express-file-endpoints build`.',
    );
  });

  it('development mode from a build', () => {
    expect(() => mountEndpoints({ dir: 'dist/endpoints', dev: true })).to.throw(
      "express-file-endpoints: development mode reads the endpoint tree, not a build: mount dir: 'app' with dev.",
    );
  });

  it("a build that imports the app's TypeScript: a note on what the app must load", async () => {
    mkdirSync(path.join(root, 'lib'));
    writeFileSync(path.join(root, 'lib/clock.ts'), 'export const now = (): number => 1;\n');
    writeFileSync(path.join(root, 'lib/zone.ts'), "export const zone = 'UTC';\n");
    tree({
      'a/endpoint.ts': [
        "import { now } from '../../lib/clock';",
        "import { zone } from '../../lib/zone';",
        'export const GET = () => Response.json({ now: now(), zone });',
        '',
      ].join('\n'),
    });
    const { warnings } = await buildEndpoints('app', 'dist/endpoints');
    expect(warnings).to.deep.equal([
      'the build imports lib/clock.ts (and 1 other TypeScript file) from outside the tree as it is: the app must load that same file when it runs, from a bundle of the whole app or through a TypeScript loader. An app that runs what tsc compiled builds the tree tsc wrote instead (docs/build.md, "A TypeScript app").',
    ]);
  });

  it('a tree esbuild cannot compile', async () => {
    tree({ 'a/endpoint.ts': "import './gone.ts';\n" + GET });
    let message = '';
    await buildEndpoints('app', 'dist/endpoints').catch((error: Error) => (message = error.message));
    expect(message).to.equal(
      'express-file-endpoints: esbuild could not compile the tree:\n  app/a/endpoint.ts:1:8: Could not resolve "./gone.ts"',
    );
  });
});

describe("messages: the CLI's output", function () {
  this.timeout(60_000);
  inScratchFolder();

  const CLI = path.resolve(__dirname, '../../src/cli/main.ts');
  // Absolute, so the child resolves tsx even though its cwd is a temporary folder.
  const TSX = pathToFileURL(require.resolve('tsx')).href;
  const STRIPS_TYPES = typeof (process.features as { typescript?: unknown }).typescript === 'string';

  /** The CLI in the scratch folder; `tsx: false` leaves tsx out of the tree's reach. */
  function run(args: string[], { tsx = true } = {}) {
    const env = { ...process.env, NODE_PATH: tsx ? path.resolve(__dirname, '../../node_modules') : '' };
    const result = spawnSync(process.execPath, ['--import', TSX, CLI, ...args], {
      cwd: root,
      encoding: 'utf8',
      env,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  /** Writes files relative to the scratch folder (not below app/). */
  function files(entries: Record<string, string>): void {
    for (const [file, text] of Object.entries(entries)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
  }

  describe('check', () => {
    it('a valid tree: one line', () => {
      tree({ 'endpoint.ts': GET, 'a/endpoint.ts': GET, 'b/endpoint.js': 'exports.POST = () => {};' });
      expect(run(['check'])).to.deep.equal({
        status: 0,
        stdout: '✓ 3 endpoints, 0 problems in app\n',
        stderr: '',
      });
    });

    it('problems: how many and where, then one line each, code first', () => {
      files({
        'package.json': '{ "type": "commonjs" }',
        'app/a/endpoint.js': 'exports.GET = () => {\n  const = 1;\n};\n',
        'app/b/endpoint.js': "const db = require('./db');\nexports.GET = () => new Response(db);\n",
        'app/c/endpoint.mjs': "import { y } from '../lib';\nexport const GET = () => new Response(y);\n",
        'app/d/endpoint.js': "export function GET() { return new Response('x'); }\n",
        'app/e/endpoint.ts': 'export function get() {}\n',
        'app/lib.js': 'exports.y = 1;\n',
      });
      expect(run(['check'])).to.deep.equal({
        status: 1,
        stdout: '',
        stderr: [
          '✗ 5 problems in app:',
          '  lowercase-method: app/e/endpoint.ts: the export "get" is not a handler name (they are upper case): did you mean GET?',
          '  syntax-error: app/a/endpoint.js:2:9: Unexpected token; this file will not load.',
          "  unresolved-import: app/b/endpoint.js:1:20: './db' does not resolve (no such file); this file will not load.",
          "  unresolved-import: app/c/endpoint.mjs:1:19: '../lib' does not resolve (an ES module import needs the file's full name: '../lib.js'); this file will not load.",
          '  module-syntax-in-commonjs: app/d/endpoint.js:1:1: `export` in a CommonJS file (its package.json says "type": "commonjs"), where Node allows only require() and exports. Write `exports.GET = async (req) => …` instead of `export`, and `require()` instead of `import`; or rename it to endpoint.mjs; or set "type": "module" in package.json.',
          '',
        ].join('\n'),
      });
    });

    it('TypeScript with no tsx: a note, and what type stripping cannot run', () => {
      tree({
        'd/endpoint.ts': 'export function GET(req: Request) { return new Response(req.url); }\n',
        'lib.ts': 'export const x = 1;',
        'e/endpoint.ts':
          "import { x } from '../lib';\nenum E { A }\nexport const GET = () => new Response(String(E.A + x));\n",
      });
      const result = run(['check'], { tsx: false });
      if (!STRIPS_TYPES) {
        expect(result.stderr).to.include(
          `  no-typescript-loader: app/d/endpoint.ts: TypeScript, but nothing will load it: tsx is not installed where these files can find it, and Node ${process.version} cannot run TypeScript itself. Install it beside your app (\`npm install -D tsx\`), or compile the endpoints to JavaScript and point \`dir\` at the output.`,
        );
        return;
      }
      expect(result).to.deep.equal({
        status: 1,
        stdout: `note: tsx is not installed where the TypeScript files can find it, so they will load through Node ${process.version}'s own type stripping, which runs type annotations only: no enums, namespaces or parameter properties, no imports without their extension (\`./lib\` for \`./lib.ts\`), and no \`import\`/\`export\` in a .ts file of a CommonJS package. \`npm install -D tsx\` lifts all three.\n`,
        stderr: [
          '✗ 2 problems in app:',
          '  needs-tsx: app/e/endpoint.ts:2:1: an enum needs compiling. Node loads it with its own type stripping (tsx not found), which cannot run it; `npm install -D tsx`, or rewrite it.',
          "  needs-tsx: app/e/endpoint.ts:1:19: '../lib' has no file extension. Node loads it with its own type stripping (tsx not found), which cannot run it; `npm install -D tsx`, or write the extension ('../lib.ts').",
          '',
        ].join('\n'),
      });
    });

    it('a folder that is not there: where it looked, and how to name one', () => {
      expect(run(['check', 'nowhere'])).to.deep.equal({
        status: 1,
        stdout: '',
        stderr:
          `express-file-endpoints: the endpoint folder ${path.join(root, 'nowhere')} does not exist (or is not a folder).\n` +
          "Run the command in your app's folder, or give the endpoint folder: express-file-endpoints check path/to/app\n",
      });
    });

    it('--load: a load error per module that fails, and "every module loaded" when none does', () => {
      tree({
        'ok/endpoint.js': "exports.GET = () => new Response('ok');\n",
        'boom/endpoint.js': "throw new Error('database down');\nexports.GET = () => 1;\n",
      });
      expect(run(['check', '--load'])).to.deep.equal({
        status: 1,
        stdout: '',
        stderr:
          '✗ 1 problem in app:\n  load-error: Could not load app/boom/endpoint.js (line 1, column 7): database down\n',
      });
      rmSync(path.join(root, 'app/boom'), { recursive: true });
      expect(run(['check', '--load'])).to.deep.equal({
        status: 0,
        stdout: '✓ 1 endpoint, 0 problems in app, every module loaded\n',
        stderr: '',
      });
    });
  });

  it('routes: a file that does not parse, and a footnote for methods it may not show', () => {
    tree({
      'a/endpoint.js': 'exports.GET = () => {\n  const = 1;\n};\n',
      'more/endpoint.ts': "export * from './impl';\nexport function PUT() {}",
      'more/impl.ts': 'export function PATCH() {}',
    });
    const result = run(['routes']);
    expect(result.stdout.split('\n')).to.deep.equal([
      'METHODS         URL    FILE',
      '✗ syntax error  /a     app/a/endpoint.js',
      'PUT OPTIONS …   /more  app/more/endpoint.ts',
      '',
      '… re-exports (export *) or an unreadable module.exports: more methods may be served.',
      '',
    ]);
  });

  describe('init', () => {
    it('what it made, what it kept, and the lines to paste', () => {
      files({
        'package.json': '{}',
        'app/api/hello/endpoint.js': '// mine\n',
        'server.js': 'const app = express();\n',
      });
      expect(run(['init'])).to.deep.equal({
        status: 0,
        stdout: [
          'express-file-endpoints init: a CommonJS JavaScript app, tests with node:test.',
          '  kept     app/api/hello/endpoint.js (it exists)',
          '  created  test/hello.test.js',
          '',
          'Mount the endpoints in server.js:',
          '',
          "    const { mountEndpoints } = require('express-file-endpoints');",
          '    // after your body parsers, before your own routes and 404 handler:',
          '    app.use(mountEndpoints({ dir: `${__dirname}/app` }));',
          '',
          'Install:',
          '',
          '    npm install express-file-endpoints',
          '',
          'Then:',
          '',
          '    node --test test/hello.test.js',
          '    npx express-file-endpoints check app',
          '',
        ].join('\n'),
        stderr: '',
      });
    });

    it('outside an app', () => {
      expect(run(['init'])).to.deep.equal({
        status: 1,
        stdout: '',
        stderr: `No package.json in ${root}: run \`npx express-file-endpoints init\` in your app's folder.\n`,
      });
    });
  });

  it('typegen: what it wrote, or that it left the file alone', () => {
    tree({ 'a/endpoint.ts': GET, 'b/[id]/endpoint.ts': GET });
    expect(run(['typegen', 'app', '--out', 'routes.d.ts']).stdout).to.equal('wrote routes.d.ts (2 routes)\n');
    expect(readFileSync(path.join(root, 'routes.d.ts'), 'utf8')).to.include(
      "'/b/[id]': { params: { id: string }; methods: ",
    );
    expect(run(['typegen', 'app', '--out', 'routes.d.ts']).stdout).to.equal(
      'unchanged routes.d.ts (2 routes)\n',
    );
  });

  it('build: the checks, then what it wrote and how to mount it', () => {
    tree({ 'a/endpoint.ts': GET });
    expect(run(['build'])).to.deep.equal({
      status: 0,
      stdout: [
        '✓ 1 endpoint, 0 problems in app, every module loaded',
        "✓ built dist/endpoints/manifest.cjs (CommonJS, 1 file compiled); mount it with dir: 'dist/endpoints'",
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it("build: the app's own modules it imported rather than compiled", () => {
    mkdirSync(path.join(root, 'models'));
    writeFileSync(path.join(root, 'models/visits.js'), 'exports.count = () => 0;\n');
    tree({
      'a/endpoint.js':
        "const { count } = require('../../models/visits');\nexports.GET = () => Response.json(count());\n",
    });
    expect(run(['build']).stdout).to.equal(
      [
        '✓ 1 endpoint, 0 problems in app, every module loaded',
        "✓ built dist/endpoints/manifest.cjs (CommonJS, 1 file compiled, 1 imported from the app); mount it with dir: 'dist/endpoints'",
        '',
      ].join('\n'),
    );
  });

  it('a usage error: what was unexpected, then the usage', () => {
    const result = run(['deploy']);
    expect(result.status).to.equal(2);
    expect(result.stderr).to.match(
      /^express-file-endpoints: unexpected "deploy"\n\nUsage: express-file-endpoints <command> \[dir\]\n/,
    );
  });
});
