/**
 * The published package, as users get it: `npm pack` (prepack builds dist/), then install the
 * tarball into scratch ESM and CommonJS apps and run them with plain `node` — no tsx, no path
 * into src/ — and type-check a TypeScript consumer under `moduleResolution: node16` in both
 * module modes. Run with `npm run test:package` (after publint and attw).
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { exec, npmInstall, packOnce, ROOT, type PackResult } from './tarball';

const TSC = join(ROOT, 'node_modules/.bin/tsc');

const ESM_APP = `
import { EndpointValidationError } from 'express-file-endpoints';
import { createTestRequest } from 'express-file-endpoints/testing';
import { createClient } from 'express-file-endpoints/client';

const error = new EndpointValidationError([{ code: 'x', message: 'one', files: ['app/endpoint.ts'] }]);
const req = createTestRequest('api/users', { method: 'post', body: '{"name":"Ada"}' });
console.log(JSON.stringify({
  resolved: [
    import.meta.resolve('express-file-endpoints'),
    import.meta.resolve('express-file-endpoints/testing'),
    import.meta.resolve('express-file-endpoints/client'),
  ],
  client: (await createClient({ fetch: async (r) => Response.json({ url: r.url }) }).GET('/a/[id]', { params: { id: 'x y' } })).data,
  errorName: error.name,
  isError: error instanceof Error,
  problems: error.problems.length,
  url: req.url,
  method: req.method,
  contentType: req.headers.get('content-type'),
  isRequest: req instanceof Request,
  body: await req.json(),
}));
`;

const CJS_APP = `
const { EndpointValidationError } = require('express-file-endpoints');
const { createTestRequest } = require('express-file-endpoints/testing');
const { createClient } = require('express-file-endpoints/client');

const error = new EndpointValidationError([{ code: 'x', message: 'one', files: ['app/endpoint.ts'] }]);
const req = createTestRequest('api/users', { method: 'post', body: '{"name":"Ada"}' });
const called = createClient({ fetch: async (r) => Response.json({ url: r.url }) }).GET('/a/[id]', { params: { id: 'x y' } });
Promise.all([req.json(), called]).then(([body, { data: client }]) => {
  console.log(JSON.stringify({
    resolved: [
      require.resolve('express-file-endpoints'),
      require.resolve('express-file-endpoints/testing'),
      require.resolve('express-file-endpoints/client'),
    ],
    client,
    errorName: error.name,
    isError: error instanceof Error,
    problems: error.problems.length,
    url: req.url,
    method: req.method,
    contentType: req.headers.get('content-type'),
    isRequest: req instanceof Request,
    body,
  }));
});
`;

/**
 * The product itself from the installed tarball: a tree mounted on bare node:http, answering a
 * real request through the bridge, and the same tree through `.fetch`.
 */
const serveScript = (load: string) => `
${load}
const server = http.createServer(mountEndpoints({ dir: 'app' }));
server.listen(0, '127.0.0.1', async () => {
  const base = 'http://127.0.0.1:' + server.address().port;
  const served = await fetch(base + '/greet/Ada', { method: 'POST', body: 'hi' });
  const viaFetch = await mountEndpoints({ dir: 'app' }).fetch(createTestRequest('/greet/Bo', { method: 'POST', body: 'yo' }));
  const missing = await fetch(base + '/nope');
  console.log(JSON.stringify({ served: await served.json(), viaFetch: await viaFetch.json(), missing: missing.status }));
  server.close();
});
`;
const ESM_SERVE = serveScript(
  "import http from 'node:http';\nimport { mountEndpoints } from 'express-file-endpoints';\nimport { createTestRequest } from 'express-file-endpoints/testing';",
);
const CJS_SERVE = serveScript(
  "const http = require('node:http');\nconst { mountEndpoints } = require('express-file-endpoints');\nconst { createTestRequest } = require('express-file-endpoints/testing');",
);
const ESM_ENDPOINT = `export async function POST(req, { params }) {
  return Response.json({ name: params.name, body: await req.text(), module: 'esm' });
}
`;
const CJS_ENDPOINT = `exports.POST = async (req, { params }) =>
  Response.json({ name: params.name, body: await req.text(), module: 'commonjs' });
`;

/**
 * Compiles as ESM in the `"type": "module"` app and as CommonJS in the other, so both the
 * `import` (.d.mts) and `require` (.d.ts) typings are checked. The `@ts-expect-error` lines fail
 * the check if the types ever degrade to `any` (an unresolvable type does that silently).
 */
const TS_CONSUMER = `
import { EndpointValidationError, type EndpointHandler, type TestRequestOptions as Reexported } from 'express-file-endpoints';
import { createTestRequest, type TestRequestOptions } from 'express-file-endpoints/testing';
import { createClient } from 'express-file-endpoints/client';

const options: TestRequestOptions = { method: 'patch', headers: { authorization: 'Bearer t' }, body: '{}' };
const same: Reexported = options;
const req: Request = createTestRequest('/api/users/1', same);

export const GET: EndpointHandler<'/api/users/[id]'> = (_req, { params }) => Response.json({ id: params.id });
export const ANY: EndpointHandler = async (request) => new Response(request.method, { status: 200 });

void GET(req, { params: { id: '1' } });
export const problems: number = new EndpointValidationError([]).problems.length;

// @ts-expect-error method is a string
export const badOptions: TestRequestOptions = { method: 1 };
// @ts-expect-error createTestRequest returns a Request
export const notANumber: number = createTestRequest('/');
// @ts-expect-error a handler must return a Response
export const badHandler: EndpointHandler = () => 'text';

interface Api {
  '/api/users/[id]': { params: { id: string }; methods: { GET: { responses: { 200: { name: string } } } } };
}
const api = createClient<Api>({ baseUrl: 'http://localhost' });
export async function call(): Promise<string | undefined> {
  const answer = await api.GET('/api/users/[id]', { params: { id: '1' } });
  // @ts-expect-error the route has a param
  void api.GET('/api/users/[id]');
  return answer.status === 200 ? answer.data.name : undefined;
}
`;

function tsconfig(extra: Record<string, unknown> = {}) {
  return {
    compilerOptions: {
      module: 'node16',
      moduleResolution: 'node16',
      target: 'ES2022',
      // No DOM lib and no skipLibCheck: the .d.ts files must hold up in a plain Node project.
      lib: ['ES2022'],
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      ...extra,
    },
    files: ['consumer.ts'],
  };
}

async function writeApp(dir: string, packageJson: object, files: Record<string, string>) {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify(packageJson, null, 2));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
}

describe('the packed tarball', function () {
  let scratch: string;
  let pack: PackResult;
  let esmDir: string;
  let cjsDir: string;

  before(async function () {
    this.timeout(180_000);
    const packed = await packOnce();
    ({ scratch, pack } = packed);
    const tarball = packed.tarball;

    esmDir = join(scratch, 'esm-app');
    cjsDir = join(scratch, 'cjs-app');
    await writeApp(
      esmDir,
      { name: 'scratch-esm', private: true, type: 'module' },
      {
        'index.mjs': ESM_APP,
        'serve.mjs': ESM_SERVE,
        'app/greet/[name]/endpoint.js': ESM_ENDPOINT,
      },
    );
    await writeApp(
      cjsDir,
      { name: 'scratch-cjs', private: true, type: 'commonjs' },
      {
        'index.js': CJS_APP,
        'serve.js': CJS_SERVE,
        'app/greet/[name]/endpoint.js': CJS_ENDPOINT,
      },
    );
    await Promise.all([npmInstall(esmDir, [tarball]), npmInstall(cjsDir, [tarball])]);
  });

  it('is express-file-endpoints-<version>.tgz: the name the package is published under', () => {
    const { version } = require('../../package.json') as { version: string };
    expect(pack.filename).to.equal(`express-file-endpoints-${version}.tgz`);
  });

  describe('file list', () => {
    const paths = () => pack.files.map((file) => file.path);

    for (const path of [
      'dist/index.js',
      'dist/index.mjs',
      'dist/index.d.ts',
      'dist/index.d.mts',
      'dist/testing.js',
      'dist/testing.mjs',
      'dist/testing.d.ts',
      'dist/testing.d.mts',
      'dist/client.js',
      'dist/client.mjs',
      'dist/client.d.ts',
      'dist/client.d.mts',
      'dist/cli.js',
      'testing/package.json',
      'client/package.json',
      'README.md',
      'docs/README.md',
      'SECURITY.md',
      'CHANGELOG.md',
      'LICENSE',
      'package.json',
    ]) {
      it(`contains ${path}`, () => {
        expect(paths()).to.include(path);
      });
    }

    it('contains nothing from src/, test/, bench/, examples/ or scripts/', () => {
      const leaked = paths().filter((path) => /^(src|test|bench|examples|scripts)\//.test(path));
      expect(leaked).to.deep.equal([]);
    });

    it('ships only dist/ besides the package metadata and the documentation', () => {
      const other = paths().filter((path) => !path.startsWith('dist/'));
      // The README links to every page of docs/: each one ships with it.
      const docs = readdirSync(join(ROOT, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`);
      expect(other.sort()).to.deep.equal(
        [
          'CHANGELOG.md',
          'LICENSE',
          'README.md',
          'SECURITY.md',
          'package.json',
          'testing/package.json',
          'client/package.json',
          ...docs,
        ].sort(),
      );
    });

    it('leaves out the unused ESM copy of the CLI', () => {
      expect(paths()).not.to.include('dist/cli.mjs');
    });
  });

  describe('runtime', () => {
    const expected = {
      errorName: 'EndpointValidationError',
      isError: true,
      problems: 1,
      url: 'http://localhost/api/users',
      method: 'POST',
      contentType: 'application/json',
      isRequest: true,
      body: { name: 'Ada' },
      client: { url: 'http://localhost/a/x%20y' },
    };

    it('installs without express (an optional peer)', () => {
      expect(existsSync(join(esmDir, 'node_modules/express-file-endpoints/package.json'))).to.equal(true);
      expect(existsSync(join(esmDir, 'node_modules/express'))).to.equal(false);
      expect(existsSync(join(cjsDir, 'node_modules/express'))).to.equal(false);
    });

    it('an ESM app imports both entry points from dist/*.mjs', async () => {
      const { stdout } = await exec(process.execPath, ['index.mjs'], esmDir);
      const { resolved, ...result } = JSON.parse(stdout) as { resolved: string[] } & typeof expected;
      expect(result).to.deep.equal(expected);
      expect(resolved[0]).to.match(/\/node_modules\/express-file-endpoints\/dist\/index\.mjs$/);
      expect(resolved[1]).to.match(/\/node_modules\/express-file-endpoints\/dist\/testing\.mjs$/);
      expect(resolved[2]).to.match(/\/node_modules\/express-file-endpoints\/dist\/client\.mjs$/);
    });

    it('a CommonJS app requires both entry points from dist/*.js', async () => {
      const { stdout } = await exec(process.execPath, ['index.js'], cjsDir);
      const { resolved, ...result } = JSON.parse(stdout) as { resolved: string[] } & typeof expected;
      expect(result).to.deep.equal(expected);
      expect(resolved[0]).to.match(/\/node_modules\/express-file-endpoints\/dist\/index\.js$/);
      expect(resolved[1]).to.match(/\/node_modules\/express-file-endpoints\/dist\/testing\.js$/);
      expect(resolved[2]).to.match(/\/node_modules\/express-file-endpoints\/dist\/client\.js$/);
    });

    for (const [kind, dirOf, script] of [
      ['ESM', () => esmDir, 'serve.mjs'],
      ['CommonJS', () => cjsDir, 'serve.js'],
    ] as const) {
      it(`the ${kind} app serves an endpoint tree on node:http and through .fetch`, async () => {
        const { stdout } = await exec(process.execPath, [script], dirOf());
        const module = kind === 'ESM' ? 'esm' : 'commonjs';
        expect(JSON.parse(stdout)).to.deep.equal({
          served: { name: 'Ada', body: 'hi', module },
          viaFetch: { name: 'Bo', body: 'yo', module },
          missing: 404,
        });
      });
    }

    it('links the express-file-endpoints bin to an executable with a node shebang', async () => {
      const bin = join(cjsDir, 'node_modules/.bin/express-file-endpoints');
      expect(existsSync(bin)).to.equal(true);
      const cli = await readFile(join(cjsDir, 'node_modules/express-file-endpoints/dist/cli.js'), 'utf8');
      expect(cli.startsWith('#!/usr/bin/env node\n')).to.equal(true);
    });

    it('keeps import() as import() in the CommonJS build, so ESM endpoint files load from require()', async () => {
      // esbuild lowers `import()` to `require()` only for targets without dynamic import; a
      // lowered call would fail on ESM endpoint files. Guard the output of every CJS file.
      const dist = join(cjsDir, 'node_modules/express-file-endpoints/dist');
      for (const file of ['index.js', 'testing.js', 'client.js', 'cli.js']) {
        const code = await readFile(join(dist, file), 'utf8');
        expect(code, file).not.to.match(/Promise\.resolve\(\)\.then\(\(\) => (?:__toESM\()?require\(/);
      }
    });
  });

  describe('TypeScript consumer (no DOM lib, skipLibCheck off)', () => {
    async function typecheck(dir: string, config = 'tsconfig.json', options: Record<string, unknown> = {}) {
      await writeFile(join(dir, 'consumer.ts'), TS_CONSUMER);
      await writeFile(join(dir, config), JSON.stringify(tsconfig(options), null, 2));
      try {
        await exec(TSC, ['-p', config], dir);
      } catch (error) {
        const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
        expect.fail(`tsc failed in ${dir}:\n${stdout}${stderr}`);
      }
    }

    it('node16, as ESM ("type": "module" -> .d.mts)', async () => {
      await typecheck(esmDir);
    });

    it('node16, as CommonJS ("type": "commonjs" -> .d.ts)', async () => {
      await typecheck(cjsDir);
    });

    it('node10, the default of `module: commonjs` (subpath types through testing/package.json)', async () => {
      await typecheck(cjsDir, 'tsconfig.node10.json', { module: 'commonjs', moduleResolution: 'node10' });
    });
  });
});
