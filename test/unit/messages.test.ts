/**
 * The text of every message the library gives at startup and at build time, pinned: each names the file and
 * the fix, so a change to one is a change a reviewer sees. (Load errors: load-module.test.ts; CLI output:
 * cli.test.ts; the messages of `check`'s startup checks: check-startup.test.ts.)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { mountEndpoints } from '../../src';
import { discoverTree } from '../../src/discover';
import { fixFor } from '../../src/dispatch/run-route';
import { EndpointValidationError, validateTree } from '../../src/validate';

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
    `app/endpoint.ts: exports no handler; export one of ${HANDLERS}: \`export async function GET(req) { … }\`, or in a CommonJS .js file \`exports.GET = async (req) => …\`.`,
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

  it('mountEndpoints(app) throws an invalid tree synchronously, before the app can listen', () => {
    const used: unknown[] = [];
    const app = Object.assign(() => {}, { use: (mw: unknown) => used.push(mw) });
    const dir = tree({ 'endpoint.ts': 'export function get() {}' });
    expect(() => mountEndpoints(app, { dir })).to.throw(EndpointValidationError);
    expect(used).to.have.length(0);
  });

  it('mountEndpoints(app) not awaited: a module that fails to load is no unhandled rejection', async () => {
    const dir = tree({ 'endpoint.js': "throw new Error('boom');\nexports.GET = () => {};" });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const app = Object.assign(() => {}, { use: () => app });
      const reported: unknown[] = [];
      void mountEndpoints(app, { dir, onError: (error) => reported.push(error) });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(unhandled).to.deep.equal([]);
      // It is told to onError instead, once.
      expect(reported.map((e) => (e as Error).message)).to.have.length(1);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('messages: a handler that returns no Response', () => {
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
});
