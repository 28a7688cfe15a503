/**
 * TypeScript route files compiled ahead and kept in node_modules/.cache (src/load/compiled-routes.ts), in apps
 * written as users write TypeScript: extensionless imports, `import type`, an enum, a helper the app imports too.
 * Each case runs the built package in a child process (test/fixtures/ts-load/compiled-app.cjs), CommonJS and ES
 * module packages alike. What the cache holds is seen from outside: an entry changed on disk is what the next start
 * serves, as long as the source and the tsconfig are those it was compiled from.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { builtEntry, ensureBuilt, removeApps, stripsFirst, writeApp } from './loading-apps';

const run = promisify(execFile);
const script = path.join(__dirname, '../fixtures/ts-load/compiled-app.cjs');

const label = `export enum Tone { Plain = 'plain' }
export interface Label { text: string; tone: Tone }
(globalThis as { labelLoads?: number }).labelLoads = ((globalThis as { labelLoads?: number }).labelLoads ?? 0) + 1;
export function label(text: string): Label {
  return { text, tone: Tone.Plain };
}
`;
const endpoint = (word: string) => `import { label } from '../../_lib/label';
import type { Label } from '../../_lib/label';

export function GET(_req: Request, { params }: { params: { id: string } }): Response {
  const made: Label = label(params.id);
  const where = new Error('here').stack!.split('\\n')[1];
  return Response.json({ word: '${word}', made, where, dir: typeof __dirname === 'string' ? __dirname : import.meta.dirname });
}
`;

/** `other` imports the shared module through a tsconfig `paths` alias, which tsx resolves. */
function app(type: 'commonjs' | 'module'): Record<string, string> {
  return {
    'package.json': JSON.stringify({ type }),
    'tsconfig.json':
      '{ "compilerOptions": { "strict": true, "baseUrl": ".", "paths": { "@lib/*": ["app/_lib/*"] } } }\n',
    'app/_lib/label.ts': label,
    'app/items/[id]/endpoint.ts': endpoint('one'),
    'app/other/[id]/endpoint.ts': endpoint('two').replace(/'\.\.\/\.\.\/_lib\/label'/g, "'@lib/label'"),
  };
}

/**
 * An ES module tree Node's type stripping loads whole: NodeNext `.js` imports, a class imported as a value and
 * used only as a type (stripping keeps that import, and so runs the module), and an enum in an endpoint, which
 * stripping refuses and the compiler takes. `new Error()` is on line 9.
 */
const strippedEndpoint = (word: string) => `import { label } from '../../_lib/label.js';
import { Registry } from '../../_lib/registry.js';
import type { Label } from '../../_lib/label.js';

export function GET(_req: Request, { params }: { params: { id: string } }): Response {
  const made: Label = label(params.id);
  const kept: Registry | undefined = undefined;
  const registry = (globalThis as { registryLoads?: number }).registryLoads ?? 0;
  const where = new Error('here').stack!.split('\\n')[1];
  return Response.json({ word: '${word}', made: { ...made, registry, kept }, where, dir: import.meta.dirname });
}
`;

function strippedApp(): Record<string, string> {
  return {
    'package.json': JSON.stringify({ type: 'module' }),
    'tsconfig.json': '{ "compilerOptions": { "strict": true, "module": "nodenext" } }\n',
    'app/_lib/label.ts': `const Tone = { Plain: 'plain' } as const;
(globalThis as { labelLoads?: number }).labelLoads = ((globalThis as { labelLoads?: number }).labelLoads ?? 0) + 1;
export interface Label { text: string; tone: string }
export function label(text: string): Label {
  return { text, tone: Tone.Plain };
}
`,
    'app/_lib/registry.ts':
      '(globalThis as { registryLoads?: number }).registryLoads = 1;\nexport class Registry {}\n',
    'app/items/[id]/endpoint.ts': strippedEndpoint('one'),
    'app/other/[id]/endpoint.ts': strippedEndpoint('two'),
    'app/kinds/endpoint.ts': `export enum Kind { Plain = 'plain' }
export function GET(): Response {
  return Response.json({ word: 'kinds', made: Kind.Plain });
}
`,
  };
}

interface Outcome {
  responses?: Array<{ status: number; body: { word: string; made: unknown; where: string; dir: string } }>;
  labelLoads?: number;
  tsxLoaded?: boolean;
  r1Loads?: number;
  adminLoads?: number;
  requiredGet?: string;
  afterEdits?: Outcome['responses'];
  reloaded?: string[][];
  crash?: string;
}

async function start(
  dir: string,
  paths = ['/items/a', '/other/b'],
  extra: NodeJS.ProcessEnv = {},
): Promise<Outcome> {
  const env = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  const { stdout } = await run(process.execPath, [script, builtEntry, dir, ...paths], {
    cwd: dir,
    env,
    timeout: 20_000,
    killSignal: 'SIGKILL',
  });
  const outcome = JSON.parse(stdout.trim().split('\n').pop()!) as Outcome;
  if (outcome.crash) throw new Error(outcome.crash);
  return outcome;
}

function cacheFile(dir: string): string | undefined {
  const folder = path.join(dir, 'node_modules/.cache/express-file-endpoints');
  if (!existsSync(folder)) return undefined;
  const name = readdirSync(folder).find((file) => /^typescript-.*\.json$/.test(file));
  return name && path.join(folder, name);
}

/** Rewrites every cached entry's word, so a start that serves the cache says so. */
function poison(dir: string): void {
  const file = cacheFile(dir)!;
  const entries = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  for (const key of Object.keys(entries)) entries[key] = entries[key]!.replace(/"(one|two)"/, '"cached-$1"');
  writeFileSync(file, JSON.stringify(entries));
}

describe('integration: TypeScript route files compiled ahead, kept in node_modules/.cache', function () {
  this.timeout(90_000);
  before(async function () {
    this.timeout(120_000);
    await ensureBuilt();
  });
  after(removeApps);

  for (const type of ['commonjs', 'module'] as const) {
    describe(`"type": "${type}"`, () => {
      it('loads an enum, extensionless imports and import type; one instance of the shared module; .ts lines', async () => {
        const dir = writeApp(app(type), { tsx: true });
        const outcome = await start(dir);
        expect(outcome.responses!.map((r) => [r.status, r.body.word, r.body.made])).to.deep.equal([
          [200, 'one', { text: 'a', tone: 'plain' }],
          [200, 'two', { text: 'b', tone: 'plain' }],
        ]);
        // The endpoints and the app's own import ran the module once.
        expect(outcome.labelLoads).to.equal(1);
        // The source file's own line and folder, not the compiled code's.
        expect(outcome.responses![0]!.body.where).to.match(/items\/\[id\]\/endpoint\.ts:6:\d+\)?$/);
        expect(outcome.responses![0]!.body.dir).to.equal(path.join(dir, 'app/items/[id]'));
      });

      it('serves the cache on the next start, recompiles a changed file, and all of them on a tsconfig change', async function () {
        // On Node 22, tsx's module hooks run off the main thread: route files load through tsx as before,
        // which the test above covers, and there is no cache to serve.
        if (Number(process.versions.node.split('.')[0]) < 24) this.skip();
        const dir = writeApp(app(type), { tsx: true });
        await start(dir);
        expect(cacheFile(dir), 'the cache file').to.be.a('string');
        poison(dir);
        const words = async () => (await start(dir)).responses!.map((r) => r.body.word);
        expect(await words()).to.deep.equal(['cached-one', 'cached-two']);
        writeFileSync(path.join(dir, 'app/items/[id]/endpoint.ts'), endpoint('changed'));
        expect(await words()).to.deep.equal(['changed', 'cached-two']);
        poison(dir);
        writeFileSync(
          path.join(dir, 'tsconfig.json'),
          '{ "compilerOptions": { "strict": false, "baseUrl": ".", "paths": { "@lib/*": ["app/_lib/*"] } } }\n',
        );
        expect(await words()).to.deep.equal(['changed', 'two']);
      });

      it('compiles in memory where the cache cannot be written', async () => {
        const dir = writeApp(app(type), { tsx: true });
        // A file where the cache folder would be: nothing can be made under it.
        writeFileSync(path.join(dir, 'node_modules/.cache'), 'not a folder\n');
        const first = await start(dir);
        const second = await start(dir);
        expect(first.responses!.map((r) => r.body.word)).to.deep.equal(['one', 'two']);
        expect(second).to.deep.equal(first);
        rmSync(path.join(dir, 'node_modules/.cache'));
      });
    });
  }

  for (const type of ['module', 'commonjs'] as const)
    describe(`a tree of many route files, "type": "${type}": bundles of them (src/load/route-bundle.ts)`, () => {
      /**
       * 24 endpoints as `endpoint()` writes them but without __dirname, one that hands PUT to another, one that
       * throws; r1 counts its loads.
       */
      function manyRoutes(options: { throws?: boolean } = {}): Record<string, string> {
        const files: Record<string, string> = {
          'package.json': JSON.stringify({ type }),
          // A `paths` alias, which must stay an import (resolved by tsx), not a copy of the module in the bundle.
          'tsconfig.json':
            '{ "compilerOptions": { "strict": true, "baseUrl": ".", "paths": { "@lib/*": ["app/_lib/*"] } } }\n',
          'app/_lib/label.ts': label,
        };
        for (let i = 0; i < 24; i++) {
          files[`app/r${i}/[id]/endpoint.ts`] = endpoint(`r${i}`)
            .replace("dir: typeof __dirname === 'string' ? __dirname : import.meta.dirname", "dir: ''")
            .replace(i === 5 ? /'\.\.\/\.\.\/_lib\/label'/g : /^$/, "'@lib/label'");
        }
        files['app/r1/[id]/endpoint.ts'] +=
          '(globalThis as { r1Loads?: number }).r1Loads = ((globalThis as { r1Loads?: number }).r1Loads ?? 0) + 1;\n';
        // A route file that imports another: the one the loader gives the tree, not a second instance.
        files['app/r0/forward/endpoint.ts'] = `import { GET as byId } from '../[id]/endpoint';
(globalThis as { forwardLoads?: number }).forwardLoads = 1;
export function GET(request: Request): Response {
  return byId(request, { params: { id: 'forward' } });
}
`;
        if (options.throws)
          files['app/broken/endpoint.ts'] = "throw new Error('broken at load');\nexport function GET() {}\n";
        return files;
      }
      const paths = ['/r0/a', '/r23/b', '/r0/forward', '/r5/c'];

      it('a folder of the tree mounted as a tree of its own too: its files keep the modules the first mount loaded', async function () {
        if (Number(process.versions.node.split('.')[0]) < 24) this.skip();
        const files = manyRoutes();
        for (let i = 0; i < 24; i++)
          files[`app/admin/a${i}/[id]/endpoint.ts`] = files[`app/r${i}/[id]/endpoint.ts`]!.replace(
            /word: 'r\d+'/,
            `word: 'a${i}'`,
          )
            .replaceAll("'../../_lib/label'", "'../../../_lib/label'")
            .concat(
              '(globalThis as { adminLoads?: number }).adminLoads = ((globalThis as { adminLoads?: number }).adminLoads ?? 0) + 1;\n',
            );
        const dir = writeApp(files, { tsx: true });
        const outcome = await start(dir, ['/admin/a3/x'], { COMPILED_APP_ALSO: 'admin:/a3/y' });
        expect(outcome.responses!.map((r) => [r.status, r.body.word, r.body.made])).to.deep.equal([
          [200, 'a3', { text: 'x', tone: 'plain' }],
          [200, 'a3', { text: 'y', tone: 'plain' }],
        ]);
        expect(outcome.adminLoads, 'each of the 24 modules of the folder ran once').to.equal(24);
      });

      it('bundles the TypeScript that needs compiling: an enum, a namespace, a parameter property, a decorator, JSON and folder imports', async function () {
        if (Number(process.versions.node.split('.')[0]) < 24) this.skip();
        const dir = writeApp(
          {
            ...manyRoutes(),
            'app/_lib/words.json': '{ "word": "from json" }\n',
            'app/_lib/folder/index.ts': "export const folder: string = 'from a folder';\n",
            'app/r2/[id]/endpoint.ts': `import words from '../../_lib/words.json';
import { folder } from '../../_lib/folder';

enum Tone { Loud = 'loud' }
namespace Greeting {
  export const hello = 'hello';
}
function tagged(value: unknown, context: ClassDecoratorContext): void {
  void value;
  (globalThis as { decorated?: string }).decorated = String(context.name);
}
@tagged
class Store {
  constructor(private readonly name: string) {}
  get label(): string {
    return this.name;
  }
}

export function GET(): Response {
  const made = [words.word, folder, Tone.Loud, Greeting.hello, new Store('store').label];
  return Response.json({ word: 'r2', made, where: '', dir: (globalThis as { decorated?: string }).decorated });
}
`,
          },
          { tsx: true },
        );
        const outcome = await start(dir, ['/r2/a', '/r3/b']);
        expect(outcome.responses!.map((r) => [r.status, r.body.word, r.body.made, r.body.dir])).to.deep.equal(
          [
            [200, 'r2', ['from json', 'from a folder', 'loud', 'hello', 'store'], 'Store'],
            [200, 'r3', { text: 'b', tone: 'plain' }, ''],
          ],
        );
        // One bundle of the 23 others, r2 among them, and the two that import each other, each on its own.
        const entries = Object.values(
          JSON.parse(readFileSync(cacheFile(dir)!, 'utf8')) as Record<string, string>,
        );
        expect(entries).to.have.length(3);
        expect(entries.filter((code) => code.includes('from a folder'))).to.have.length(0);
        expect(
          entries.filter((code) => /word: "r2"[^]*word: "r3"|word: "r3"[^]*word: "r2"/.test(code)),
        ).to.have.length(1);
      });

      it('loads from the bundle: .ts lines, one instance of the shared module, the cache served on the next start', async function () {
        if (Number(process.versions.node.split('.')[0]) < 24) this.skip();
        const dir = writeApp(manyRoutes(), { tsx: true });
        const first = await start(dir, paths);
        expect(first.responses!.map((r) => [r.status, r.body.word, r.body.made])).to.deep.equal([
          [200, 'r0', { text: 'a', tone: 'plain' }],
          [200, 'r23', { text: 'b', tone: 'plain' }],
          [200, 'r0', { text: 'forward', tone: 'plain' }],
          [200, 'r5', { text: 'c', tone: 'plain' }],
        ]);
        expect(first.labelLoads).to.equal(1);
        expect(first.responses![1]!.body.where).to.match(/r23\/\[id\]\/endpoint\.ts:6:\d+\)?$/);
        // One bundle of the 23 others, and the two that import each other, each on its own.
        const file = cacheFile(dir)!;
        const entries = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
        expect(Object.keys(entries).length).to.equal(3);
        expect(
          Object.values(entries).filter((code) => /word: "r1"[^]*word: "r23"/.test(code)),
        ).to.have.length(1);
        const poisoned = Object.entries(entries).map(([key, code]) => [
          key,
          code.replace(/word: "(r\d+)"/g, 'word: "cached-$1"'),
        ]);
        writeFileSync(file, JSON.stringify(Object.fromEntries(poisoned)));
        const second = await start(dir, paths);
        expect(second.responses!.map((r) => r.body.word)).to.deep.equal([
          'cached-r0',
          'cached-r23',
          'cached-r0',
          'cached-r5',
        ]);
        // A file changed: its bundle is made again, with it; the files on their own are still the cache's.
        writeFileSync(
          path.join(dir, 'app/r23/[id]/endpoint.ts'),
          endpoint('changed').replace(/dir: .*\)? \}\);/, "dir: '' });"),
        );
        const third = await start(dir, [...paths, '/r1/c']);
        expect(third.responses!.map((r) => r.body.word)).to.deep.equal([
          'cached-r0',
          'changed',
          'cached-r0',
          'r5',
          'r1',
        ]);
      });

      if (type === 'commonjs') {
        it('an app that requires an endpoint file itself gets the module the mount loaded from the bundle', async function () {
          if (Number(process.versions.node.split('.')[0]) < 24) this.skip();
          const dir = writeApp(manyRoutes(), { tsx: true });
          for (let start_ = 0; start_ < 2; start_++) {
            const outcome = await start(dir, ['/r1/a'], { COMPILED_APP_REQUIRE: 'r1/[id]/endpoint.ts' });
            expect(outcome.responses!.map((r) => r.body.word)).to.deep.equal(['r1']);
            expect(
              [outcome.requiredGet, outcome.r1Loads],
              'its GET, and how many times it ran',
            ).to.deep.equal(['function', 1]);
          }
        });

        it('files a bundle cannot hold (top-level await, `export =`) are left out of it, and load on their own', async function () {
          if (Number(process.versions.node.split('.')[0]) < 24) this.skip();
          const dir = writeApp(
            {
              ...manyRoutes(),
              'app/waits/endpoint.ts':
                "await Promise.resolve();\nexport function GET(): Response {\n  return Response.json({ word: 'waits' });\n}\n",
              'app/legacy/endpoint.ts':
                "function GET(): Response {\n  return Response.json({ word: 'legacy' });\n}\nexport = { GET };\n",
            },
            { tsx: true },
          );
          const words = async () =>
            (await start(dir, ['/r0/a', '/r23/b', '/waits', '/legacy'])).responses!.map((r) => [
              r.status,
              r.body.word,
            ]);
          const expected = [
            [200, 'r0'],
            [200, 'r23'],
            [200, 'waits'],
            [200, 'legacy'],
          ];
          expect(await words()).to.deep.equal(expected);
          const cached = () => JSON.parse(readFileSync(cacheFile(dir)!, 'utf8')) as Record<string, string>;
          const entries = Object.values(cached());
          const bundles = entries.filter((code) => code.includes('word: "r23"'));
          expect(bundles, 'one bundle').to.have.length(1);
          expect(bundles[0]).to.match(/^\/\/ left out: \d+ \d+\n/);
          expect(bundles[0]).not.to.match(/word: "(waits|legacy)"/);
          // The bundle, r0 and the file that forwards to it, and `export =` compiled on its own (esbuild turns
          // down top-level await in CommonJS, and tsx loads that file as an ES module).
          expect(entries).to.have.length(4);
          const keys = Object.keys(cached()).sort();
          expect(await words(), 'from the cache').to.deep.equal(expected);
          expect(Object.keys(cached()).sort()).to.deep.equal(keys);
        });
      }

      it('in development mode: loads from the bundles; a save reloads the changed file, and a changed module its importers, each on its own', async function () {
        if (Number(process.versions.node.split('.')[0]) < 24) this.skip();
        const dir = writeApp(manyRoutes(), { tsx: true });
        const outcome = await start(dir, ['/r0/a', '/r23/b', '/r5/c', '/r1/d'], {
          COMPILED_APP_DEV: '1',
          COMPILED_APP_EDITS: JSON.stringify([
            ['r23/[id]/endpoint.ts', endpoint('changed').replace(/dir: .*\)? \}\);/, "dir: '' });")],
            ['_lib/label.ts', label.replace("Plain = 'plain'", "Plain = 'loud'")],
          ]),
        });
        expect(outcome.responses!.map((r) => [r.status, r.body.word])).to.deep.equal([
          [200, 'r0'],
          [200, 'r23'],
          [200, 'r5'],
          [200, 'r1'],
        ]);
        const entries = Object.values(
          JSON.parse(readFileSync(cacheFile(dir)!, 'utf8')) as Record<string, string>,
        );
        expect(
          entries.filter((code) => /word: "r1"[^]*word: "r23"/.test(code)),
          'the bundle the start loaded',
        ).to.have.length(1);
        // The first build reports too, having reloaded nothing.
        const [first, own, importers] = outcome.reloaded!;
        expect(first).to.deep.equal([]);
        expect(own).to.deep.equal(['r23/[id]/endpoint.ts']);
        expect(importers).to.include.members([
          '_lib/label.ts',
          'r1/[id]/endpoint.ts',
          'r0/forward/endpoint.ts',
        ]);
        // r5 imports the module through a tsconfig `paths` alias, which only what require() recorded resolves: the
        // bundle's record stands for each of its files.
        if (type === 'commonjs') expect(importers).to.include('r5/[id]/endpoint.ts');
        const after = outcome.afterEdits!.map((r) => [
          r.status,
          r.body.word,
          (r.body.made as { tone: string }).tone,
        ]);
        expect(after.filter((_, i) => type === 'commonjs' || i !== 2)).to.deep.equal(
          [
            [200, 'r0', 'loud'],
            [200, 'changed', 'loud'],
            [200, 'r5', 'loud'],
            [200, 'r1', 'loud'],
          ].filter((_, i) => type === 'commonjs' || i !== 2),
        );
        // r1 ran twice: at the start, from its bundle, and once reloaded on its own.
        expect(outcome.r1Loads).to.equal(2);
      });

      it('in development mode, a save while the tsconfig cannot be read reloads the file all the same', async function () {
        if (Number(process.versions.node.split('.')[0]) < 24) this.skip();
        const dir = writeApp(manyRoutes(), { tsx: true });
        const outcome = await start(dir, ['/r1/a', '/r2/b'], {
          COMPILED_APP_DEV: '1',
          COMPILED_APP_EDITS: JSON.stringify([
            ['../tsconfig.json', '{ "compilerOptions": ', false],
            ['r1/[id]/endpoint.ts', endpoint('changed').replace(/dir: .*\)? \}\);/, "dir: '' });")],
          ]),
        });
        expect(outcome.responses!.map((r) => r.body.word)).to.deep.equal(['r1', 'r2']);
        expect(outcome.afterEdits!.map((r) => [r.status, r.body.word])).to.deep.equal([
          [200, 'changed'],
          [200, 'r2'],
        ]);
      });

      it('a route file with a syntax error fails under its own name and line; the others load', async function () {
        if (Number(process.versions.node.split('.')[0]) < 24) this.skip();
        const dir = writeApp(
          {
            ...manyRoutes(),
            'app/broken/endpoint.ts': 'export function GET(): Response {\n  return (;\n}\n',
          },
          { tsx: true },
        );
        const outcome = await start(dir, paths).catch((error: Error) => ({ crash: error.message }));
        expect(outcome.crash).to.match(/broken[\\/]+endpoint\.ts/);
        expect(outcome.crash).to.match(/endpoint\.ts:2:\d+/);
        // Only that file failed: the mount names no other.
        expect(outcome.crash!.match(/failed to load/g)).to.have.length(1);
      });

      it('a route file that throws as it loads: each file loads on its own, and that one fails under its own name', async function () {
        if (Number(process.versions.node.split('.')[0]) < 24) this.skip();
        const dir = writeApp(manyRoutes({ throws: true }), { tsx: true });
        const outcome = await start(dir, paths).catch((error: Error) => ({ crash: error.message }));
        expect(JSON.stringify(outcome)).to.match(/broken[\\/]+endpoint\.ts/);
        expect(JSON.stringify(outcome)).to.include('broken at load');
      });
    });

  describe('an ES module tree Node strips whole, without tsx', () => {
    const paths = ['/items/a', '/other/b', '/kinds'];

    it('is compiled into the cache with every import kept, its .ts lines, one instance, and tsx not loaded', async function () {
      if (!stripsFirst) this.skip();
      const dir = writeApp(strippedApp(), { tsx: true });
      const first = await start(dir, paths);
      expect(first.responses!.map((r) => [r.status, r.body.word, r.body.made])).to.deep.equal([
        [200, 'one', { text: 'a', tone: 'plain', registry: 1 }],
        [200, 'two', { text: 'b', tone: 'plain', registry: 1 }],
        [200, 'kinds', 'plain'],
      ]);
      expect(first.labelLoads).to.equal(1);
      expect(first.tsxLoaded).to.equal(false);
      expect(first.responses![0]!.body.where, first.responses![0]!.body.where).to.match(
        /items\/\[id\]\/endpoint\.ts:9:\d+\)?$/,
      );
      expect(cacheFile(dir), 'the cache file').to.be.a('string');
      poison(dir);
      const second = await start(dir, paths);
      expect(second.responses!.map((r) => r.body.word)).to.deep.equal(['cached-one', 'cached-two', 'kinds']);
      expect(second.tsxLoaded).to.equal(false);
    });

    it('imports a module through a symlinked folder as the real file the app imports: one instance', async function () {
      if (!stripsFirst) this.skip();
      const files = strippedApp();
      const shared = Object.fromEntries(
        Object.entries(files).map(([name, text]) => [name.replace(/^app\/_lib\//, 'shared/'), text]),
      );
      const dir = writeApp(shared, { tsx: true });
      symlinkSync(path.join(dir, 'shared'), path.join(dir, 'app/_lib'), 'dir');
      const outcome = await start(dir, paths);
      expect(outcome.responses!.map((r) => r.status)).to.deep.equal([200, 200, 200]);
      // The endpoints' import and the app's own, through the link, ran the module once.
      expect(outcome.labelLoads).to.equal(1);
    });
  });
});
