/**
 * Apps as users have them, for the tests of what a build leaves to the app (app-modules.test.ts,
 * typescript-app.test.ts): a legacy Express router and an endpoint that both import the app's models, one a
 * singleton (a visit counter, as a connection pool is one per app) and one an error class the app's error handler
 * checks with `instanceof`. One app per kind: JavaScript in a CommonJS package, JavaScript in an ES module package,
 * TypeScript compiled by tsc (rootDir src, outDir dist). Each exports `createApp(endpoints)`, `endpoints` being
 * `mountEndpoints`' options: `{ dir }` or `{ manifest }`.
 *
 * Each app gets its own node_modules: Express and its types from this repository's install, and
 * `express-file-endpoints` as a stand-in package that runs this repository's src (through tsx, registered in the
 * test process), so that the app imports the library by its name, as a user's does.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import type { Application } from 'express';
import request from 'supertest';
import type { MountOptions } from '../../src';

const REPO = path.resolve(__dirname, '../..');
const REPO_MODULES = path.join(REPO, 'node_modules');

export type AppKind = 'commonjs' | 'module' | 'typescript';

export interface FixtureApp {
  root: string;
  /** The app's own `createApp`, from server.js (for a TypeScript app, as tsc compiled it). */
  createApp(endpoints: MountOptions): Promise<Application>;
}

/** The endpoint's answer: the count it reads, presented by a helper of the tree (compiled into the build). */
export interface Visits {
  count: number;
  presentedBy: string;
}

const COMMONJS: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'legacy-shop', private: true, type: 'commonjs' }),
  'models/visits.js': `// One counter for the whole app, as there is one connection pool: whoever imports it shares it.
let count = 0;
exports.recordVisit = () => ++count;
exports.visitCount = () => count;
`,
  'models/errors.js': `class NotFoundError extends Error {
  constructor(what) {
    super(\`no \${what}\`);
    this.name = 'NotFoundError';
  }
}
exports.NotFoundError = NotFoundError;
`,
  'routes/legacy.js': `const express = require('express');
const { recordVisit } = require('../models/visits');

const router = express.Router();
router.post('/legacy/visits', (req, res) => res.json({ count: recordVisit() }));
module.exports = router;
`,
  'app/_lib/present.js': "exports.present = (count) => ({ count, presentedBy: 'app/_lib' });\n",
  'app/api/visits/endpoint.js': `const { visitCount } = require('../../../models/visits');
const { present } = require('../../_lib/present');

exports.GET = () => Response.json(present(visitCount()));
`,
  'app/api/visits/[id]/endpoint.js': `const { NotFoundError } = require('../../../../models/errors');

exports.GET = (req, { params }) => {
  throw new NotFoundError(\`visit \${params.id}\`);
};
`,
  'server.js': `const express = require('express');
const { mountEndpoints } = require('express-file-endpoints');
const { NotFoundError } = require('./models/errors');
const legacy = require('./routes/legacy');

async function createApp(endpoints) {
  const app = express();
  await mountEndpoints(app, endpoints);
  app.use(legacy);
  app.use((error, req, res, next) => {
    res.status(error instanceof NotFoundError ? 404 : 500).json({ error: error.message });
  });
  return app;
}
module.exports = { createApp };
`,
};

const MODULE: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'legacy-shop', private: true, type: 'module' }),
  'models/visits.js': `// One counter for the whole app, as there is one connection pool: whoever imports it shares it.
let count = 0;
export const recordVisit = () => ++count;
export const visitCount = () => count;
`,
  'models/errors.js': `export class NotFoundError extends Error {
  constructor(what) {
    super(\`no \${what}\`);
    this.name = 'NotFoundError';
  }
}
`,
  'routes/legacy.js': `import express from 'express';
import { recordVisit } from '../models/visits.js';

export const legacy = express.Router();
legacy.post('/legacy/visits', (req, res) => res.json({ count: recordVisit() }));
`,
  'app/_lib/present.js': "export const present = (count) => ({ count, presentedBy: 'app/_lib' });\n",
  'app/api/visits/endpoint.js': `import { visitCount } from '../../../models/visits.js';
import { present } from '../../_lib/present.js';

export const GET = () => Response.json(present(visitCount()));
`,
  'app/api/visits/[id]/endpoint.js': `import { NotFoundError } from '../../../../models/errors.js';

export function GET(req, { params }) {
  throw new NotFoundError(\`visit \${params.id}\`);
}
`,
  'server.js': `import express from 'express';
import { mountEndpoints } from 'express-file-endpoints';
import { NotFoundError } from './models/errors.js';
import { legacy } from './routes/legacy.js';

export async function createApp(endpoints) {
  const app = express();
  await mountEndpoints(app, endpoints);
  app.use(legacy);
  app.use((error, req, res, next) => {
    res.status(error instanceof NotFoundError ? 404 : 500).json({ error: error.message });
  });
  return app;
}
`,
};

/** Compiled by tsc from src into dist, as CommonJS; in development the tree (src/app) runs through tsx. */
const TYPESCRIPT: Record<string, string> = {
  'package.json': JSON.stringify({
    name: 'legacy-shop',
    private: true,
    type: 'commonjs',
    scripts: { build: 'tsc && express-file-endpoints build dist/app --out dist/endpoints' },
  }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      rootDir: 'src',
      outDir: 'dist',
      module: 'commonjs',
      target: 'es2022',
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      sourceMap: true,
      types: ['node'],
    },
    include: ['src'],
  }),
  'src/models/visits.ts': `// One counter for the whole app, as there is one connection pool: whoever imports it shares it.
let count = 0;
export const recordVisit = (): number => ++count;
export const visitCount = (): number => count;
`,
  'src/models/errors.ts': `export class NotFoundError extends Error {
  constructor(what: string) {
    super(\`no \${what}\`);
    this.name = 'NotFoundError';
  }
}
`,
  'src/routes/legacy.ts': `import express from 'express';
import { recordVisit } from '../models/visits';

export const legacy = express.Router();
legacy.post('/legacy/visits', (_req, res) => {
  res.json({ count: recordVisit() });
});
`,
  'src/app/_lib/present.ts':
    "export const present = (count: number) => ({ count, presentedBy: 'app/_lib' });\n",
  'src/app/api/visits/endpoint.ts': `import { visitCount } from '../../../models/visits';
import { present } from '../../_lib/present';

export const GET = (): Response => Response.json(present(visitCount()));
`,
  'src/app/api/visits/[id]/endpoint.ts': `import { NotFoundError } from '../../../../models/errors';

export function GET(_req: Request, { params }: { params: { id: string } }): Response {
  throw new NotFoundError(\`visit \${params.id}\`);
}
`,
  'src/server.ts': `import express, { type ErrorRequestHandler } from 'express';
import { mountEndpoints, type MountOptions } from 'express-file-endpoints';
import { NotFoundError } from './models/errors';
import { legacy } from './routes/legacy';

export async function createApp(endpoints: MountOptions): Promise<express.Application> {
  const app = express();
  await mountEndpoints(app, endpoints);
  app.use(legacy);
  const errors: ErrorRequestHandler = (error: Error, _req, res, _next) => {
    res.status(error instanceof NotFoundError ? 404 : 500).json({ error: error.message });
  };
  app.use(errors);
  return app;
}
`,
};

const FILES: Record<AppKind, Record<string, string>> = {
  commonjs: COMMONJS,
  module: MODULE,
  typescript: TYPESCRIPT,
};

const made: string[] = [];

/** Writes the app of `kind` into a new temporary folder, with its node_modules. */
export function writeApp(kind: AppKind, extra: Record<string, string> = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), `ee-app-modules-${kind}-`));
  made.push(root);
  for (const [file, text] of Object.entries({ ...FILES[kind], ...extra })) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  const modules = path.join(root, 'node_modules');
  mkdirSync(modules);
  for (const name of ['express', '@types']) {
    symlinkSync(path.join(REPO_MODULES, name), path.join(modules, name), 'dir');
  }
  const library = path.join(modules, 'express-file-endpoints');
  mkdirSync(library);
  writeFileSync(
    path.join(library, 'package.json'),
    JSON.stringify({
      name: 'express-file-endpoints',
      exports: { types: './index.d.ts', import: './index.mjs', require: './index.js' },
    }),
  );
  // Node cannot list the names a re-export of a .ts file gives: the one the apps use is named.
  writeFileSync(
    path.join(library, 'index.mjs'),
    "import library from './index.js';\nexport const { mountEndpoints } = library;\n",
  );
  writeFileSync(
    path.join(library, 'index.js'),
    `module.exports = require(${JSON.stringify(path.join(REPO, 'src/index.ts'))});\n`,
  );
  // What the TypeScript app uses of the package's types: tsc would compile src itself if pointed at it.
  writeFileSync(
    path.join(library, 'index.d.ts'),
    [
      "import type { Application } from 'express';",
      'export interface EndpointsManifest { kind: string }',
      'export type MountOptions = { dir: string } | { manifest: EndpointsManifest };',
      'export declare function mountEndpoints(app: Application, options: MountOptions): Promise<unknown>;',
      '',
    ].join('\n'),
  );
  return root;
}

export function removeApps(): void {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
}

/** The app's `createApp`, from `server` (a path relative to the app) as Node loads it. */
export async function appOf(root: string, server = 'server.js'): Promise<FixtureApp> {
  const loaded = (await import(pathToFileURL(path.join(root, server)).href)) as {
    createApp?: FixtureApp['createApp'];
    default?: { createApp: FixtureApp['createApp'] };
  };
  const createApp = loaded.createApp ?? loaded.default!.createApp;
  return { root, createApp };
}

/** The manifest module as an app imports it: its default export (`require()` gives the same object). */
export async function importManifest(file: string): Promise<MountOptions['manifest']> {
  const loaded = (await import(pathToFileURL(file).href)) as { default: MountOptions['manifest'] };
  return loaded.default;
}
/**
 * The router counts a visit, the endpoint reads the count: one counter between them. The endpoint throws the
 * app's NotFoundError, which the app's error handler knows by `instanceof`: one class.
 */
export async function expectOneInstance(app: Application): Promise<void> {
  const recorded = await request(app).post('/legacy/visits');
  const { count } = recorded.body as { count: number };
  expect(count, 'the router counted').to.be.above(0);
  const read = await request(app).get('/api/visits');
  expect(read.body as Visits).to.deep.equal({ count, presentedBy: 'app/_lib' });
  const missing = await request(app).get('/api/visits/7');
  expect([missing.status, missing.body]).to.deep.equal([404, { error: 'no visit 7' }]);
}
