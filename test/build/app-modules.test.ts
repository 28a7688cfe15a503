/**
 * What a build leaves to the app (src/build/app-modules.ts): a file outside the tree that an endpoint imports is
 * imported from where the app has it, never compiled in, so the app's routers and its endpoints share one module:
 * one counter, and `instanceof` true for the app's own error class. A JavaScript app in a CommonJS and in an ES
 * module package (app-fixtures.ts), mounted from the build folder and from the manifest it imports, and bundled
 * whole into one file. The TypeScript app compiled by tsc is in typescript-app.test.ts (tsc takes seconds).
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import * as esbuild from 'esbuild';
import type { Application } from 'express';
import { mountEndpoints } from '../../src';
import { buildEndpoints, type BuildOutcome } from '../../src/build';
import { BUILD_MARKER, type BuildTable } from '../../src/manifest';
import { appOf, expectOneInstance, importManifest, removeApps, writeApp } from './app-fixtures';

const quiet = { onError: () => {} };

describe("build: the app's own modules are imported from the app, not compiled in", function () {
  this.timeout(20_000);
  after(removeApps);

  for (const kind of ['commonjs', 'module'] as const) {
    describe(`a JavaScript app in ${kind === 'module' ? 'an ES module' : 'a CommonJS'} package`, () => {
      let root: string;
      let outcome: BuildOutcome;
      before(async () => {
        root = writeApp(kind);
        outcome = await buildEndpoints(path.join(root, 'app'), path.join(root, 'dist/endpoints'));
      });

      it('imports the models from where the app has them; only the tree is compiled in', () => {
        expect(outcome.imports).to.deep.equal([
          path.join(root, 'models/errors.js'),
          path.join(root, 'models/visits.js'),
        ]);
        expect(outcome.warnings).to.deep.equal([]);
        const table = JSON.parse(
          readFileSync(path.join(root, 'dist/endpoints', BUILD_MARKER), 'utf8'),
        ) as BuildTable;
        expect(table.inputs).to.deep.equal([
          '_lib/present.js',
          'api/visits/[id]/endpoint.js',
          'api/visits/endpoint.js',
        ]);
        const manifest = readFileSync(outcome.module, 'utf8');
        expect(manifest).to.include(
          kind === 'module' ? 'from "../../models/visits.js"' : 'require("../../models/visits.js")',
        );
        expect(manifest, "the model's code").not.to.include('++count');
        expect(manifest, "the tree's helper").to.include("presentedBy: 'app/_lib'".replace(/'/g, '"'));
      });

      it("the tree mounted as it is shares the app's models (what the build must keep)", async () => {
        const { createApp } = await appOf(root);
        await expectOneInstance(await createApp({ dir: path.join(root, 'app'), ...quiet }));
      });

      it("mounted from the build folder, the endpoints share the router's instance", async () => {
        const { createApp } = await appOf(root);
        await expectOneInstance(await createApp({ dir: path.join(root, 'dist/endpoints'), ...quiet }));
      });

      it("mounted from the manifest the app imports, the endpoints share the router's instance", async () => {
        const { createApp } = await appOf(root);
        await expectOneInstance(
          await createApp({ manifest: await importManifest(outcome.module), ...quiet }),
        );
      });

      it('bundled whole into one file, the app holds one copy of each model', async () => {
        const entry = `bundle-entry.${kind === 'module' ? 'mjs' : 'cjs'}`;
        const manifest = `./dist/endpoints/${path.basename(outcome.module)}`;
        writeFileSync(
          path.join(root, entry),
          kind === 'module'
            ? `import manifest from '${manifest}';\nimport { createApp } from './server.js';\nexport const app = createApp({ manifest });\n`
            : `const manifest = require('${manifest}');\nconst { createApp } = require('./server.js');\nexports.app = createApp({ manifest });\n`,
        );
        const outfile = path.join(root, 'out', entry);
        const result = await esbuild.build({
          entryPoints: [path.join(root, entry)],
          absWorkingDir: root,
          outfile,
          bundle: true,
          platform: 'node',
          format: kind === 'module' ? 'esm' : 'cjs',
          // The app's code in one file; the packages stay imports here (the package tests bundle them too).
          packages: 'external',
          metafile: true,
          logLevel: 'silent',
        });
        const inputs = Object.keys(result.metafile.inputs);
        expect(inputs).to.include.members([
          'models/visits.js',
          'models/errors.js',
          `dist/endpoints/${path.basename(outcome.module)}`,
        ]);
        const bundled = (await import(pathToFileURL(outfile).href)) as { app: Promise<Application> };
        await expectOneInstance(await bundled.app);
      });
    });
  }

  it('a TypeScript tree: an alias is imported by its path, and the TypeScript files it imports are named in a note', async () => {
    const root = writeApp('commonjs', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@models/*': ['./models/*'] } } }),
      'lib/clock.ts': 'export const now = (): number => 42;\n',
      'app/api/clock/endpoint.ts': [
        "import { visitCount } from '@models/visits';",
        "import { now } from '../../../lib/clock';",
        'export const GET = () => Response.json({ now: now(), count: visitCount() });',
        '',
      ].join('\n'),
    });
    const outcome = await buildEndpoints(path.join(root, 'app'), path.join(root, 'dist/endpoints'));
    expect(outcome.imports).to.include.members([
      path.join(root, 'lib/clock.ts'),
      path.join(root, 'models/visits.js'),
    ]);
    const manifest = readFileSync(outcome.module, 'utf8');
    expect(manifest)
      .to.include('require("../../models/visits.js")')
      .and.include('require("../../lib/clock.ts")');
    expect(outcome.warnings).to.have.length(1);
    expect(outcome.warnings[0]).to.match(
      /^the build imports \S*\/lib\/clock\.ts from outside the tree as it is: the app must load that same file/,
    );
    // The test process runs TypeScript through tsx, as such an app would.
    const endpoints = mountEndpoints({ dir: path.join(root, 'dist/endpoints'), ...quiet });
    const res = await endpoints.fetch(new Request('http://localhost/api/clock'));
    expect(await res.json()).to.deep.equal({ now: 42, count: 0 });
  });

  it("a JSON file outside the tree: required, or imported with type 'json', the app and the build share its object", async () => {
    const settings = JSON.stringify({ greeting: 'as written' });
    const cases = [
      {
        kind: 'commonjs' as const,
        endpoint:
          "const settings = require('../../../config/settings.json');\nexports.GET = () => Response.json(settings);\n",
      },
      {
        kind: 'commonjs' as const,
        endpoint:
          "import settings from '../../../config/settings.json';\nexport const GET = () => Response.json(settings);\n",
        ts: true,
      },
      {
        kind: 'module' as const,
        endpoint:
          "import settings from '../../../config/settings.json' with { type: 'json' };\nexport const GET = () => Response.json(settings);\n",
      },
    ];
    for (const { kind, endpoint, ts } of cases) {
      const root = writeApp(kind, {
        'config/settings.json': settings,
        [`app/api/settings/endpoint.${ts ? 'ts' : 'js'}`]: endpoint,
      });
      const outcome = await buildEndpoints(path.join(root, 'app'), path.join(root, 'dist/endpoints'));
      expect(outcome.imports, kind).to.include(path.join(root, 'config/settings.json'));
      expect(readFileSync(outcome.module, 'utf8'), kind).not.to.include('as written');
      // The app fills its config in as it starts, as many do from the environment: the endpoints see it.
      const file = path.join(root, 'config/settings.json');
      const shared = (
        kind === 'commonjs'
          ? createRequire(__filename)(file)
          : ((await import(pathToFileURL(file).href, { with: { type: 'json' } })) as { default: unknown })
              .default
      ) as { greeting: string };
      shared.greeting = 'set by the app';
      const endpoints = mountEndpoints({ dir: path.join(root, 'dist/endpoints'), ...quiet });
      const res = await endpoints.fetch(new Request('http://localhost/api/settings'));
      expect(await res.json(), `${kind}${ts ? ', TypeScript' : ''}`).to.deep.equal({
        greeting: 'set by the app',
      });
    }
  });

  it("an ES module's import of JSON without type 'json' keeps a copy compiled in: Node could not load it", async () => {
    const root = writeApp('module', {
      'config/settings.json': JSON.stringify({ greeting: 'as written' }),
      'app/api/settings/endpoint.ts':
        "import settings from '../../../config/settings.json';\nexport const GET = () => Response.json(settings);\n",
    });
    const outcome = await buildEndpoints(path.join(root, 'app'), path.join(root, 'dist/endpoints'));
    expect(outcome.imports).not.to.include(path.join(root, 'config/settings.json'));
    const endpoints = mountEndpoints({ dir: path.join(root, 'dist/endpoints'), ...quiet });
    const res = await endpoints.fetch(new Request('http://localhost/api/settings'));
    expect(await res.json()).to.deep.equal({ greeting: 'as written' });
  });

  it('a route file linked into the tree from outside it is compiled in all the same', async () => {
    const root = writeApp('commonjs', {
      'shared/endpoint.ts': "export const GET = () => new Response('linked');\n",
    });
    mkdirSync(path.join(root, 'app/api/linked'));
    symlinkSync(path.join(root, 'shared/endpoint.ts'), path.join(root, 'app/api/linked/endpoint.ts'));
    const outcome = await buildEndpoints(path.join(root, 'app'), path.join(root, 'dist/endpoints'));
    expect(outcome.imports).not.to.include(path.join(root, 'shared/endpoint.ts'));
    expect(readFileSync(outcome.module, 'utf8')).to.include('"linked"');
  });

  it('an app file whose path holds # or %: an ES module imports it by a URL that names it', async () => {
    for (const kind of ['module', 'commonjs'] as const) {
      const root = writeApp(kind, {
        'shared/50% #1/label.cjs': "exports.label = 'shared';\n",
        'app/api/label/endpoint.ts': [
          "import { label } from '../../../shared/50% #1/label.cjs';",
          'export const GET = () => Response.json({ label });',
          '',
        ].join('\n'),
      });
      const outcome = await buildEndpoints(path.join(root, 'app'), path.join(root, 'dist/endpoints'));
      expect(readFileSync(outcome.module, 'utf8'), kind).to.include(
        kind === 'module' ? '"../../shared/50%25 %231/label.cjs"' : '"../../shared/50% #1/label.cjs"',
      );
      const endpoints = mountEndpoints({ dir: path.join(root, 'dist/endpoints'), ...quiet });
      const res = await endpoints.fetch(new Request('http://localhost/api/label'));
      expect(await res.json(), kind).to.deep.equal({ label: 'shared' });
    }
  });
});
