/**
 * An app that imports a build's manifest bundles into one file, with esbuild and with rolldown, and runs from
 * that file alone: copied into an empty folder (no node_modules, no endpoint tree, no tsx) and started with
 * plain Node. Two scratch apps, an ES module one and a CommonJS one, each with the packed tarball installed as
 * a user would, a TypeScript endpoint with a local import and folder middleware, and a model of the app's that the
 * endpoint and the app's own route both import; each built with `npx express-file-endpoints build`, then bundled
 * by each bundler as docs/build.md shows. The bundle holds one copy of the model: the route counts a visit, the
 * endpoint reads the count.
 */
import { mkdir, mkdtemp, copyFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { cleanEnv, exec, KEEP, npmInstall, packOnce } from './tarball';

const ENDPOINT = `import { greet } from '../../../_lib/greet';
import { visitCount } from '../../../../models/visits.js';
export function GET(_req: Request, { params }: { params: { name: string } }): Response {
  return Response.json({ greeting: greet(params.name), visits: visitCount() });
}
`;
/** The app's model, outside the tree: one counter for the app, as there is one connection pool. */
const VISITS = {
  module:
    'let count = 0;\nexport const recordVisit = () => ++count;\nexport const visitCount = () => count;\n',
  commonjs: 'let count = 0;\nexports.recordVisit = () => ++count;\nexports.visitCount = () => count;\n',
};
const GREET = 'export function greet(name: string): string {\n  return `hello, ${name}`;\n}\n';
const MIDDLEWARE = `export default async function api(_req: Request, next: () => Promise<Response>): Promise<Response> {
  const res = await next();
  res.headers.set('x-api', 'yes');
  return res;
}
`;

/**
 * Mounts the imported manifest and the app's own route, counts a visit through that route, asks the endpoint,
 * prints what it got, and stops.
 */
const serverBody = (mount: string) => `const app = express();
${mount}
app.post('/legacy/visits', (req, res) => res.json({ count: recordVisit() }));
const server = app.listen(0, async () => {
  const origin = 'http://127.0.0.1:' + server.address().port;
  await fetch(origin + '/legacy/visits', { method: 'POST' });
  const res = await fetch(origin + '/api/hello/ada');
  console.log(JSON.stringify({ status: res.status, api: res.headers.get('x-api'), body: await res.json() }));
  server.close();
});
`;

const APPS = {
  module: {
    server: 'server.mjs',
    code: `import express from 'express';
import { mountEndpoints } from 'express-file-endpoints';
import manifest from './dist/endpoints/manifest.mjs';
import { recordVisit } from './models/visits.js';

${serverBody('await mountEndpoints(app, { manifest });')}`,
  },
  commonjs: {
    server: 'server.js',
    code: `const express = require('express');
const { mountEndpoints } = require('express-file-endpoints');
const manifest = require('./dist/endpoints/manifest.cjs');
const { recordVisit } = require('./models/visits.js');

${serverBody('mountEndpoints(app, { manifest });')}`,
  },
} as const;

/** The bundlers' commands, as docs/build.md gives them. */
const BUNDLERS = {
  esbuild: (entry: string, type: keyof typeof APPS, outfile: string) => [
    'esbuild',
    entry,
    '--bundle',
    '--platform=node',
    `--format=${type === 'module' ? 'esm' : 'cjs'}`,
    `--outfile=${outfile}`,
    // Express is CommonJS: in an ES module bundle, esbuild's require() needs one from Node.
    ...(type === 'module'
      ? [
          '--banner:js=import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
        ]
      : []),
  ],
  rolldown: (entry: string, type: keyof typeof APPS, outfile: string) => [
    'rolldown',
    entry,
    '--platform',
    'node',
    '--format',
    type === 'module' ? 'esm' : 'cjs',
    '--file',
    outfile,
  ],
};

describe('bundlers: an app importing a build, bundled into one file', function () {
  this.timeout(120_000);
  let scratch: string;
  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'ee-bundlers-'));
  });
  after(async () => {
    if (!KEEP) await rm(scratch, { recursive: true, force: true });
  });

  for (const type of ['module', 'commonjs'] as const) {
    describe(`${type === 'module' ? 'an ES module' : 'a CommonJS'} app`, () => {
      let dir: string;
      before(async () => {
        const { tarball } = await packOnce();
        dir = join(scratch, type);
        const files: Record<string, string> = {
          'package.json': JSON.stringify({ name: `bundled-${type}`, private: true, type }),
          'app/api/hello/[name]/endpoint.ts': ENDPOINT,
          'app/_lib/greet.ts': GREET,
          'app/api/middleware.ts': MIDDLEWARE,
          'models/visits.js': VISITS[type],
          [APPS[type].server]: APPS[type].code,
        };
        for (const [file, text] of Object.entries(files)) {
          await mkdir(dirname(join(dir, file)), { recursive: true });
          await writeFile(join(dir, file), text);
        }
        await npmInstall(dir, [tarball, 'express', 'tsx', 'esbuild', 'rolldown']);
        await exec('npx', ['express-file-endpoints', 'build'], dir);
      });

      for (const [bundler, command] of Object.entries(BUNDLERS)) {
        it(`runs from ${bundler}'s single file alone`, async () => {
          const file = `bundle-${bundler}.${type === 'module' ? 'mjs' : 'cjs'}`;
          await exec('npx', command(APPS[type].server, type, join('out', file)), dir);
          const alone = await mkdtemp(join(scratch, 'alone-'));
          await copyFile(join(dir, 'out', file), join(alone, file));
          const { stdout } = await exec(process.execPath, [file], alone, {
            ...cleanEnv,
            NODE_ENV: 'production',
          });
          expect(JSON.parse(stdout)).to.deep.equal({
            status: 200,
            api: 'yes',
            body: { greeting: 'hello, ada', visits: 1 },
          });
        });
      }
    });
  }
});
