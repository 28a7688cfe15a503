/**
 * `express-file-endpoints build` without its checks (src/build, in-process: esbuild is fast), and mounting
 * what it wrote (src/manifest): the same routes and answers as a mount of the tree, in either module format,
 * from the build's folder or from the `manifest` option; a stale or foreign build refused with a clear error.
 * The command itself (checks first) is in cli-build.test.ts; bundling an app into one file, in
 * test/package/bundlers.test.ts.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { mountEndpoints, type EndpointsManifest } from '../../src';
import { buildEndpoints } from '../../src/build';
import { BUILD_MARKER } from '../../src/manifest';

const repoModules = path.join(__dirname, '../../node_modules');

const TREE = {
  '_lib/instance.ts': 'export const instance: number = Math.random();\n',
  'api/a/endpoint.ts':
    "import { instance } from '../../_lib/instance';\nexport const GET = () => Response.json({ instance });\n",
  'api/b/[name]/endpoint.ts': [
    "import { instance } from '../../../_lib/instance';",
    'export async function GET(_req: Request, { params }: { params: { name: string } }) {',
    '  return Response.json({ instance, name: params.name });',
    '}',
    '',
  ].join('\n'),
  'api/middleware.ts':
    "export default async (_req: Request, next: () => Promise<Response>) => {\n  const res = await next();\n  res.headers.set('x-middleware', 'api');\n  return res;\n};\n",
  'contact/endpoint.ts': "export const POST = () => new Response('sent');\n",
  'contact/page.tsx': 'export default function Page() { return null; }\n',
  'thrown/endpoint.ts': "export function GET(): Response {\n  throw new Error('from the endpoint');\n}\n",
};

interface Scratch {
  root: string;
  app: string;
  out: string;
  write(relative: string, text: string): void;
}

function scratch(type: 'module' | 'commonjs'): Scratch {
  const root = mkdtempSync(path.join(tmpdir(), `ee-build-${type}-`));
  symlinkSync(repoModules, path.join(root, 'node_modules'), 'dir');
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'scratch', type }));
  const app = path.join(root, 'app');
  const write = (relative: string, text: string) => {
    mkdirSync(path.dirname(path.join(app, relative)), { recursive: true });
    writeFileSync(path.join(app, relative), text);
  };
  for (const [relative, text] of Object.entries(TREE)) write(relative, text);
  return { root, app, out: path.join(root, 'dist/endpoints'), write };
}

async function answers(fetch: (request: Request) => Promise<Response>) {
  const get = async (url: string, init?: RequestInit) => {
    const res = await fetch(new Request(`http://localhost${url}`, init));
    // Each mount has its own instance of the shared module: its random number is not compared.
    const body = (await res.text()).replace(/"instance":[\d.e-]+/, '"instance":"…"');
    return { status: res.status, middleware: res.headers.get('x-middleware'), body };
  };
  return {
    a: await get('/api/a'),
    b: await get('/api/b/ada%20l'),
    pageGet: await get('/contact'),
    post: await get('/contact', { method: 'POST' }),
    missing: await get('/nowhere'),
  };
}

const quiet = { onError: () => {} };

describe('build: a tree compiled into a manifest module, and mounted from it', function () {
  this.timeout(20_000);
  const made: string[] = [];
  after(() => {
    for (const root of made) rmSync(root, { recursive: true, force: true });
  });
  const prepare = (type: 'module' | 'commonjs') => {
    const tree = scratch(type);
    made.push(tree.root);
    return tree;
  };

  for (const [type, moduleName] of [
    ['module', 'manifest.mjs'],
    ['commonjs', 'manifest.cjs'],
  ] as const) {
    describe(`in a ${type} package`, () => {
      let tree: Scratch;
      before(async () => {
        tree = prepare(type);
        const outcome = await buildEndpoints(tree.app, tree.out);
        expect(path.basename(outcome.module)).to.equal(moduleName);
        expect(outcome.endpoints).to.equal(4);
      });

      it('serves what a mount of the tree serves, with the same route table', async () => {
        const fromTree = mountEndpoints({ dir: tree.app, ...quiet });
        const fromBuild = mountEndpoints({ dir: tree.out, ...quiet });
        await Promise.all([fromTree.ready, fromBuild.ready]);
        expect(fromBuild.routes).to.deep.equal(fromTree.routes);
        const built = await answers(fromBuild.fetch);
        expect(built).to.deep.equal(await answers(fromTree.fetch));
        expect(built.b).to.include({ status: 200, middleware: 'api' });
        expect(JSON.parse(built.b.body)).to.include({ name: 'ada l' });
        // A page beside a POST-only endpoint: GET is the app's (404 through .fetch, where there is no app).
        expect(built.pageGet.status).to.equal(404);
      });

      it('compiles a module two endpoints import once: they share one instance', async () => {
        const endpoints = mountEndpoints({ dir: tree.out, ...quiet });
        const a = (await (await endpoints.fetch(new Request('http://localhost/api/a'))).json()) as {
          instance: number;
        };
        const b = (await (await endpoints.fetch(new Request('http://localhost/api/b/x'))).json()) as {
          instance: number;
        };
        expect(a.instance).to.equal(b.instance);
      });

      it("writes a source map naming the tree's .ts files, and a declaration for the manifest", () => {
        const map = JSON.parse(readFileSync(path.join(tree.out, `${moduleName}.map`), 'utf8')) as {
          sources: string[];
        };
        const sources = map.sources.map((source) => path.resolve(tree.out, source));
        expect(sources).to.include(path.join(tree.app, 'thrown/endpoint.ts'));
        expect(sources).to.include(path.join(tree.app, '_lib/instance.ts'));
        expect(existsSync(path.join(tree.out, moduleName.replace(/js$/, 'ts').replace('.', '.d.')))).to.equal(
          true,
        );
      });

      it('mounts from the manifest option, as an app that imports the manifest (and a bundler) does', async () => {
        const imported = (await import(pathToFileURL(path.join(tree.out, moduleName)).href)) as {
          default: EndpointsManifest;
        };
        for (const manifest of [imported.default, imported as unknown as EndpointsManifest]) {
          const endpoints = mountEndpoints({ manifest, ...quiet });
          await endpoints.ready;
          const res = await endpoints.fetch(new Request('http://localhost/api/b/x'));
          expect(res.status).to.equal(200);
        }
      });
    });
  }

  it("passes esbuild's warnings on, each naming its file and line", async () => {
    const tree = prepare('commonjs');
    tree.write('where/endpoint.ts', 'export const GET = () => new Response(import.meta.url);\n');
    const outcome = await buildEndpoints(tree.app, tree.out);
    expect(outcome.warnings).to.have.length(1);
    expect(outcome.warnings[0]).to.match(/app\/where\/endpoint\.ts:1:\d+: .*import\.meta.*cjs/);
  });

  it('mounts without the tree: a deployment that ships only the build', async () => {
    const tree = prepare('module');
    await buildEndpoints(tree.app, tree.out);
    renameSync(tree.app, `${tree.app}-gone`);
    const endpoints = mountEndpoints({ dir: tree.out, ...quiet });
    await endpoints.ready;
    expect((await endpoints.fetch(new Request('http://localhost/api/a'))).status).to.equal(200);
  });

  describe('refuses a build it cannot trust', () => {
    let tree: Scratch;
    beforeEach(async () => {
      tree = prepare('module');
      await buildEndpoints(tree.app, tree.out);
    });
    afterEach(() => {
      delete process.env.NODE_ENV;
    });

    it('a tree whose code changed since the build, naming the tree and the fix', () => {
      tree.write('_lib/instance.ts', 'export const instance = 1;\n');
      expect(() => mountEndpoints({ dir: tree.out })).to.throw(
        /app has changed since the build in .*dist\/endpoints was made\. Run `npx express-file-endpoints build` again/,
      );
    });

    it('a tree with an endpoint added since the build', () => {
      tree.write('api/new/endpoint.ts', 'export const GET = () => new Response();\n');
      expect(() => mountEndpoints({ dir: tree.out })).to.throw(/has changed since/);
    });

    it('but serves it when NODE_ENV is production: the tree is not compared there', async () => {
      tree.write('_lib/instance.ts', 'export const instance = 1;\n');
      process.env.NODE_ENV = 'production';
      const endpoints = mountEndpoints({ dir: tree.out, ...quiet });
      await endpoints.ready;
      expect((await endpoints.fetch(new Request('http://localhost/api/a'))).status).to.equal(200);
    });

    it('a build made by another version of the library', () => {
      const marker = path.join(tree.out, BUILD_MARKER);
      const table = JSON.parse(readFileSync(marker, 'utf8')) as { version: string };
      writeFileSync(marker, JSON.stringify({ ...table, version: '0.0.1-old' }));
      expect(() => mountEndpoints({ dir: tree.out })).to.throw(
        /was made by express-file-endpoints 0\.0\.1-old; this is \d+\.\d+\.\d+.*\. Run `npx express-file-endpoints build` again/,
      );
    });

    it('a build folder without its marker (a .dockerignore of *.json): an error naming it, not an empty tree', async () => {
      const commonjs = prepare('commonjs');
      await buildEndpoints(commonjs.app, commonjs.out);
      for (const [out, name] of [
        [tree.out, 'manifest.mjs'],
        [commonjs.out, 'manifest.cjs'],
      ] as const) {
        rmSync(path.join(out, BUILD_MARKER));
        expect(() => mountEndpoints({ dir: out }), name).to.throw(
          new RegExp(
            `dist/endpoints holds the manifest module ${name.replace('.', '\\.')} of a build, but not express-file-endpoints-build\\.json`,
          ),
        );
      }
    });

    it('but a tree with a manifest.mjs of its own is no build: it mounts as a tree', async () => {
      tree.write('manifest.mjs', 'export default { name: "a web app manifest" };\n');
      const endpoints = mountEndpoints({ dir: tree.app, ...quiet });
      await endpoints.ready;
      expect((await endpoints.fetch(new Request('http://localhost/api/a'))).status).to.equal(200);
    });

    it('a marker file that is not one', () => {
      writeFileSync(path.join(tree.out, BUILD_MARKER), '{ "kind": "express-file');
      expect(() => mountEndpoints({ dir: tree.out })).to.throw(
        /the build in .*dist\/endpoints is not a build made by `express-file-endpoints build`/,
      );
    });

    it('a marker of the right kind whose fields are missing: not a build, not a crash', () => {
      const marker = path.join(tree.out, BUILD_MARKER);
      const table = JSON.parse(readFileSync(marker, 'utf8')) as Record<string, unknown>;
      for (const field of ['source', 'module', 'inputs', 'hash']) {
        writeFileSync(marker, JSON.stringify({ ...table, [field]: undefined }));
        expect(() => mountEndpoints({ dir: tree.out }), field).to.throw(
          /the build in .*dist\/endpoints is not a build made by `express-file-endpoints build`/,
        );
      }
      writeFileSync(marker, JSON.stringify({ ...table, files: [{ exports: {} }] }));
      expect(() => mountEndpoints({ dir: tree.out })).to.throw(/is not a build made by/);
    });

    it("a manifest module that is another build's", async () => {
      const other = prepare('module');
      other.write('api/extra/endpoint.ts', 'export const GET = () => new Response();\n');
      await buildEndpoints(other.app, other.out);
      writeFileSync(path.join(tree.out, 'manifest.mjs'), readFileSync(path.join(other.out, 'manifest.mjs')));
      const endpoints = mountEndpoints({ dir: tree.out, ...quiet });
      let error: unknown;
      await endpoints.ready.catch((caught: unknown) => (error = caught));
      expect(String(error)).to.match(
        /dist\/endpoints\/manifest\.mjs is not the build .*dist\/endpoints\/express-file-endpoints-build\.json describes/,
      );
      expect((await endpoints.fetch(new Request('http://localhost/api/a'))).status).to.equal(500);
    });

    it('a manifest option that is the JSON table, not the module', () => {
      const table = JSON.parse(readFileSync(path.join(tree.out, BUILD_MARKER), 'utf8')) as EndpointsManifest;
      expect(() => mountEndpoints({ manifest: table })).to.throw(
        /the manifest option is not a build made by/,
      );
    });

    it('a manifest option that is not a manifest', () => {
      expect(() => mountEndpoints({ manifest: {} as EndpointsManifest })).to.throw(
        /the manifest option is not a build made by `express-file-endpoints build`/,
      );
    });

    it('development mode, which reads the tree', () => {
      expect(() => mountEndpoints({ dir: tree.out, dev: true })).to.throw(
        /development mode reads the endpoint tree, not a build/,
      );
    });
  });

  it('a tree esbuild cannot compile: the file and line; the previous build is left whole, and refused', async () => {
    const tree = prepare('module');
    await buildEndpoints(tree.app, tree.out);
    tree.write(
      'api/a/endpoint.ts',
      "import { gone } from './missing';\nexport const GET = () => Response.json(gone);\n",
    );
    let error: unknown;
    await buildEndpoints(tree.app, tree.out).catch((caught: unknown) => (error = caught));
    expect(String(error)).to.match(
      /esbuild could not compile the tree:\n .*app\/api\/a\/endpoint\.ts:1:\d+: Could not resolve "\.\/missing"/,
    );
    expect(() => mountEndpoints({ dir: tree.out })).to.throw(/has changed since/);
  });
});
