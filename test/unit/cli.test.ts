/**
 * The `express-file-endpoints` bin, run as a child process from src/cli/main.ts through tsx: exit codes, output of
 * `check` and `routes` for valid and invalid trees, `typegen`, usage errors, and that endpoint code is never run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { REPO_NODE_MODULES, runCli, writeFiles } from '../support/cli';

let cwd: string;

/** Writes `files` (path -> content) below this test's temporary working folder. */
const writeTree = (files: Record<string, string>) => writeFiles(cwd, files);

// tsx is found from the trees below (as an app's own install would be) through NODE_PATH, unless a test
// wants it missing.
const WITH_TSX = { ...process.env, NODE_PATH: REPO_NODE_MODULES };

const run = (...args: string[]) => runWith(WITH_TSX, ...args);
const runWith = (env: NodeJS.ProcessEnv, ...args: string[]) => runCli(args, { cwd, env });

const GET = 'export function GET() { return new Response("ok"); }\n';

// An endpoint module with contracts: a Standard Schema that accepts anything, and the library's defineHandler.
const SRC = JSON.stringify(path.resolve(__dirname, '../../src'));
const withContracts = (handlers: string) =>
  `import { defineHandler } from ${SRC};\n` +
  "const any = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };\n" +
  handlers;

beforeEach(() => {
  cwd = mkdtempSync(path.join(os.tmpdir(), 'ee-cli-'));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

describe('express-file-endpoints check', () => {
  it('prints a one-line summary and exits 0 for a valid tree', () => {
    writeTree({
      'app/endpoint.ts': GET,
      'app/api/users/[id]/endpoint.ts': 'export async function GET(req: Request) { return new Response(); }',
      'app/contact/page.tsx': 'export default function Page() { return null; }',
      'app/contact/endpoint.js': 'exports.POST = () => {};',
    });
    const result = run('check');
    expect([result.status, result.stderr]).to.deep.equal([0, '']);
    expect(result.stdout).to.match(/^[^\n]*\b3 endpoints\b[^\n]*\bin app\n$/);
  });

  it('checks the folder given', () => {
    writeTree({ 'src/routes/x/endpoint.ts': GET });
    expect(run('check', 'src/routes').stdout).to.match(/^[^\n]*\b1 endpoint\b[^\n]*\bin src\/routes\n$/);
    expect(run('check', path.join(cwd, 'src', 'routes')).status).to.equal(0);
  });

  it('prints every problem and exits 1 for an invalid tree', () => {
    writeTree({
      'app/contact/page.tsx': 'export default function Page() { return null; }',
      'app/contact/endpoint.ts': GET,
      'app/a/endpoint.ts': GET,
      'app/a/endpoint.js': GET,
      'app/b/endpoint.ts': 'export function get() {}',
    });
    const result = run('check');
    expect(result.status).to.equal(1);
    expect(result.stdout).to.equal('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).to.match(/\b3 problems\b.*\bin app\b/);
    // One line each: its code, then the files it names, then the message.
    const heads = [
      '  duplicate-route: app/a/endpoint.js and app/a/endpoint.ts: ',
      '  lowercase-method: app/b/endpoint.ts: ',
      '  page-conflict: app/contact/page.tsx and app/contact/endpoint.ts: ',
    ];
    expect(
      lines
        .slice(1)
        .sort()
        .map((line, i) => line.slice(0, heads[i]?.length)),
    ).to.deep.equal(heads);
  });

  it('reports a Next.js route.ts and a misspelt method, and exits 1', () => {
    writeTree({ 'app/a/route.ts': GET, 'app/b/endpoint.ts': `${GET}export function PSOT() {}` });
    const result = run('check');
    expect(result.status).to.equal(1);
    expect(result.stderr).to.match(/misnamed-endpoint: app\/a\/route\.ts: .*\bendpoint\.ts\b/);
    expect(result.stderr).to.match(/misspelt-method: app\/b\/endpoint\.ts: .*\bPOST\b/);
  });

  it('never runs endpoint or middleware code', () => {
    const marker = path.join(cwd, 'ran.txt');
    const sideEffect = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nthrow new Error('top level ran');\n`;
    writeTree({
      'app/a/endpoint.js': `${sideEffect}exports.GET = () => {};`,
      'app/b/endpoint.ts': `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nthrow new Error('x');\nexport function POST() {}`,
      'app/middleware.js': `${sideEffect}module.exports = (req, next) => next();`,
    });
    expect(run('check').status).to.equal(0);
    expect(run('routes').status).to.equal(0);
    expect(existsSync(marker)).to.equal(false);
  });

  it('--load finds a contract that would refuse every request: a body on GET, params on a route without any', () => {
    writeTree({
      'app/search/endpoint.ts': withContracts(
        'export const GET = defineHandler({ body: any }, () => new Response());\n',
      ),
      'app/static/endpoint.ts': withContracts(
        'export const POST = defineHandler({ params: any }, () => new Response());\n',
      ),
    });
    expect(run('check').status).to.equal(0);
    const result = run('check', '--load');
    expect(result.status).to.equal(1);
    expect(result.stderr).to.include(
      'app/search/endpoint.ts: the contract of GET has a body schema, but a GET request has no body',
    );
    expect(result.stderr).to.include(
      'app/static/endpoint.ts: the contract of POST has a params schema, but /static has no params',
    );
  });

  it('exits 1 with a clear message when the folder is missing', () => {
    const result = run('check', 'nowhere');
    expect(result.status).to.equal(1);
    expect(result.stderr).to.include(path.join(cwd, 'nowhere')).and.include('does not exist');
  });

  it('defaults to ./app, and says so when it is missing', () => {
    const result = run('check');
    expect(result.status).to.equal(1);
    expect(result.stderr).to.include(path.join(cwd, 'app'));
  });
});

describe('express-file-endpoints routes', () => {
  it('prints the methods each endpoint serves, its URL and its file', () => {
    writeTree({
      'app/endpoint.ts': GET,
      'app/users/[id]/endpoint.ts': `${GET}export function DELETE() {}\nexport const config = {};`,
      'app/users/new/endpoint.js': 'exports.POST = () => {};',
      'app/proxy/[[...path]]/endpoint.ts': 'export default async (req: Request) => fetch(req);',
      'app/mixed/endpoint.ts': `${GET}export const ANY = () => new Response();`,
      'app/more/endpoint.ts': "export * from './impl';\nexport function PUT() {}",
      'app/more/impl.ts': 'export function PATCH() {}',
    });
    const result = run('routes');
    expect(result.status).to.equal(0);
    const lines = result.stdout.split('\n');
    // The footnote explains the `…`: its words are pinned in messages.test.ts.
    expect(lines.splice(8, 1)[0]).to.match(/^… .*\(export \*\)/);
    expect(lines).to.deep.equal([
      'METHODS                  URL                 FILE',
      'GET HEAD OPTIONS         /                   app/endpoint.ts',
      'GET HEAD ANY             /mixed              app/mixed/endpoint.ts',
      'PUT OPTIONS …            /more               app/more/endpoint.ts',
      'ANY                      /proxy/[[...path]]  app/proxy/[[...path]]/endpoint.ts',
      'POST OPTIONS             /users/new          app/users/new/endpoint.js',
      'GET HEAD DELETE OPTIONS  /users/[id]         app/users/[id]/endpoint.ts',
      '',
      '',
    ]);
  });

  it('lists QUERY, and check accepts a QUERY-only endpoint', () => {
    writeTree({
      'app/search/endpoint.ts': 'export async function QUERY(req: Request) { return new Response(); }',
      'app/both/endpoint.ts': `${GET}export function QUERY() {}`,
    });
    expect(run('check').status).to.equal(0);
    expect(run('routes').stdout.split('\n').slice(1, 3)).to.deep.equal([
      'GET HEAD QUERY OPTIONS  /both    app/both/endpoint.ts',
      'QUERY OPTIONS           /search  app/search/endpoint.ts',
    ]);
  });

  it('--load adds what each contract validates and the statuses it lists, running the modules in a child', () => {
    writeTree({
      'app/users/[id]/endpoint.ts': withContracts(
        'export const PUT = defineHandler({ params: any, body: any, responses: { 200: any, 404: any } }, () => new Response());\n' +
          'export const GET = defineHandler({ query: any }, () => new Response());\n' +
          'export function DELETE() { return new Response(); }\n',
      ),
      'app/plain/endpoint.ts': GET,
    });
    const plain = run('routes');
    expect(plain.stdout.split('\n')[0]).to.match(/^METHODS +URL +FILE$/);
    const result = run('routes', '--load');
    expect(result.status, result.stderr).to.equal(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).to.match(/^METHODS +URL +CONTRACTS +FILE$/);
    expect(lines[1]).to.match(/^GET HEAD OPTIONS +\/plain +- +app\/plain\/endpoint\.ts$/);
    expect(lines[2]).to.match(
      /^GET HEAD PUT DELETE OPTIONS +\/users\/\[id\] +GET query; PUT params body → 200 404 +app\/users\/\[id\]\/endpoint\.ts$/,
    );
  });

  it('still prints the table for an invalid tree, then the problems, and exits 1', () => {
    writeTree({ 'app/a/page.tsx': '', 'app/a/endpoint.ts': GET });
    const result = run('routes');
    expect(result.status).to.equal(1);
    expect(result.stdout).to.include('/a');
    expect(result.stderr).to.include('page-conflict');
  });
});

describe('express-file-endpoints typegen', () => {
  it('`typegen [dir] --out file` writes the file, and leaves it alone when unchanged', () => {
    const fixture = path.join(__dirname, '../fixtures/typed-routes/app');
    const file = path.join(cwd, 'routes.d.ts');
    const first = run('typegen', fixture, '--out', file);
    expect(first.status, first.stderr).to.equal(0);
    expect(first.stdout).to.match(/\broutes\.d\.ts\b.*\b4 routes\b/);
    expect(readFileSync(file, 'utf8')).to.include("'/api/users/[id]': { params: { id: string }; methods: ");
    const written = statSync(file).mtimeMs;
    const second = run('typegen', fixture, '--out', file);
    expect(second.stdout).not.to.equal(first.stdout);
    expect(statSync(file).mtimeMs).to.equal(written);
  });
});

describe('express-file-endpoints usage', () => {
  it('--help prints usage and exits 0', () => {
    const result = run('--help');
    expect(result.status).to.equal(0);
    expect(result.stdout).to.match(/^Usage: express-file-endpoints <command> \[dir\]/);
    expect(run('check', '-h').status).to.equal(0);
  });

  it('--version and -v print the package version and exit 0', () => {
    const { version } = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
      version: string;
    };
    expect(run('--version')).to.deep.equal({ status: 0, stdout: `${version}\n`, stderr: '' });
    expect(run('-v').stdout).to.equal(`${version}\n`);
  });

  it('the help keeps every summary in its own column, two spaces from the longest synopsis', () => {
    const lines = run('--help').stdout.split('\n');
    const start = lines.indexOf('Commands:') + 1;
    const commands = lines.slice(start, lines.indexOf('', start));
    const column = /^ {2}\S.*?\S {2,}(?=\S)/.exec(commands[0]!)![0].length;
    for (const line of commands) {
      // A synopsis, two spaces or more, its summary; or a continuation line indented to the same column.
      expect(line.slice(0, column), line).to.match(/^ {2}\S.*\S {2,}$|^ +$/);
      expect(line[column], line).to.match(/\S/);
    }
    expect(lines.join('\n')).to.include('typegen [dir] [--out file]  write');
  });

  for (const args of [
    [],
    ['deploy'],
    ['check', 'app', 'extra'],
    ['check', '--strict'],
    ['routes', '--strict'],
    ['typegen', '--out'],
    ['typegen', 'a', 'b'],
  ]) {
    it(`exits 2 with usage for ${args.length === 0 ? 'no command' : args.join(' ')}`, () => {
      const result = run(...args);
      expect(result.status).to.equal(2);
      expect(result.stderr).to.include('Usage: express-file-endpoints');
      expect(result.stdout).to.equal('');
    });
  }
});
