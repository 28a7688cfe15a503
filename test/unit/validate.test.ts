/**
 * validateTree: every rule as a table of trees on disk -> the exact problems (code + files), the messages,
 * and assertValidTree's EndpointValidationError listing every problem at once.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { discoverTree } from '../../src/discover';
import { assertValidTree, EndpointValidationError, validateTree, type Problem } from '../../src/validate';

const trees: string[] = [];

/** Writes `files` (path -> content) into a fresh temporary folder and returns its path. */
function makeTree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ee-validate-'));
  trees.push(dir);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

/** How a file of the tree at `dir` appears in problems (relative to cwd, `/` separators). */
function shown(dir: string, file: string): string {
  return path.relative(process.cwd(), path.join(dir, file)).split(path.sep).join('/');
}

/** The problems of a tree as [code, tree-relative files], easy to compare. */
function problemsOf(files: Record<string, string>): [string, string[]][] {
  const dir = makeTree(files);
  const prefix = `${shown(dir, '.')}/`;
  return validateTree(discoverTree(dir)).map((p) => [p.code, p.files.map((f) => f.slice(prefix.length))]);
}

afterEach(() => {
  for (const dir of trees.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const GET = 'export function GET() { return new Response("ok"); }\n';
const POST = 'export function POST() { return new Response(null, { status: 201 }); }\n';
const PAGE = 'export default function Page() { return null; }\n';

type Case = [what: string, files: Record<string, string>, expected: [string, string[]][]];

const cases: Case[] = [
  // Valid trees.
  [
    'a plain tree',
    { 'endpoint.ts': GET, 'api/users/endpoint.ts': GET + POST, 'api/users/[id]/endpoint.ts': GET },
    [],
  ],
  ['a page beside a POST-only endpoint', { 'contact/page.tsx': PAGE, 'contact/endpoint.ts': POST }, []],
  [
    'a page beside PUT, DELETE and config',
    { 'c/page.tsx': PAGE, 'c/endpoint.ts': 'export const PUT = () => {}, DELETE = () => {}, config = {};' },
    [],
  ],
  ['static and param siblings', { 'users/new/endpoint.ts': GET, 'users/[id]/endpoint.ts': GET }, []],
  [
    'one param name at a position',
    { 'users/[id]/endpoint.ts': GET, 'users/[id]/posts/[postId]/endpoint.ts': GET },
    [],
  ],
  [
    'a param, a catch-all and an optional catch-all at different levels',
    { 'a/[id]/endpoint.ts': GET, 'a/[id]/b/[...rest]/endpoint.ts': GET, 'c/[[...rest]]/endpoint.ts': GET },
    [],
  ],
  [
    'a param and a catch-all at one level',
    { 'docs/[id]/endpoint.ts': GET, 'docs/[...rest]/endpoint.ts': GET },
    [],
  ],
  ['groups giving different URLs', { '(a)/x/endpoint.ts': GET, '(b)/y/endpoint.ts': GET }, []],
  ['a group folder below a catch-all', { 'docs/[...slug]/(g)/endpoint.ts': GET }, []],
  [
    'middleware beside a catch-all endpoint',
    {
      'docs/[...slug]/endpoint.ts': GET,
      'docs/[...slug]/middleware.ts': 'export default (r, next) => next();',
    },
    [],
  ],
  [
    'middleware with a default export',
    {
      'middleware.ts':
        'export default async function (req: Request, next: () => Promise<Response>) { return next(); }',
      'endpoint.ts': GET,
    },
    [],
  ],
  [
    'CommonJS middleware',
    { 'middleware.js': 'module.exports = (req, next) => next();', 'endpoint.js': 'exports.GET = () => {};' },
    [],
  ],
  [
    'helper exports beside handlers',
    { 'endpoint.ts': `${GET}export const config = { bodyLimit: 10 };\nexport function helper() {}` },
    [],
  ],
  [
    'handlers only reachable through export *',
    { 'a/endpoint.ts': "export * from './impl';", 'a/middleware.ts': "export * from './mw';" },
    [],
  ],
  [
    'a page beside an endpoint whose GET is unknown (export *)',
    { 'a/page.tsx': PAGE, 'a/endpoint.ts': "export * from './impl';" },
    [],
  ],
  ['a lower-case helper beside its method', { 'endpoint.ts': `${GET}export function get() {}` }, []],
  ['pages alone', { 'page.tsx': PAGE, 'about/page.jsx': PAGE }, []],
  [
    'all-caps exports far from every method name',
    { 'endpoint.ts': `${GET}export const MAX_SIZE = 10, API = 'v1', KEY = 'k', TTL = 60, ALL = [];` },
    [],
  ],
  [
    'a route.ts or index.ts that exports no method, or sits beside an endpoint',
    {
      'a/endpoint.ts': GET,
      'a/route.ts': GET,
      'b/index.ts': 'export default function helper() {}\nexport const config = {};',
      'b/endpoint.ts': GET,
    },
    [],
  ],

  // misspelt-method: an all-caps export this close to a method name is a misspelling, not a helper.
  [
    'PSOT beside GET',
    { 'endpoint.ts': `${GET}export function PSOT() {}` },
    [['misspelt-method', ['endpoint.ts']]],
  ],
  ['GTE alone', { 'endpoint.ts': 'export const GTE = () => {};' }, [['misspelt-method', ['endpoint.ts']]]],
  [
    'CommonJS DELTE and OPTINOS',
    { 'endpoint.js': 'exports.GET = () => {};\nexports.DELTE = () => {};\nexports.OPTINOS = () => {};' },
    [
      ['misspelt-method', ['endpoint.js']],
      ['misspelt-method', ['endpoint.js']],
    ],
  ],

  // misnamed-endpoint: Next.js's route.ts, or an index.ts, exporting handlers where no endpoint file is.
  [
    'a Next.js route.ts',
    { 'api/users/route.ts': GET + POST },
    [['misnamed-endpoint', ['api/users/route.ts']]],
  ],
  ['an index.js', { 'api/index.js': 'exports.GET = () => {};' }, [['misnamed-endpoint', ['api/index.js']]]],

  // page-conflict
  [
    'a page beside GET',
    { 'contact/page.tsx': PAGE, 'contact/endpoint.ts': GET },
    [['page-conflict', ['contact/page.tsx', 'contact/endpoint.ts']]],
  ],
  [
    'a page beside ANY',
    { 'a/page.tsx': PAGE, 'a/endpoint.ts': 'export const ANY = () => {};' },
    [['page-conflict', ['a/page.tsx', 'a/endpoint.ts']]],
  ],
  [
    'a page beside default',
    { 'a/page.js': PAGE, 'a/endpoint.js': 'export default () => {};' },
    [['page-conflict', ['a/page.js', 'a/endpoint.js']]],
  ],
  [
    'a page beside GET + POST',
    { 'a/page.tsx': PAGE, 'a/endpoint.ts': GET + POST },
    [['page-conflict', ['a/page.tsx', 'a/endpoint.ts']]],
  ],
  [
    'a page beside a CommonJS GET',
    { 'a/page.jsx': PAGE, 'a/endpoint.cjs': 'exports.GET = () => {};' },
    [['page-conflict', ['a/page.jsx', 'a/endpoint.cjs']]],
  ],
  [
    'a page and an endpoint in groups, one URL',
    { '(site)/a/page.tsx': PAGE, '(api)/a/endpoint.ts': GET },
    [['page-conflict', ['(site)/a/page.tsx', '(api)/a/endpoint.ts']]],
  ],
  [
    'a page at the URL an optional catch-all serves',
    { 'docs/page.tsx': PAGE, 'docs/[[...slug]]/endpoint.ts': GET },
    [['page-conflict', ['docs/page.tsx', 'docs/[[...slug]]/endpoint.ts']]],
  ],
  [
    'a root page beside a root GET',
    { 'page.tsx': PAGE, 'endpoint.ts': GET },
    [['page-conflict', ['page.tsx', 'endpoint.ts']]],
  ],

  // duplicate-route
  [
    'endpoint.ts and endpoint.js in one folder',
    { 'a/endpoint.ts': GET, 'a/endpoint.js': POST },
    [['duplicate-route', ['a/endpoint.js', 'a/endpoint.ts']]],
  ],
  [
    'groups collapsing to one URL',
    { '(a)/x/endpoint.ts': GET, '(b)/x/endpoint.ts': POST },
    [['duplicate-route', ['(a)/x/endpoint.ts', '(b)/x/endpoint.ts']]],
  ],
  [
    'a group and no group, one URL',
    { 'x/endpoint.ts': GET, '(b)/x/endpoint.mjs': POST },
    [['duplicate-route', ['(b)/x/endpoint.mjs', 'x/endpoint.ts']]],
  ],
  [
    'a root endpoint twice',
    { 'endpoint.ts': GET, '(g)/endpoint.ts': POST },
    [['duplicate-route', ['(g)/endpoint.ts', 'endpoint.ts']]],
  ],
  [
    'the same URL shape with different param names',
    { '(a)/u/[id]/endpoint.ts': GET, '(b)/u/[slug]/endpoint.ts': POST },
    [
      ['duplicate-route', ['(a)/u/[id]/endpoint.ts', '(b)/u/[slug]/endpoint.ts']],
      ['param-name-mismatch', ['(a)/u/[id]/endpoint.ts', '(b)/u/[slug]/endpoint.ts']],
    ],
  ],
  [
    'two catch-alls of one kind',
    { '(a)/d/[...x]/endpoint.ts': GET, '(b)/d/[...y]/endpoint.ts': GET },
    [['duplicate-route', ['(a)/d/[...x]/endpoint.ts', '(b)/d/[...y]/endpoint.ts']]],
  ],
  [
    'three files for one URL',
    { '(a)/x/endpoint.ts': GET, '(b)/x/endpoint.ts': GET, 'x/endpoint.js': GET },
    [['duplicate-route', ['(a)/x/endpoint.ts', '(b)/x/endpoint.ts', 'x/endpoint.js']]],
  ],

  // param-name-mismatch
  [
    'different param names at one position',
    { 'users/[id]/endpoint.ts': GET, 'users/[userId]/posts/endpoint.ts': GET },
    [['param-name-mismatch', ['users/[id]/endpoint.ts', 'users/[userId]/posts/endpoint.ts']]],
  ],
  [
    'three names at one position (one file per name)',
    {
      'u/[a]/x/endpoint.ts': GET,
      'u/[a]/y/endpoint.ts': GET,
      'u/[b]/endpoint.ts': GET,
      'u/[c]/z/endpoint.ts': GET,
    },
    [['param-name-mismatch', ['u/[a]/x/endpoint.ts', 'u/[b]/endpoint.ts', 'u/[c]/z/endpoint.ts']]],
  ],
  [
    'a mismatch below a param',
    { '[org]/[id]/endpoint.ts': GET, '[org]/[key]/x/endpoint.ts': GET },
    [['param-name-mismatch', ['[org]/[id]/endpoint.ts', '[org]/[key]/x/endpoint.ts']]],
  ],

  // duplicate-param
  [
    'one name twice in a path',
    { '[id]/x/[id]/endpoint.ts': GET },
    [['duplicate-param', ['[id]/x/[id]/endpoint.ts']]],
  ],
  [
    'a param and a catch-all of one name',
    { 'a/[path]/[...path]/endpoint.ts': GET },
    [['duplicate-param', ['a/[path]/[...path]/endpoint.ts']]],
  ],
  [
    'one duplicate folder holding two files',
    { '[id]/[id]/endpoint.ts': GET, '[id]/[id]/x/endpoint.ts': GET },
    [['duplicate-param', ['[id]/[id]/endpoint.ts', '[id]/[id]/x/endpoint.ts']]],
  ],

  // catch-all-not-last
  [
    'an endpoint below a catch-all',
    { 'docs/[...slug]/x/endpoint.ts': GET },
    [['catch-all-not-last', ['docs/[...slug]/x/endpoint.ts']]],
  ],
  [
    'an endpoint below an optional catch-all',
    { 'docs/[[...slug]]/[id]/endpoint.ts': GET },
    [['catch-all-not-last', ['docs/[[...slug]]/[id]/endpoint.ts']]],
  ],
  [
    'middleware below a catch-all',
    { 'docs/[...slug]/x/middleware.ts': 'export default (r, n) => n();' },
    [['catch-all-not-last', ['docs/[...slug]/x/middleware.ts']]],
  ],
  [
    'several files below one catch-all: one problem',
    { 'd/[...s]/a/endpoint.ts': GET, 'd/[...s]/b/c/endpoint.ts': GET },
    [['catch-all-not-last', ['d/[...s]/a/endpoint.ts', 'd/[...s]/b/c/endpoint.ts']]],
  ],

  // optional-catch-all-conflict
  [
    'an optional catch-all beside its parent endpoint',
    { 'docs/endpoint.ts': GET, 'docs/[[...slug]]/endpoint.ts': GET },
    [['optional-catch-all-conflict', ['docs/endpoint.ts', 'docs/[[...slug]]/endpoint.ts']]],
  ],
  [
    'a root optional catch-all beside the root endpoint',
    { 'endpoint.ts': GET, '[[...all]]/endpoint.ts': POST },
    [['optional-catch-all-conflict', ['endpoint.ts', '[[...all]]/endpoint.ts']]],
  ],
  [
    'a required catch-all beside its parent (fine)',
    { 'docs/endpoint.ts': GET, 'docs/[...slug]/endpoint.ts': GET },
    [],
  ],

  // catch-all-kinds
  [
    'a catch-all and an optional catch-all at one level',
    { 'docs/[...a]/endpoint.ts': GET, 'docs/[[...a]]/endpoint.ts': GET },
    [['catch-all-kinds', ['docs/[...a]/endpoint.ts', 'docs/[[...a]]/endpoint.ts']]],
  ],

  // malformed-segment
  ...['[]', '[...]', '[[x]]', '[[...]]', '[a-b]', '(g', '[id'].map((folder): Case => [
    `the folder ${folder}`,
    { [`a/${folder}/endpoint.ts`]: GET },
    [['malformed-segment', [`a/${folder}/endpoint.ts`]]],
  ]),
  [
    'one malformed folder holding two files',
    { '[]/endpoint.ts': GET, '[]/x/middleware.ts': 'export default () => {};' },
    [['malformed-segment', ['[]/endpoint.ts', '[]/x/middleware.ts']]],
  ],
  ['a malformed folder with only a page (pages are not routed here)', { '[]/page.tsx': PAGE }, []],

  // export mistakes
  [
    'ANY and default',
    { 'endpoint.ts': 'export const ANY = () => {};\nexport default () => {};' },
    [['any-and-default', ['endpoint.ts']]],
  ],
  ['GET = 42', { 'endpoint.ts': 'export const GET = 42;' }, [['not-a-function', ['endpoint.ts']]]],
  [
    'two literal handlers',
    { 'endpoint.ts': 'export const POST = "x";\nexport default { a: 1 };' },
    [
      ['not-a-function', ['endpoint.ts']],
      ['not-a-function', ['endpoint.ts']],
    ],
  ],
  ['a literal config (fine)', { 'endpoint.ts': `${GET}export const config = { bodyLimit: 1 };` }, []],
  ['lower-case get', { 'endpoint.ts': 'export function get() {}' }, [['lowercase-method', ['endpoint.ts']]]],
  ['a QUERY-only endpoint', { 'endpoint.ts': 'export function QUERY() {}' }, []],
  [
    'lower-case query',
    { 'endpoint.ts': 'export function query() {}' },
    [['lowercase-method', ['endpoint.ts']]],
  ],
  [
    'mixed-case Post and any',
    { 'endpoint.js': 'export const Post = () => {}, any = () => {};' },
    [
      ['lowercase-method', ['endpoint.js']],
      ['lowercase-method', ['endpoint.js']],
    ],
  ],
  [
    'no handler at all',
    { 'endpoint.ts': 'export const config = {};\nexport function helper() {}' },
    [['no-handler', ['endpoint.ts']]],
  ],
  ['an empty endpoint', { 'a/endpoint.js': '' }, [['no-handler', ['a/endpoint.js']]]],
  // Code the lexer cannot read may be valid: its names are unknown, and the import step reports real errors.
  ['a syntax error the lexer notices (left to the import)', { 'endpoint.ts': 'export function GET( {' }, []],
  ['a syntax error in middleware (left to the import)', { 'middleware.js': 'export default (' }, []],
  ['JSX the lexer cannot read', { 'endpoint.js': 'export const GET = () => <p>{"/"}</p>;' }, []],
  [
    'middleware without default',
    { 'middleware.ts': 'export function auth() {}', 'endpoint.ts': GET },
    [['middleware-no-default', ['middleware.ts']]],
  ],
  [
    'middleware with a literal default',
    { 'middleware.ts': 'export default {};' },
    [['not-a-function', ['middleware.ts']]],
  ],
];

describe('validateTree', () => {
  for (const [what, files, expected] of cases) {
    it(`${expected.length === 0 ? 'accepts' : expected.map(([code]) => code).join(' + ')}: ${what}`, () => {
      expect(problemsOf(files)).to.deep.equal(expected);
    });
  }

  it('reports every problem at once', () => {
    const problems = problemsOf({
      'contact/page.tsx': PAGE,
      'contact/endpoint.ts': GET,
      'a/endpoint.ts': GET,
      'a/endpoint.js': GET,
      'b/[]/endpoint.ts': GET,
      'c/endpoint.ts': 'export function get() {}',
      'd/endpoint.ts': 'export const GET = 42;',
    });
    expect(problems.map(([code]) => code).sort()).to.deep.equal([
      'duplicate-route',
      'lowercase-method',
      'malformed-segment',
      'not-a-function',
      'page-conflict',
    ]);
  });

  describe('messages', () => {
    function only(files: Record<string, string>): { dir: string; problem: Problem } {
      const dir = makeTree(files);
      const problems = validateTree(discoverTree(dir));
      expect(problems).to.have.length(1);
      return { dir, problem: problems[0] as Problem };
    }

    it('page-conflict names both files and the export', () => {
      const { dir, problem } = only({ 'contact/page.tsx': PAGE, 'contact/endpoint.ts': GET });
      const page = shown(dir, 'contact/page.tsx');
      const endpoint = shown(dir, 'contact/endpoint.ts');
      expect(problem).to.deep.include({ code: 'page-conflict', files: [page, endpoint], url: '/contact' });
      expect(problem.message.startsWith(`${page} and ${endpoint}: `)).to.equal(true);
      expect(problem.message)
        .to.match(/\bGET\b/)
        .and.not.match(/\bANY\b/);
    });

    it('page-conflict lists every GET-serving export', () => {
      const { problem } = only({ 'a/page.tsx': PAGE, 'a/endpoint.ts': `${GET}export const ANY = () => {};` });
      expect(problem.message).to.match(/\bGET and ANY\b/);
    });

    it('lowercase-method asks "did you mean GET?"', () => {
      const { dir, problem } = only({ 'x/endpoint.ts': 'export function get() {}' });
      expect(problem.message).to.match(/did you mean GET\?/);
      expect(problem.message.startsWith(`${shown(dir, 'x/endpoint.ts')}: `)).to.equal(true);
      expect(problem.url).to.equal('/x');
    });

    it('lowercase-method asks "did you mean QUERY?" for query', () => {
      const { problem } = only({ 'x/endpoint.ts': 'export function query() {}' });
      expect(problem.message).to.match(/did you mean QUERY\?/);
    });

    it('no-handler lists QUERY among the handler names', () => {
      const { problem } = only({ 'x/endpoint.ts': 'export const config = {};' });
      expect(problem.message).to.match(/\bQUERY\b/);
    });

    it('param-name-mismatch names the params', () => {
      const { problem } = only({ 'users/[id]/endpoint.ts': GET, 'users/[userId]/posts/endpoint.ts': GET });
      expect(problem.message).to.include('([id] and [userId])');
      expect(problem.url).to.equal('/users/[id]');
    });

    it('malformed-segment says why', () => {
      const { problem } = only({ '[[x]]/endpoint.ts': GET });
      expect(problem.message).to.include('"[[x]]"').and.include('[[...name]]');
    });

    it('every message names every file of its problem', () => {
      const dir = makeTree({
        '(a)/x/endpoint.ts': GET,
        '(b)/x/endpoint.ts': GET,
        'd/[...s]/a/endpoint.ts': GET,
        'd/[...s]/b/endpoint.ts': GET,
      });
      for (const problem of validateTree(discoverTree(dir))) {
        for (const file of problem.files) expect(problem.message).to.include(file);
      }
    });
  });
});

describe('assertValidTree', () => {
  it('returns quietly for a valid tree', () => {
    expect(() => assertValidTree(discoverTree(makeTree({ 'endpoint.ts': GET })))).not.to.throw();
  });

  it('throws an EndpointValidationError with every problem', () => {
    const dir = makeTree({
      'a/page.tsx': PAGE,
      'a/endpoint.ts': GET,
      'b/endpoint.ts': 'export function post() {}',
    });
    let caught: unknown;
    try {
      assertValidTree(discoverTree(dir));
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(EndpointValidationError);
    const error = caught as EndpointValidationError;
    expect(error.problems.map((p) => p.code)).to.deep.equal(['lowercase-method', 'page-conflict']);
    expect(error.message).to.match(/\b2 problems\b/);
    for (const problem of error.problems) expect(error.message).to.include(problem.message);
  });
});
