/**
 * TypeScript and JavaScript endpoints in CommonJS and ES module packages, loaded by plain `node`
 * on the built package, with tsx installed in the app or not; and what the sync form loads at its call. Each app is written to a temp
 * folder (outside this repository's node_modules) and loaded from a process started in `/`, so
 * tsx can only be found from the app itself. Runs on every supported Node: where Node strips
 * types itself (22.18+), the cases without tsx load through it or fail saying what it lacks.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import {
  builtEntry,
  ensureBuilt,
  loadApp,
  nodeStripsTypes,
  removeApps,
  responses,
  root,
  writeApp,
} from './loading-apps';

// A non-erasable construct (an enum), so that only tsx can load it.
const greeting = `export enum Via { Tsx = 'tsx' }
export function greet(name: string): { text: string; via: Via } {
  return { text: \`Hello, \${name}!\`, via: Via.Tsx };
}
`;
// An extensionless import of a .ts file, as legacy apps written for tsc have.
const greetEndpoint = `import { greet } from '../../_lib/greeting';
export function GET(_req: Request, { params }: { params: { name: string } }): Response {
  return Response.json(greet(params.name));
}
`;
const mtsEndpoint = `export function GET(): Response {
  return Response.json({ via: 'mts', meta: typeof import.meta.url });
}
`;
const ctsEndpoint = `import path = require('node:path');
export function GET(): Response {
  return Response.json({ via: 'cts', sep: typeof path.sep, commonJs: typeof module });
}
`;
const tlaEndpoint = `import { greet } from '../_lib/greeting';
const config: { greeting: string } = await Promise.resolve({ greeting: greet('TLA').text });
export function GET(): Response {
  return Response.json(config);
}
`;

/** The app every "with tsx" case loads, in a package of the given type. */
function tsApp(type: 'commonjs' | 'module'): Record<string, string> {
  return {
    'package.json': JSON.stringify({ type }),
    '_lib/greeting.ts': greeting,
    'greet/[name]/endpoint.ts': greetEndpoint,
    'mts/endpoint.mts': mtsEndpoint,
    'cts/endpoint.cts': ctsEndpoint,
    'tla/endpoint.ts': tlaEndpoint,
  };
}

describe('integration: endpoints in CommonJS and ES module packages', function () {
  this.timeout(60_000);
  before(async function () {
    this.timeout(120_000);
    await ensureBuilt();
  });
  after(removeApps);

  for (const type of ['commonjs', 'module'] as const) {
    it(`tsx installed, "type": "${type}": .ts with extensionless imports, .mts, .cts, top-level await`, async () => {
      const dir = writeApp(tsApp(type), { tsx: true });
      const outcome = await loadApp(dir, ['/greet/Ada', '/mts', '/cts', '/tla'], { cwd: '/' });
      expect(responses(outcome)).to.deep.equal([
        { status: 200, body: { text: 'Hello, Ada!', via: 'tsx' } },
        { status: 200, body: { via: 'mts', meta: 'string' } },
        { status: 200, body: { via: 'cts', sep: 'string', commonJs: 'object' } },
        { status: 200, body: { greeting: 'Hello, TLA!' } },
      ]);
    });
  }

  describe('without tsx', () => {
    it(
      nodeStripsTypes
        ? 'loads erasable TypeScript (.ts, .mts, top-level await) with Node’s type stripping'
        : 'says Node cannot load TypeScript by itself, and how to fix it',
      async () => {
        const dir = writeApp(
          {
            'package.json': '{}',
            'plain/endpoint.ts': `export function GET(): Response { return Response.json({ via: 'node' }); }\n`,
            'mts/endpoint.mts': mtsEndpoint,
            'tla/endpoint.ts': `const n: number = await Promise.resolve(1);\nexport const GET = (): Response => Response.json({ n });\n`,
          },
          { tsx: false },
        );
        const outcome = await loadApp(dir, ['/plain', '/mts', '/tla'], { cwd: '/' });
        if (!nodeStripsTypes) {
          expect(outcome.error).to.match(/\S+\/endpoint\.m?ts(?: \(line [^)]*\))?: /);
          expect(outcome.error).to.include(`Node ${process.version} does not load this kind of TypeScript`);
          expect(outcome.error).to.include('npm install -D tsx');
          return;
        }
        expect(responses(outcome)).to.deep.equal([
          { status: 200, body: { via: 'node' } },
          { status: 200, body: { via: 'mts', meta: 'string' } },
          { status: 200, body: { n: 1 } },
        ]);
      },
    );

    const failures: Array<[string, Record<string, string>, string]> = [
      [
        'an extensionless import',
        {
          'package.json': '{ "type": "module" }',
          '_lib/greeting.ts': 'export const x = 1;\n',
          ...greetIn('x'),
        },
        'does not resolve extensionless imports',
      ],
      [
        'an enum',
        {
          'package.json': '{}',
          'greet/[name]/endpoint.ts': `${greeting}export const GET = () => Response.json(greet('x'));\n`,
        },
        'cannot run TypeScript syntax that needs compiling (enums, namespaces, parameter properties)',
      ],
      [
        'ES syntax in a .ts file of a "type": "commonjs" package',
        {
          'package.json': '{ "type": "commonjs" }',
          'greet/[name]/endpoint.ts': 'export const GET = (): Response => Response.json({});\n',
        },
        'does not load `import`/`export` from a .ts file in a CommonJS package',
      ],
    ];
    for (const [what, files, limit] of failures) {
      it(`${what}: the error names the file, ${nodeStripsTypes ? 'what stripping lacks, ' : ''}and the fix`, async () => {
        const outcome = await loadApp(writeApp(files, { tsx: false }), ['/greet/x'], { cwd: '/' });
        expect(outcome.error).to.match(/\S+\/greet\/\[name\]\/endpoint\.ts(?: \(line [^)]*\))?: /);
        expect(outcome.error).to.include('npm install -D tsx');
        expect(outcome.error).to.include(nodeStripsTypes ? limit : 'does not load this kind of TypeScript');
        expect(outcome.error).not.to.include('Require stack');
      });
    }
  });

  describe('`export` in a .js endpoint: Node’s rules, with or without TypeScript files beside it', () => {
    const esmJs = 'export function GET() { return Response.json({ via: "js" }); }\n';
    const tsSibling = {
      'ts/endpoint.ts': 'export const GET = (): Response => Response.json({ via: "ts" });\n',
    };

    for (const withTs of [false, true]) {
      const beside = withTs ? 'beside a .ts endpoint, tsx installed' : 'in a JavaScript-only tree';
      it(`"type": "commonjs", ${beside}: fails, naming the file and the three fixes`, async () => {
        const files = {
          'package.json': '{ "type": "commonjs" }',
          'js/endpoint.js': esmJs,
          ...(withTs ? tsSibling : {}),
        };
        const outcome = await loadApp(writeApp(files, { tsx: withTs }), ['/js'], { cwd: '/' });
        expect(outcome.error).to.match(/\S+\/js\/endpoint\.js \(line 1\): /);
        expect(outcome.error).to.include('endpoint.mjs');
        expect(outcome.error).to.include('`exports.GET = …`');
        expect(outcome.error).to.include('"type": "module"');
      });

      it(`no "type" in package.json, ${beside}: loads (Node detects the ES syntax)`, async () => {
        const files = { 'package.json': '{}', 'js/endpoint.js': esmJs, ...(withTs ? tsSibling : {}) };
        const outcome = await loadApp(writeApp(files, { tsx: withTs }), ['/js'], { cwd: '/' });
        expect(responses(outcome)).to.deep.equal([{ status: 200, body: { via: 'js' } }]);
      });
    }
  });
});

const SYNC_APP = path.join(root, 'test/fixtures/sync-mount-app');

interface SyncOutcome {
  threw?: string;
  atCall: string[];
  afterReady: string[];
  ready: string;
  errors: string[];
  answers: Record<string, number>;
  warnings: string[];
}

/** Runs test/fixtures/sync-mount-app/server.js on the built package, mounting `tree`, in a process of its own. */
async function runSyncApp(tree: 'app' | 'broken'): Promise<SyncOutcome> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test' };
  delete env.NODE_OPTIONS; // no loader of this repository's tests may sneak in
  const { stdout } = await promisify(execFile)(process.execPath, ['server.js', builtEntry, tree], {
    cwd: SYNC_APP,
    env,
    timeout: 20_000,
    killSignal: 'SIGKILL',
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as SyncOutcome;
}

describe('integration: app.use(mountEndpoints()) loads what it can at the call, as a router is required', function () {
  this.timeout(60_000);
  before(async function () {
    this.timeout(120_000);
    await ensureBuilt();
  });

  // An Express app whose last router requiring the models moved into the tree: its start-up code (sequelize.sync())
  // runs right after the mount, not awaited, and must find the models the endpoints define as they load.
  it('CommonJS, ES module (require(esm)) and CommonJS TypeScript (tsx) endpoints have run when it returns', async () => {
    const requiresEsm = (process.features as { require_module?: unknown }).require_module === true;
    const outcome = await runSyncApp('app');
    expect(outcome.atCall.sort()).to.deep.equal(
      requiresEsm ? ['Author', 'Post', 'User'] : ['Author', 'User'],
    );
    // Top-level await: only import() takes it, after the call; `.ready` waits for it.
    expect(outcome.afterReady.sort()).to.deep.equal(['Author', 'Later', 'Post', 'User']);
    expect(outcome).to.deep.include({ ready: 'resolved', errors: [], warnings: [] });
    expect(outcome.answers).to.deep.equal({ '/authors': 200, '/later': 200, '/posts': 200, '/users': 200 });
  });

  it('a module that throws as it is required: no throw at the call, `.ready` rejects, the route answers 500', async () => {
    const outcome = await runSyncApp('broken');
    const error = 'Could not load broken/boom/endpoint.js (line 3, column 7): no database';
    expect(outcome.threw).to.equal(undefined);
    expect(outcome).to.deep.include({ ready: error, errors: [error] });
    expect(outcome.answers).to.deep.equal({ '/boom': 500, '/fine': 200 });
  });
});

/** An endpoint importing `../../_lib/greeting` without an extension, using its export `name`. */
function greetIn(name: string): Record<string, string> {
  return {
    'greet/[name]/endpoint.ts': `import { ${name} } from '../../_lib/greeting';\nexport const GET = (): Response => Response.json({ ${name} });\n`,
  };
}
