/**
 * What is particular to Bun and Deno, beyond the shared suites they run (`npm run test:runtimes`: the
 * handler semantics and the request rules, on each runtime's own server): that the pinned binaries are
 * there, that a build of the tree mounts, development mode, and the command line naming the runtime it
 * runs on. Deno runs with `--allow-read --allow-net`, and more only where a test says why.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { buildEndpoints } from '../../src/build';
import { RUNTIMES, isSupportedPlatform, runtimeBinary, type RuntimeKey } from '../../scripts/runtimes.mjs';
import { cliBundle, libraryBundle, runtimeCommand } from './runtime-hosts';

const ROOT = path.resolve(__dirname, '../..');
const SCENARIO = path.join(__dirname, 'scenario.ts');
const FIXTURE = path.join(ROOT, 'test/fixtures/app');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string[], env: NodeJS.ProcessEnv = {}): Run {
  const result = spawnSync(command[0]!, command.slice(1), {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, NODE_ENV: undefined, NO_COLOR: '1', ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The JSON line a scenario printed. */
function outcome(result: Run): { answers?: [number, string][]; error?: string } {
  const line = result.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as { answers?: [number, string][]; error?: string };
  } catch {
    throw new Error(
      `the scenario printed no result (exit ${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  }
}

describe('runtimes: what is particular to Bun and Deno', function () {
  this.timeout(60_000);
  let build: string;
  before(async () => {
    build = mkdtempSync(path.join(tmpdir(), 'ee-runtime-build-'));
    // Built from the repository's root, so the build names files as the suites expect.
    const cwd = process.cwd();
    process.chdir(ROOT);
    try {
      await buildEndpoints(FIXTURE, build);
    } finally {
      process.chdir(cwd);
    }
  });
  after(() => rmSync(build, { recursive: true, force: true }));

  for (const key of Object.keys(RUNTIMES) as RuntimeKey[]) {
    const pin = RUNTIMES[key];
    const binary = runtimeBinary(key);
    const scenario = (args: string[], denoPermissions: string[] = [], env: NodeJS.ProcessEnv = {}) =>
      run(runtimeCommand(key, binary!, SCENARIO, [libraryBundle(), ...args], denoPermissions), env);

    describe(`${pin.label} ${pin.version}`, () => {
      it(`is fetched: \`node scripts/runtimes.mjs fetch\` fetches it (${pin.package})`, function () {
        if (binary) return;
        const why = isSupportedPlatform()
          ? `${pin.label} ${pin.version} has not been fetched: run \`node scripts/runtimes.mjs fetch\``
          : `${pin.label} is pinned for Linux x64 only, not ${process.platform} ${process.arch}`;
        // CI fetches it first (.ci/run): there, a missing runtime is a failure, not a skip.
        if (process.env.CI === 'true') throw new Error(why);
        console.log(`      ${why}; its suites are skipped.`);
        this.skip();
      });
      if (!binary) return;

      it('mounts a build of the tree: no discovery, nothing more to allow', () => {
        const result = scenario(['mount', build, '{}', '/api/users/1', '/semantics/where/7']);
        expect(outcome(result).answers?.map(([status]) => status)).to.deep.equal([200, 200]);
        expect(JSON.parse(outcome(result).answers![0]![1])).to.deep.equal({ id: '1', name: 'Ada Lovelace' });
      });

      for (const [kind, type, code] of [
        ['CommonJS', 'commonjs', "exports.GET = () => new Response('cjs');\n"],
        ['ES module', 'module', "export const GET = () => new Response('esm');\n"],
      ] as const) {
        it(`loads a ${kind} JavaScript tree`, () => {
          const folder = mkdtempSync(path.join(tmpdir(), 'ee-runtime-js-'));
          try {
            mkdirSync(path.join(folder, 'app/hello'), { recursive: true });
            writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ type }));
            writeFileSync(path.join(folder, 'app/hello/endpoint.js'), code);
            const result = scenario(['mount', path.join(folder, 'app'), '{}', '/hello']);
            expect(outcome(result).answers).to.deep.equal([[200, type === 'commonjs' ? 'cjs' : 'esm']]);
          } finally {
            rmSync(folder, { recursive: true, force: true });
          }
        });
      }

      it('refuses a tree with expressMiddleware at mount, naming the file: there is no req or res', () => {
        const folder = mkdtempSync(path.join(tmpdir(), 'ee-runtime-express-'));
        try {
          mkdirSync(path.join(folder, 'app/guarded'), { recursive: true });
          writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
          writeFileSync(
            path.join(folder, 'app/guarded/middleware.js'),
            `import { expressMiddleware } from ${JSON.stringify(pathToFileURL(libraryBundle()).href)};\n` +
              'export default expressMiddleware((req, res, next) => next());\n',
          );
          writeFileSync(
            path.join(folder, 'app/guarded/endpoint.js'),
            "export const GET = () => new Response('in');\n",
          );
          const result = outcome(scenario(['mount', path.join(folder, 'app'), '{}', '/guarded']));
          expect(result.error).to.include('guarded/middleware.js uses expressMiddleware()');
          expect(result.error).to.include(`and ${pin.label}`);
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      });

      // Deno's import() takes a .js file for CommonJS only under "type": "commonjs": "require is not defined".
      it('loads CommonJS .js endpoints under a package.json that names no "type", as most Express apps have', () => {
        const result = scenario([
          'mount',
          path.join(ROOT, 'test/fixtures/untyped-cjs-app/app'),
          '{}',
          '/hello',
        ]);
        expect(outcome(result)).to.deep.equal({ answers: [[200, 'Hello, object, from CommonJS']] });
      });

      it(
        key === 'bun'
          ? 'loads a CommonJS .ts endpoint under a package.json that names no "type"'
          : 'a CommonJS .ts endpoint under a package.json that names no "type": the error names the fixes',
        () => {
          const tree = path.join(ROOT, 'test/fixtures/untyped-cjs-app/commonjs-ts');
          const result = outcome(scenario(['mount', tree, '{}', '/hello']));
          if (key === 'bun') return void expect(result).to.deep.equal({ answers: [[200, 'typed, object']] });
          expect(result.error).to.include(
            'commonjs-ts/hello/endpoint.ts (line 2, column 1): exports is not defined',
          );
          expect(result.error).to.include('"type": "commonjs"').and.include('.cts for TypeScript');
        },
      );

      it('check says that the runtime loads the TypeScript files itself, naming it', () => {
        const result = run(runtimeCommand(key, binary, cliBundle(), ['check', 'test/fixtures/app']));
        expect(result.status, result.stderr).to.equal(0);
        expect(result.stdout).to.include(
          `note: the TypeScript files will load through ${pin.label} ${pin.version}'s own TypeScript support; tsx is not used on ${pin.label}.`,
        );
        expect(result.stdout).not.to.match(/\bNode\b/);
      });

      if (key === 'bun') {
        it('refuses development mode at mount, saying why and what reloads instead', () => {
          const result = scenario(['mount', FIXTURE, '{"dev":true}', '/api/users/1']);
          expect(outcome(result).error).to.equal(
            "express-file-endpoints: development mode reloads endpoint modules through Node's module hooks " +
              `(module.registerHooks), which Bun ${pin.version} does not have. Run the app with \`bun --hot\`, ` +
              'which reloads it on save, and leave `dev` unset.',
          );
        });

        it('serves without development mode when only NODE_ENV=development asks for it, and warns', () => {
          const result = scenario(['mount', FIXTURE, '{}', '/api/users/1'], [], { NODE_ENV: 'development' });
          expect(outcome(result).answers?.[0]?.[0]).to.equal(200);
          expect(result.stderr).to.include(
            'NODE_ENV is development: the endpoints are served without development mode.',
          );
        });
      } else {
        /** A tree of one endpoint, /hello, in a folder of its own: development mode writes beside it. */
        const helloTree = () => {
          const folder = mkdtempSync(path.join(tmpdir(), 'ee-runtime-dev-'));
          mkdirSync(path.join(folder, 'app/hello'), { recursive: true });
          writeFileSync(
            path.join(folder, 'app/hello/endpoint.ts'),
            "export const GET = () => new Response('v1');\n",
          );
          return folder;
        };

        it('reloads a changed endpoint in development mode', () => {
          const folder = helloTree();
          try {
            // The scenario rewrites the endpoint; the library writes nothing (`types: false`).
            const result = scenario(['reload', path.join(folder, 'app')], [`--allow-write=${folder}`]);
            expect(outcome(result).answers).to.deep.equal([
              [200, 'v1'],
              [200, 'v2'],
            ]);
          } finally {
            rmSync(folder, { recursive: true, force: true });
          }
        });

        it('reads NODE_ENV only with --allow-env=NODE_ENV, and never asks for it', () => {
          const folder = helloTree();
          const app = path.join(folder, 'app');
          // With no package.json above it, the tree's parent is the project: its node_modules/.cache.
          const types = path.join(folder, 'node_modules/.cache/express-file-endpoints/env.d.ts');
          try {
            const denied = scenario(['mount', app, '{}', '/hello'], [], { NODE_ENV: 'development' });
            expect([outcome(denied).answers, existsSync(types)]).to.deep.equal([[[200, 'v1']], false]);
            // Allowed, NODE_ENV=development turns development mode on, which writes the typed routes.
            const allowed = scenario(
              ['mount', app, '{}', '/hello'],
              ['--allow-env=NODE_ENV', `--allow-write=${folder}`],
              { NODE_ENV: 'development' },
            );
            expect([outcome(allowed).answers, existsSync(types)]).to.deep.equal([[[200, 'v1']], true]);
          } finally {
            rmSync(folder, { recursive: true, force: true });
          }
        });
      }
    });
  }
});
