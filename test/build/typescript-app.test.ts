/**
 * A TypeScript app compiled by tsc (app-fixtures.ts: src into dist, the tree with the rest), whose router and
 * endpoint import the same models. docs/build.md's recipe builds the tree tsc wrote (dist/app): the built
 * endpoints import dist/models, where the app's compiled router imports them, so they share one instance, mounted
 * from the build folder or from the manifest the app imports. The source tree (src/app) is what an app bundled
 * whole builds: its bundle holds one copy of each model. tsc and the command run in child processes: seconds.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import * as esbuild from 'esbuild';
import type { Application } from 'express';
import { buildEndpoints } from '../../src/build';
import { runCli } from '../support/cli';
import { appOf, expectOneInstance, importManifest, removeApps, writeApp } from './app-fixtures';

const quiet = { onError: () => {} };

describe('build: a TypeScript app compiled by tsc', function () {
  this.timeout(60_000);
  let root: string;
  before(function () {
    this.timeout(120_000);
    root = writeApp('typescript');
    const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', '.'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(tsc.stdout + tsc.stderr).to.equal('');
    expect(tsc.status).to.equal(0);
  });
  after(removeApps);

  it('in development, the tree through tsx shares the source models with the router', async () => {
    const { createApp } = await appOf(root, 'src/server.ts');
    await expectOneInstance(await createApp({ dir: path.join(root, 'src/app'), ...quiet }));
  });

  describe('built from the tree tsc wrote, as docs/build.md says', () => {
    before(function () {
      this.timeout(120_000);
      const result = runCli(['build', 'dist/app', '--out', 'dist/endpoints'], { cwd: root });
      expect(result.stderr).to.equal('');
      expect(result.stdout).to.match(
        /\n✓ built dist\/endpoints\/manifest\.cjs \(CommonJS, 3 files compiled, 2 imported from the app\); mount it with dir: 'dist\/endpoints'\n$/,
      );
      expect(result.stdout).not.to.include('note:');
      expect(result.status).to.equal(0);
    });

    it("imports the compiled models, which the app's router imports; its source map names the .ts files", () => {
      const manifest = readFileSync(path.join(root, 'dist/endpoints/manifest.cjs'), 'utf8');
      expect(manifest)
        .to.include('require("../models/visits.js")')
        .and.include('require("../models/errors.js")');
      const map = JSON.parse(readFileSync(path.join(root, 'dist/endpoints/manifest.cjs.map'), 'utf8')) as {
        sources: string[];
      };
      const sources = map.sources.map((source) => path.resolve(root, 'dist/endpoints', source));
      expect(sources).to.include(path.join(root, 'src/app/api/visits/endpoint.ts'));
    });

    it("mounted from the build folder, the endpoints share the compiled router's instance", async () => {
      const { createApp } = await appOf(root, 'dist/server.js');
      await expectOneInstance(await createApp({ dir: path.join(root, 'dist/endpoints'), ...quiet }));
    });

    it("mounted from the manifest the app imports, the endpoints share the compiled router's instance", async () => {
      const { createApp } = await appOf(root, 'dist/server.js');
      const manifest = await importManifest(path.join(root, 'dist/endpoints/manifest.cjs'));
      await expectOneInstance(await createApp({ manifest, ...quiet }));
    });
  });

  it('built from the source tree and bundled whole with the app, the bundle holds one copy of each model', async () => {
    const outcome = await buildEndpoints(path.join(root, 'src/app'), path.join(root, 'build/endpoints'));
    expect(outcome.imports).to.deep.equal([
      path.join(root, 'src/models/errors.ts'),
      path.join(root, 'src/models/visits.ts'),
    ]);
    // Right for this app, which bundles; for one that runs tsc's output, the note says what to build instead.
    expect(outcome.warnings).to.have.length(1);
    expect(outcome.warnings[0]).to.include('src/models/errors.ts (and 1 other TypeScript file) from outside');
    writeFileSync(
      path.join(root, 'bundle.ts'),
      [
        "import manifest = require('./build/endpoints/manifest.cjs');",
        "import { createApp } from './src/server';",
        'export const app = createApp({ manifest });',
        '',
      ].join('\n'),
    );
    const outfile = path.join(root, 'out/app.cjs');
    const result = await esbuild.build({
      entryPoints: [path.join(root, 'bundle.ts')],
      absWorkingDir: root,
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      // The app's code in one file; the packages stay imports here (the package tests bundle them too).
      packages: 'external',
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).to.include.members(['src/models/visits.ts', 'src/models/errors.ts']);
    expect(inputs.filter((input) => input.startsWith('dist/'))).to.deep.equal([]);
    const bundled = require(outfile) as { app: Promise<Application> };
    await expectOneInstance(await bundled.app);
  });
});
