/**
 * `express-file-endpoints check` finds what would fail at startup without running endpoint code (syntax errors,
 * missing imports, ES syntax in CommonJS, TypeScript with no loader), `check --load` imports every module in a
 * child, `routes` shows a file that does not parse as an error, and `init` writes a starter for each kind of
 * app without overwriting anything. The CLI runs from src/cli/main.ts through tsx, as in cli.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { REPO_NODE_MODULES, runCli, writeFiles } from '../support/cli';

const STRIPS_TYPES = typeof (process.features as { typescript?: unknown }).typescript === 'string';

let cwd: string;

const writeTree = (files: Record<string, string>) => writeFiles(cwd, files);

/** Runs the CLI; `tsx: false` leaves tsx out of reach of the tree (no NODE_PATH to this repo's install). */
function run(args: string[], { tsx = true } = {}) {
  return runCli(args, { cwd, env: { ...process.env, NODE_PATH: tsx ? REPO_NODE_MODULES : '' } });
}

/** What `check` printed: the problem lines, each cut after its code and location (the words are messages.test.ts's). */
function problemLines(stderr: string): string[] {
  const [head, ...lines] = stderr.trimEnd().split('\n');
  expect(head).to.match(new RegExp(`\\b${lines.length} problems? in app:$`));
  return lines.map((line) => /^ {2}[\w-]+: (?:[^\s:]+(?::\d+:\d+)?: (?:'[^']*' )?)?/.exec(line)![0]);
}

/** Each test gets a fresh working folder for the CLI. */
function inScratchFolder(): void {
  beforeEach(() => {
    cwd = mkdtempSync(path.join(os.tmpdir(), 'ee-cli-startup-'));
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));
}

describe('express-file-endpoints check: what would fail at startup', () => {
  inScratchFolder();

  const COMMONJS = { 'package.json': '{ "type": "commonjs" }' };

  it('a syntax error, with file:line:column', () => {
    writeTree({ ...COMMONJS, 'app/a/endpoint.js': 'exports.GET = () => {\n  const = 1;\n};\n' });
    const result = run(['check']);
    expect(result.status).to.equal(1);
    expect(problemLines(result.stderr)).to.deep.equal(['  syntax-error: app/a/endpoint.js:2:9: ']);
  });

  it('a syntax error in TypeScript, and in a module the endpoint imports', () => {
    writeTree({
      'app/a/endpoint.ts': "import { db } from '../_lib/db';\nexport const GET = () => Response.json(db);\n",
      'app/_lib/db.ts': 'export const db: = {};\n',
    });
    expect(run(['check']).stderr).to.include('  syntax-error: app/_lib/db.ts:1:18: ');
  });

  it('relative imports that do not resolve: ./x and ../lib/y, with the position of each', () => {
    writeTree({
      ...COMMONJS,
      'app/b/endpoint.js': "const db = require('./db');\nexports.GET = () => new Response(db);\n",
      'app/c/endpoint.mjs': "import { y } from '../lib/y';\nexport const GET = () => new Response(y);\n",
    });
    const result = run(['check']);
    expect(result.status).to.equal(1);
    expect(result.stderr).to.include("  unresolved-import: app/b/endpoint.js:1:20: './db' ");
    expect(result.stderr).to.include("  unresolved-import: app/c/endpoint.mjs:1:19: '../lib/y' ");
  });

  it('resolves as the loader will: require() adds .js, tsx adds .ts and maps .js to .ts, ES imports need the name', () => {
    writeTree({
      ...COMMONJS,
      'app/lib.js': 'exports.x = 1;',
      'app/lib2.ts': 'export const x = 1;',
      'app/a/endpoint.js': "const { x } = require('../lib');\nexports.GET = () => new Response(String(x));\n",
      'app/b/endpoint.ts':
        "import { x } from '../lib2.js';\nexport const GET = () => new Response(String(x));\n",
      'app/c/endpoint.mjs':
        "import { x } from '../lib';\nexport const GET = () => new Response(String(x));\n",
    });
    const result = run(['check']);
    expect(problemLines(result.stderr)).to.deep.equal([
      "  unresolved-import: app/c/endpoint.mjs:1:19: '../lib' ",
    ]);
    // The fix names the file the import means.
    expect(result.stderr).to.include("'../lib.js'");
  });

  it('ES syntax in a .js file of a "type": "commonjs" package', () => {
    writeTree({ ...COMMONJS, 'app/c/endpoint.js': "export function GET() { return new Response('x'); }\n" });
    const result = run(['check']);
    expect(result.status).to.equal(1);
    expect(result.stderr).to.match(
      /^ {2}module-syntax-in-commonjs: app\/c\/endpoint\.js:1:1: .*\bexports\.GET\b.*\bendpoint\.mjs\b.*"type": "module"/m,
    );
  });

  it('TypeScript with no loader: a problem without type stripping, a note with it', () => {
    writeTree({
      'app/d/endpoint.ts': 'export function GET(req: Request) { return new Response(req.url); }\n',
    });
    const result = run(['check'], { tsx: false });
    if (STRIPS_TYPES) {
      expect(result.status).to.equal(0);
      // A note, not a problem: it names tsx and the Node that will strip the types.
      expect(result.stdout)
        .to.match(/^note: .*\btsx\b/)
        .and.include(process.version);
    } else {
      expect(result.status).to.equal(1);
      expect(result.stderr).to.match(
        /^ {2}no-typescript-loader: app\/d\/endpoint\.ts: .*npm install -D tsx/m,
      );
    }
  });

  it("with Node's own type stripping: what it cannot run is a problem (skipped on Nodes without it)", function () {
    if (!STRIPS_TYPES) this.skip();
    writeTree({
      'app/lib.ts': 'export const x = 1;',
      'app/e/endpoint.ts':
        "import { x } from '../lib';\nenum E { A }\nexport const GET = () => new Response(String(E.A + x));\n",
    });
    const result = run(['check'], { tsx: false });
    expect(result.status).to.equal(1);
    expect(result.stderr).to.include("needs-tsx: app/e/endpoint.ts:1:19: '../lib' ");
    expect(result.stderr).to.match(/needs-tsx: app\/e\/endpoint\.ts:2:1: .*\benum\b/);
  });

  it('--load imports every module in a child and reports each failure with its file', function () {
    this.timeout(60_000);
    writeTree({
      'app/ok/endpoint.js': "exports.GET = () => new Response('ok');\n",
      'app/boom/endpoint.js': "throw new Error('database down');\nexports.GET = () => 1;\n",
      'app/star/endpoint.js': "module.exports = require('./impl');\n",
      'app/star/impl.js': 'exports.get = () => 1;\n',
    });
    expect(run(['check']).status).to.equal(0);
    const result = run(['check', '--load']);
    expect(result.status).to.equal(1);
    expect(problemLines(result.stderr)).to.deep.equal(['  load-error: ']);
    expect(result.stderr).to.match(/app\/boom\/endpoint\.js \(line 1, column 7\).*database down/);
    rmSync(path.join(cwd, 'app/boom'), { recursive: true });
    // Loaded, the real exports are validated: `get` is not GET.
    expect(run(['check', '--load']).stderr).to.include('  lowercase-method: app/star/endpoint.js: ');
    writeFileSync(path.join(cwd, 'app/star/impl.js'), 'exports.GET = () => new Response();\n');
    const loaded = run(['check', '--load']);
    expect(loaded.status).to.equal(0);
    expect(loaded.stdout).to.match(/\b2 endpoints\b.*\bevery module loaded\b/);
  });
});

describe('express-file-endpoints check --load: a SyntaxError thrown while a module runs', () => {
  inScratchFolder();

  it('is told apart from a syntax error of the file, and does not send the user back to `check`', function () {
    this.timeout(60_000);
    writeTree({
      'app/env/endpoint.js':
        "const limits = JSON.parse(process.env.EE_NO_SUCH_LIMITS ?? '{oops');\nexports.GET = () => Response.json(limits);\n",
    });
    expect(run(['check']).status).to.equal(0);
    const result = run(['check', '--load']);
    expect(result.status).to.equal(1);
    expect(result.stderr).to.match(/load-error: .*\bapp\/env\/endpoint\.js \(line 1, column \d+\): /);
    expect(result.stderr).to.match(/\btop-level code threw it\b/);
    expect(result.stderr).not.to.include('express-file-endpoints check');
  });
});

describe('express-file-endpoints routes: a file that does not parse', () => {
  inScratchFolder();

  it('is listed as a syntax error, not as OPTIONS, and the command exits 1', () => {
    writeTree({
      'app/a/endpoint.js': 'exports.GET = () => {\n  const = 1;\n};\n',
      'app/b/endpoint.js': 'exports.GET = () => 1;',
    });
    const result = run(['routes']);
    expect(result.status).to.equal(1);
    const rows = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/ {2,}/));
    expect(rows[1]![0]).to.match(/^✗ .*\bsyntax error\b/);
    expect(rows.map((row, i) => (i === 1 ? row.slice(1) : row))).to.deep.equal([
      ['METHODS', 'URL', 'FILE'],
      ['/a', 'app/a/endpoint.js'],
      ['GET HEAD OPTIONS', '/b', 'app/b/endpoint.js'],
    ]);
    expect(result.stderr).to.include('syntax-error: app/a/endpoint.js:2:9');
  });
});

describe('express-file-endpoints init', () => {
  inScratchFolder();

  for (const [name, manifest, extra, endpoint, test, needle] of [
    [
      'CommonJS JavaScript',
      { type: 'commonjs' },
      {},
      'app/api/hello/endpoint.js',
      'test/hello.test.js',
      'exports.GET = async (req) =>',
    ],
    [
      'ES module JavaScript',
      { type: 'module' },
      {},
      'app/api/hello/endpoint.js',
      'test/hello.test.js',
      'export async function GET(req)',
    ],
    [
      'CommonJS TypeScript',
      {},
      { 'tsconfig.json': '{}' },
      'app/api/hello/endpoint.ts',
      'test/hello.test.ts',
      'export async function GET(req: Request)',
    ],
  ] as const) {
    it(`${name}: an endpoint, a test, the mount line`, () => {
      writeTree({
        'package.json': JSON.stringify(manifest),
        ...extra,
        'server.js': 'const app = express();\n',
      });
      const result = run(['init']);
      expect(result.status, result.stderr).to.equal(0);
      expect(readFileSync(path.join(cwd, endpoint), 'utf8')).to.include(needle);
      expect(existsSync(path.join(cwd, test))).to.equal(true);
      expect(result.stdout)
        .to.match(new RegExp(`\\bcreated\\b.*${endpoint}`))
        .and.match(new RegExp(`\\bcreated\\b.*${test}`));
      expect(result.stdout).to.match(/\bserver\.js:\n/);
      const esm = manifest.type === 'module';
      expect(result.stdout).to.include(
        esm ? "dir: new URL('./app', import.meta.url)" : 'dir: `${__dirname}/app`',
      );
      expect(result.stdout).not.to.match(/\bawait\b|const path\b/);
    });
  }

  // Stand-ins for express and the package, so that the printed lines run inside the app as they are.
  const STUBS = {
    'node_modules/express/index.js':
      'module.exports = () => ({ used: [], use(fn) { this.used.push(fn); } });\n',
    'node_modules/express-file-endpoints/package.json': JSON.stringify({
      name: 'express-file-endpoints',
      main: 'index.js',
    }),
    'node_modules/express-file-endpoints/index.js': `exports.mountEndpoints = (options) => {
  if (typeof options !== 'object' || !('dir' in options)) throw new Error('mountEndpoints(options) expected');
  const dir = require('node:url').fileURLToPath(new URL(String(options.dir), 'file:///'));
  return Object.assign(function endpoints() {}, { dir: require('node:path').relative(process.cwd(), dir) });
};\n`,
  };

  /** The lines `init` prints for the app file, as the user would paste them. */
  function printedMountLines(stdout: string): string {
    const [, block] = /\bserver\.js:\n\n([\s\S]*?\n)\n(?=\S)/.exec(stdout) ?? [];
    return (block ?? '').replace(/^ {4}/gm, '');
  }

  for (const [name, type, app, tail] of [
    [
      'CommonJS that already requires path, app exported at module level',
      'commonjs',
      "var path = require('path');\nvar express = require('express');\nvar app = module.exports = express();\n",
      'console.log(app.used.map((fn) => fn.dir).join());\n',
    ],
    [
      'an ES module that already imports fileURLToPath, app made in a plain function',
      'module',
      "import { fileURLToPath } from 'node:url';\nimport path from 'node:path';\nimport express from 'express';\nexport function createApp() {\n  const app = express();\n",
      '  return app;\n}\nconsole.log(createApp().used.map((fn) => fn.dir).join());\n',
    ],
  ] as const) {
    it(`prints mount lines that run pasted into the app: ${name}`, () => {
      writeTree({ ...STUBS, 'package.json': JSON.stringify({ type }), 'server.js': app });
      const result = run(['init']);
      expect(result.status, result.stderr).to.equal(0);
      const lines = printedMountLines(result.stdout);
      expect(lines).to.include('mountEndpoints');
      // Imports go first in an ES module; in CommonJS the lines go where the app is set up.
      const [imports, mount] = type === 'module' ? lines.split('\n\n') : ['', lines];
      writeFileSync(path.join(cwd, 'server.js'), `${imports ?? ''}\n${app}${mount ?? ''}\n${tail}`);
      const server = spawnSync(process.execPath, ['server.js'], { cwd, encoding: 'utf8' });
      expect(server.stderr, readFileSync(path.join(cwd, 'server.js'), 'utf8')).to.equal('');
      expect(server.stdout).to.equal('app\n');
    });
  }

  it('never overwrites a file, and says which it kept', () => {
    writeTree({ 'package.json': '{}', 'app/api/hello/endpoint.js': '// mine\n' });
    const result = run(['init']);
    expect(result.status).to.equal(0);
    expect(result.stdout).to.match(/\bkept\b.*app\/api\/hello\/endpoint\.js/);
    expect(readFileSync(path.join(cwd, 'app/api/hello/endpoint.js'), 'utf8')).to.equal('// mine\n');
  });

  it('without a package.json: says to run it in the app folder, exit 1', () => {
    const result = run(['init']);
    expect(result.status).to.equal(1);
    expect(result.stderr).to.include(cwd).and.include('package.json');
  });
});
