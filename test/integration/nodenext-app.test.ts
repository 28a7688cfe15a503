/**
 * A TypeScript ES module app written for TypeScript's NodeNext settings (test/fixtures/nodenext-app):
 * `"type": "module"`, endpoints that import `../_lib/json.js` for `_lib/json.ts`, `import type`, a store the app
 * and an endpoint share, tested with Vitest and supertest, installed by pnpm (the library reached through
 * node_modules/.pnpm, with links to its own dependencies only), and no tsx. Each copy is laid out as pnpm lays it
 * out, in a temp folder that no node_modules above it reaches:
 *
 * - plain Node loads the endpoints with its own type stripping, the `.js` specifiers mapped to the `.ts` files,
 *   one instance of the store for the app and the endpoints;
 * - Vitest, with no setting (the library in Node's loader) and with docs/testing.md's setting;
 * - the errors and `check` name the fix, in pnpm's words;
 * - tsc with `declaration: true`: the inferred `Response` of a handler names undici-types, which pnpm keeps out
 *   of the app's reach, and docs/typescript.md's annotation compiles.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { fileOf, snippet } from '../support/readme-snippets';
import { ROOT, RUNNERS, runNode, type RunResult } from '../support/runner-apps';
import { ensureBuilt, nodeStripsTypes } from './loading-apps';

const FIXTURE = path.join(ROOT, 'test/fixtures/nodenext-app');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
};
const versionOf = (name: string) =>
  (
    JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

const made: string[] = [];

function link(at: string, target: string): void {
  mkdirSync(path.dirname(at), { recursive: true });
  symlinkSync(path.isAbsolute(target) ? target : path.relative(path.dirname(at), target), at, 'dir');
}

/**
 * A copy of the fixture, `files` written over it, installed as pnpm installs it: every package in its own folder
 * of node_modules/.pnpm, beside links to its own dependencies, and node_modules/<name> a link into the store for
 * the app's direct dependencies only. The library and the types are copies (their real paths are in the store,
 * as pnpm's are); the other packages are links to this repository's copies. No tsx anywhere.
 */
function pnpmApp(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ee-nodenext-app-'));
  made.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  const modules = path.join(dir, 'node_modules');
  const store = (name: string, version: string) =>
    path.join(modules, '.pnpm', `${name.replace('/', '+')}@${version}`, 'node_modules');

  const library = path.join(store('express-file-endpoints', manifest.version), 'express-file-endpoints');
  mkdirSync(library, { recursive: true });
  cpSync(path.join(ROOT, 'package.json'), path.join(library, 'package.json'));
  cpSync(path.join(ROOT, 'dist'), path.join(library, 'dist'), { recursive: true });
  for (const dependency of Object.keys(manifest.dependencies)) {
    link(
      path.join(store('express-file-endpoints', manifest.version), dependency),
      path.join(ROOT, 'node_modules', dependency),
    );
  }
  link(path.join(modules, 'express-file-endpoints'), library);

  // @types/node depends on undici-types, which the app does not: it is reachable from @types/node's folder only.
  const typesNode = path.join(store('@types/node', versionOf('@types/node')), '@types/node');
  const undici = path.join(store('undici-types', versionOf('undici-types')), 'undici-types');
  cpSync(path.join(ROOT, 'node_modules/@types/node'), typesNode, { recursive: true });
  cpSync(path.join(ROOT, 'node_modules/undici-types'), undici, { recursive: true });
  link(path.join(store('@types/node', versionOf('@types/node')), 'undici-types'), undici);
  link(path.join(modules, '@types/node'), typesNode);

  for (const name of ['express', 'supertest', 'vitest', 'typescript']) {
    link(path.join(modules, name), path.join(ROOT, 'node_modules', name));
  }
  expect(canResolve(dir, 'tsx/package.json'), 'tsx is reachable from the app').to.equal(false);
  expect(canResolve(dir, 'undici-types/package.json'), 'undici-types is reachable from the app').to.equal(
    false,
  );
  return dir;
}

function canResolve(dir: string, name: string): boolean {
  try {
    createRequire(path.join(dir, 'src/lib/endpoints/health/x.js')).resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** The app, started by a script of its own, as `node probe.mjs`: its answers, its store, its warnings. */
const PROBE = `// probe.mjs — mounts the endpoints beside the app's own store, and asks them
import { fileURLToPath } from 'node:url';
import { mountEndpoints } from 'express-file-endpoints';
import { store } from './src/lib/store.ts';

const warnings = [];
process.on('warning', (warning) => warnings.push(warning.name + ': ' + warning.message));
const endpoints = mountEndpoints({
  dir: fileURLToPath(new URL('./src/lib/endpoints', import.meta.url)),
  onError: () => {},
});
try {
  await endpoints.ready;
} catch (error) {
  console.log(JSON.stringify({ error: error.message }));
  process.exit(0);
}
const ask = async (path, init) => {
  const response = await endpoints.fetch(new Request('http://localhost' + path, init));
  return { status: response.status, body: await response.json() };
};
store.add('Ada');
const health = await ask('/health');
const items = await ask('/items');
const posted = await ask('/items', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'Grace' }),
});
console.log(JSON.stringify({ health, items, posted, list: store.list(), instance: store.instance, warnings }));
`;

interface ProbeOutcome {
  error?: string;
  health?: unknown;
  items?: { status: number; body: { items: unknown; instance: string } };
  posted?: unknown;
  list?: unknown;
  instance?: string;
  warnings?: string[];
}

async function probe(dir: string): Promise<ProbeOutcome> {
  writeFileSync(path.join(dir, 'probe.mjs'), PROBE);
  const result = await runNode(['probe.mjs'], dir);
  expect(result.code, result.output).to.equal(0);
  return JSON.parse(result.output.trim().split('\n').pop()!) as ProbeOutcome;
}

const ENUM_ENDPOINT = {
  'src/lib/endpoints/kinds/endpoint.ts':
    "import { json } from '../_lib/json.js';\n\nenum Kind {\n  Plain = 'plain',\n}\n\nexport function GET(): Response {\n  return json({ kind: Kind.Plain });\n}\n",
};

function expectPassed(result: RunResult, summary: RegExp): void {
  expect(result.output, result.output).to.match(summary);
  expect(result.code, result.output).to.equal(0);
}

describe('integration: a TypeScript ES module app with NodeNext imports, Vitest and pnpm', function () {
  this.timeout(90_000);
  before(async function () {
    this.timeout(120_000);
    await ensureBuilt();
  });
  after(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  describe('plain Node, without tsx', () => {
    before(function () {
      if (!nodeStripsTypes) this.skip();
    });

    it("loads `../_lib/json.js` as json.ts with Node's type stripping; the app and the endpoints share one store", async () => {
      const outcome = await probe(pnpmApp());
      expect(outcome.error, 'load error').to.equal(undefined);
      expect(outcome.health).to.deep.equal({ status: 200, body: { ok: true } });
      expect(outcome.items).to.deep.equal({
        status: 200,
        body: { items: [{ id: '1', name: 'Ada' }], instance: outcome.instance },
      });
      expect(outcome.posted).to.deep.equal({ status: 201, body: { id: '2', name: 'Grace' } });
      expect(outcome.list).to.deep.equal([
        { id: '1', name: 'Ada' },
        { id: '2', name: 'Grace' },
      ]);
      expect(outcome.warnings).to.deep.equal([]);
    });

    it('a `.js` file that is there is the one loaded, beside a `.ts` file of the same name', async () => {
      const outcome = await probe(
        pnpmApp({
          'src/lib/endpoints/_lib/json.js': 'export const json = () => Response.json({ from: "js" });\n',
        }),
      );
      expect(outcome.health).to.deep.equal({ status: 200, body: { from: 'js' } });
    });

    it('what stripping cannot run fails naming the file and `pnpm add -D tsx`, no Vitest advice', async () => {
      const outcome = await probe(pnpmApp(ENUM_ENDPOINT));
      expect(outcome.error).to.match(/^Could not load src\/lib\/endpoints\/kinds\/endpoint\.ts\b/);
      expect(outcome.error).to.include('enums').and.include('(`pnpm add -D tsx`)');
      expect(outcome.error).not.to.include('npm install').and.not.include('vitest');
    });
  });

  describe('Vitest', () => {
    it("with no setting: the library in Node's loader loads the NodeNext endpoints, and the suite passes", async () => {
      const dir = pnpmApp({ 'vitest.config.ts': 'export default {};\n' });
      const result = await runNode([RUNNERS.vitest, 'run', 'test/endpoints.spec.ts'], dir);
      expectPassed(result, /Tests\s+2 passed \(2\)/);
      expect(result.output).not.to.include('EndpointLoadError');
    });

    it("with docs/testing.md's setting: the test, the app's route and the endpoints share one store", async () => {
      const result = await runNode([RUNNERS.vitest, 'run'], pnpmApp());
      expectPassed(result, /Tests\s+3 passed \(3\)/);
    });

    it("with no setting, a file stripping cannot run fails with docs/testing.md's advice for Vitest, in pnpm's words", async () => {
      const dir = pnpmApp({
        ...ENUM_ENDPOINT,
        'vitest.config.ts': 'export default {};\n',
        'test/kinds.spec.ts': `import { expect, test } from 'vitest';
import { createApp } from '../src/app.js';

test('the load error names the file and the fix', async () => {
  const error = await createApp().then(() => undefined, (thrown: Error) => thrown);
  expect(error?.message).toMatch(/^Could not load src\\/lib\\/endpoints\\/kinds\\/endpoint\\.ts\\b/);
  expect(error?.message).toContain("test: { server: { deps: { inline: ['express-file-endpoints'] } } }");
  expect(error?.message).toContain('pnpm add -D tsx');
});
`,
      });
      const result = await runNode([RUNNERS.vitest, 'run', 'test/kinds.spec.ts'], dir);
      expectPassed(result, /Tests\s+1 passed \(1\)/);
    });
  });

  describe('check', () => {
    const check = (dir: string) =>
      runNode(
        [path.join(dir, 'node_modules/express-file-endpoints/dist/cli.js'), 'check', 'src/lib/endpoints'],
        dir,
      );

    it('follows `../_lib/json.js` to json.ts, and says `pnpm add -D tsx` where it mentions tsx', async function () {
      if (!nodeStripsTypes) this.skip();
      const result = await check(pnpmApp());
      expect(result.output).not.to.include('does not resolve');
      expectPassed(result, /✓ 2 endpoints, 0 problems in src\/lib\/endpoints/);
      expect(result.output).to.include('`pnpm add -D tsx` lifts all three').and.not.include('npm install');
    });

    it('reports what stripping cannot run with `pnpm add -D tsx`, and `yarn add -D tsx` in a yarn app', async function () {
      if (!nodeStripsTypes) this.skip();
      const pnpm = await check(pnpmApp(ENUM_ENDPOINT));
      expect(pnpm.code).to.equal(1);
      expect(pnpm.output).to.include(
        'needs-tsx: src/lib/endpoints/kinds/endpoint.ts:3:1: an enum needs compiling. Node loads it with its own type stripping (tsx not found), which cannot run it; `pnpm add -D tsx`, or rewrite it.',
      );
      expect(pnpm.output).not.to.include('does not resolve');
      const yarnApp = pnpmApp(ENUM_ENDPOINT);
      const yarnManifest = JSON.parse(readFileSync(path.join(yarnApp, 'package.json'), 'utf8')) as object;
      writeFileSync(
        path.join(yarnApp, 'package.json'),
        JSON.stringify({ ...yarnManifest, packageManager: 'yarn@4.9.1' }),
      );
      const yarn = await check(yarnApp);
      expect(yarn.output).to.include('`yarn add -D tsx`, or rewrite it.').and.not.include('pnpm add');
    });
  });

  describe("tsc with declaration: true, in pnpm's layout", () => {
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const declarations = (dir: string) => {
      writeFileSync(
        path.join(dir, 'tsconfig.declarations.json'),
        JSON.stringify({
          extends: './tsconfig.json',
          compilerOptions: { emitDeclarationOnly: true, outDir: 'types', rootDir: 'src' },
          include: ['src/lib'],
        }),
      );
      return runNode([tsc, '-p', 'tsconfig.declarations.json'], dir);
    };

    it("an inferred Response is undici-types' one, which the declaration cannot name; the annotated forms compile", async () => {
      const plain = {
        // docs/typescript.md's example of what fails
        [fileOf(snippet('nodenext-inferred').code)]: snippet('nodenext-inferred').code,
        'src/lib/endpoints/satisfied/endpoint.ts':
          "import type { EndpointHandler } from 'express-file-endpoints';\n\nexport const GET = (() => Response.json({ ok: true })) satisfies EndpointHandler;\n",
      };
      const failing = await declarations(pnpmApp(plain));
      expect(failing.code, failing.output).not.to.equal(0);
      const errors = failing.output.split('\n').filter((line) => /error TS/.test(line));
      expect(errors, failing.output).to.have.length(2);
      for (const [index, file] of ['plain', 'satisfied'].entries()) {
        expect(errors[index]).to.match(
          new RegExp(
            `^src/lib/endpoints/${file}/endpoint\\.ts\\(\\d+,\\d+\\): error TS(2742|2883): The inferred type of 'GET' cannot be named without a reference to .*\\.pnpm/undici-types@`,
          ),
        );
      }

      const dir = pnpmApp();
      const passing = await declarations(dir);
      expect(passing.code, passing.output).to.equal(0);
      expect(readFileSync(path.join(dir, 'types/lib/endpoints/health/endpoint.d.ts'), 'utf8')).to.include(
        'export declare const GET: EndpointHandler;',
      );
      expect(readFileSync(path.join(dir, 'types/lib/endpoints/items/endpoint.d.ts'), 'utf8')).to.include(
        'export declare function GET(): Promise<Response>;',
      );
    });
  });

  it("docs/typescript.md and docs/testing.md show the fixture's own files", () => {
    const shown: Array<[string, string]> = [
      ['nodenext-health', 'src/lib/endpoints/health/endpoint.ts'],
      ['nodenext-items', 'src/lib/endpoints/items/endpoint.ts'],
      ['nodenext-vitest-config', 'vitest.config.ts'],
      ['nodenext-shared-test', 'test/shared.spec.ts'],
    ];
    for (const [name, file] of shown) {
      const { code } = snippet(name);
      expect(fileOf(code), name).to.equal(file);
      expect(code, `${name} is ${file}`).to.equal(readFileSync(path.join(FIXTURE, file), 'utf8'));
    }
  });
});

/** Node's own resolve hooks, both kinds, in a Node without tsx: the rule of src/load/typescript-specifiers.ts. */
describe('integration: the resolve hook for `.js` specifiers that name `.ts` files', function () {
  this.timeout(60_000);
  let dir: string;
  before(async function () {
    if (!nodeStripsTypes) this.skip();
    dir = mkdtempSync(path.join(tmpdir(), 'ee-specifiers-'));
    made.push(dir);
    const { build } = (await import('esbuild')) as typeof import('esbuild');
    await build({
      entryPoints: [path.join(ROOT, 'src/load/typescript-specifiers.ts')],
      outfile: path.join(dir, 'specifiers.mjs'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      logLevel: 'silent',
    });
    const files: Record<string, string> = {
      'package.json': '{ "type": "module" }',
      'lib/x.ts': 'export const x: string = "x.ts";\n',
      'lib/y.ts': 'export const y: string = "y.ts";\n',
      'lib/y.js': 'export const y = "y.js";\n',
      'lib/z.mts': 'export const z: string = "z.mts";\n',
      'lib/c.cts': 'module.exports = { c: "c.cts" };\n',
      'main.ts': [
        "import { x } from './lib/x.js';",
        "import { x as again } from './lib/x.ts';",
        "import { y } from './lib/y.js';",
        "import { z } from './lib/z.mjs';",
        "import { createRequire } from 'node:module';",
        'const code = (error: unknown) => (error as { code: string }).code;',
        'let c: string;',
        'try { c = (createRequire(import.meta.url)("./lib/c.cjs") as { c: string }).c; } catch (error) { c = code(error); }',
        "const missing = await import('./lib/missing.js').then(() => 'loaded', code);",
        "const packaged = await import('./node_modules/pkg/inner.js').then(() => 'loaded', code);",
        'export const answers = { x, same: x === again, y, z, c, missing, packaged };',
        '',
      ].join('\n'),
      'node_modules/pkg/package.json': '{ "name": "pkg", "type": "module" }',
      'node_modules/pkg/inner.ts': 'export const inner = 1;\n',
      'run.mjs': `import Module from 'node:module';
import { resolveTypeScriptSpecifiers } from './specifiers.mjs';
const warnings = [];
process.on('warning', (warning) => warnings.push(warning.name));
const kind = process.argv[2];
const used = resolveTypeScriptSpecifiers(
  kind === 'register' ? { register: (url) => Module.register(url, import.meta.url) } : Module,
);
const { answers } = await import('./main.ts');
console.log(JSON.stringify({ used, answers, warnings }));
`,
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
  });

  for (const kind of ['registerHooks', 'register'] as const) {
    it(`${kind}: a missing .js/.mjs/.cjs is its .ts/.mts/.cts, one instance; a .js that exists wins; not in node_modules`, async () => {
      const { stdout } = await promisify(execFile)(process.execPath, ['run.mjs', kind], { cwd: dir });
      const outcome = JSON.parse(stdout) as { used: string; answers: unknown; warnings: string[] };
      expect(outcome.used).to.equal(kind);
      expect(outcome.answers).to.deep.equal({
        x: 'x.ts',
        same: true,
        y: 'y.js',
        z: 'z.mts',
        // module.register's hooks see `import` only: require() of a .cjs that is a .cts needs registerHooks.
        c: kind === 'registerHooks' ? 'c.cts' : 'MODULE_NOT_FOUND',
        missing: 'ERR_MODULE_NOT_FOUND',
        packaged: 'ERR_MODULE_NOT_FOUND',
      });
      if (kind === 'registerHooks') expect(outcome.warnings).to.deep.equal([]);
    });
  }
});
