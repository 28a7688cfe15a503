/**
 * Development mode end to end, on scratch copies of a tree in a CommonJS package (`.ts` through
 * tsx's require hook, reloaded by require.cache eviction) and in an ES module package (`.ts`
 * through tsx's ESM hooks, reloaded under versioned URLs): edits, imported modules, added and
 * removed folders, broken and fixed files, an invalid tree, and a stream that outlives a reload.
 */
import { renameSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { listen } from '../support/net';
import { get, problemsOf, scratchTree, until, type PackageType, type ScratchTree } from './scratch-tree';

const files = {
  '_lib/message.ts': `export const message: string = 'm1';\n`,
  '_lib/counter.ts': `let n = 0;\nexport function next(): number {\n  return ++n;\n}\n`,
  'hello/endpoint.ts': `import { message } from '../_lib/message';\nexport function GET(): Response {\n  return new Response('v1 ' + message);\n}\n`,
  'count/endpoint.ts': `import { next } from '../_lib/counter';\nexport const GET = () => new Response(String(next()));\n`,
  'guarded/middleware.ts': `export default async (req: Request, next: () => Promise<Response>) => {\n  const res = await next();\n  res.headers.set('x-guard', 'g1');\n  return res;\n};\n`,
  'guarded/endpoint.ts': `export const GET = () => new Response('guarded');\n`,
};

for (const type of ['commonjs', 'module'] as PackageType[]) {
  describe(`dev mode: TypeScript in a ${type === 'module' ? 'ES module' : 'CommonJS'} package`, function () {
    this.timeout(20_000);
    let tree: ScratchTree;
    beforeEach(() => {
      tree = scratchTree(type, files);
    });
    afterEach(() => tree.cleanUp());

    it('runs an edited handler on the next request, within a second, with no restart', async () => {
      const endpoints = tree.mount();
      expect(await get(endpoints, '/hello')).to.deep.equal({ status: 200, text: 'v1 m1' });
      tree.write('hello/endpoint.ts', files['hello/endpoint.ts'].replace('v1', 'v2'));
      const took = await until(async () => (await get(endpoints, '/hello')).text === 'v2 m1');
      expect(took).to.be.below(1000);
      expect(tree.reloads.at(-1)!.reloaded).to.have.length(1);
    });

    it('hears saves that replace the file (temp file, then rename), save after save', async () => {
      const endpoints = tree.mount();
      await endpoints.ready;
      for (const version of ['r1', 'r2', 'r3']) {
        tree.write('hello/.endpoint.ts.swp', files['hello/endpoint.ts'].replace('v1', version));
        renameSync(path.join(tree.app, 'hello/.endpoint.ts.swp'), path.join(tree.app, 'hello/endpoint.ts'));
        await until(async () => (await get(endpoints, '/hello')).text === `${version} m1`);
      }
    });

    it('reloads an edited _lib module and its importers only: other modules keep their state', async () => {
      const endpoints = tree.mount();
      expect((await get(endpoints, '/count')).text).to.equal('1');
      expect((await get(endpoints, '/count')).text).to.equal('2');
      tree.write('_lib/message.ts', `export const message: string = 'm2';\n`);
      await until(async () => (await get(endpoints, '/hello')).text === 'v1 m2');
      const reloaded = tree.reloads.at(-1)!.reloaded.map((file) => file.replace(/^.*\/app\//, ''));
      expect(reloaded.sort()).to.deep.equal(['_lib/message.ts', 'hello/endpoint.ts']);
      // counter.ts was not reloaded: its module-level state carries on.
      expect((await get(endpoints, '/count')).text).to.equal('3');
    });

    it('reloads an edited folder middleware', async () => {
      const endpoints = tree.mount();
      const guard = async () =>
        (await endpoints.fetch(new Request('http://localhost/guarded'))).headers.get('x-guard');
      expect(await guard()).to.equal('g1');
      tree.write('guarded/middleware.ts', files['guarded/middleware.ts'].replace('g1', 'g2'));
      await until(async () => (await guard()) === 'g2');
    });

    it('serves an added endpoint folder, and stops serving a removed one', async () => {
      const endpoints = tree.mount();
      await endpoints.ready;
      expect((await get(endpoints, '/added/7')).status).to.equal(404);
      tree.write(
        'added/[id]/endpoint.ts',
        `export const GET = (_req: Request, { params }: { params: { id: string } }) => Response.json(params);\n`,
      );
      await until(async () => (await get(endpoints, '/added/7')).status === 200);
      expect(JSON.parse((await get(endpoints, '/added/7')).text)).to.deep.equal({ id: '7' });
      expect(endpoints.routes.map((route) => route.pattern)).to.include('/added/[id]');
      tree.remove('added');
      await until(async () => (await get(endpoints, '/added/7')).status === 404);
      expect(endpoints.routes.map((route) => route.pattern)).not.to.include('/added/[id]');
      expect((await get(endpoints, '/hello')).status).to.equal(200);
    });

    it('answers a broken file with the error page (file:line:column), prints it once, and recovers when fixed', async () => {
      const endpoints = tree.mount();
      await endpoints.ready;
      tree.write('hello/endpoint.ts', `export function GET(): Response {\n  return new Response('v3' ;\n}\n`);
      await until(async () => (await get(endpoints, '/hello')).status === 500);
      const [problem, ...more] = problemsOf((await get(endpoints, '/hello')).text);
      expect(more).to.deep.equal([]);
      expect(problem!.code).to.equal('syntax-error');
      expect(problem!.location).to.match(/app\/hello\/endpoint\.ts:2:28$/);
      // tsx's own text, quoted in the message, counts columns as the location does (from 1, as editors do).
      expect(problem!.message).to.include('hello/endpoint.ts:2:28: ERROR').and.not.include(':2:27:');
      expect(problem!.files[0]).to.match(/app\/hello\/endpoint\.ts$/);
      // Only the broken route is affected.
      expect((await get(endpoints, '/count')).status).to.equal(200);
      // Printed once for the change, not once per request.
      await get(endpoints, '/hello');
      expect(tree.logged.filter((line) => line.includes('hello/endpoint.ts'))).to.have.length(1);
      expect(tree.logged.at(-1)).to.match(
        /1 problem; the affected routes answer with an error page until fixed/,
      );

      tree.write('hello/endpoint.ts', files['hello/endpoint.ts'].replace('v1', 'v4'));
      await until(async () => (await get(endpoints, '/hello')).text === 'v4 m1');
      expect(tree.infos.at(-1)).to.match(
        /^express-file-endpoints \(dev\): fixed; reloaded 1 module in \d+ ms$/,
      );
    });

    it('a SyntaxError thrown while a module runs is a load error where it was thrown, not a syntax error', async () => {
      const endpoints = tree.mount();
      await endpoints.ready;
      tree.write('_lib/message.ts', `export const message: string = JSON.parse('{bad');\n`);
      await until(async () => (await get(endpoints, '/hello')).status === 500);
      const [problem] = problemsOf((await get(endpoints, '/hello')).text);
      expect(problem!.code).to.equal('load-error');
      expect(problem!.location).to.match(/app\/_lib\/message\.ts:1:\d+$/);
      expect(problem!.message)
        .to.include('top-level code threw it')
        .and.not.include('express-file-endpoints check');
    });

    it('shows a module that throws while loading, escaped, on an HTML page for browsers', async () => {
      const endpoints = tree.mount();
      await endpoints.ready;
      tree.write(
        '_lib/message.ts',
        `export const message = 'm';\nthrow new Error('<script>alert(1)</script>');\n`,
      );
      await until(async () => (await get(endpoints, '/hello')).status === 500);
      const page = await endpoints.fetch(
        new Request('http://localhost/hello', { headers: { accept: 'text/html,application/xhtml+xml' } }),
      );
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      const html = await page.text();
      expect(html).not.to.include('<script>alert');
      expect(html).to.include('&#60;script&#62;alert(1)&#60;/script&#62;');
      expect(html).to.match(/app\/_lib\/message\.ts:2:7/);
      tree.write('_lib/message.ts', `export const message: string = 'm3';\n`);
      await until(async () => (await get(endpoints, '/hello')).text === 'v1 m3');
    });

    it('answers every route with the error page while the tree is invalid, and recovers', async () => {
      const endpoints = tree.mount();
      await endpoints.ready;
      tree.write('[a]/endpoint.ts', `export const GET = () => new Response('a');\n`);
      tree.write('[b]/endpoint.ts', `export const GET = () => new Response('b');\n`);
      await until(async () => (await get(endpoints, '/hello')).status === 500);
      const codes = problemsOf((await get(endpoints, '/count')).text).map((p) => p.code);
      expect(codes).to.include('duplicate-route');
      expect((await get(endpoints, '/no/such/route')).status).to.equal(404);
      // Not "the affected routes": while the tree is invalid, every route of it answers with the error page.
      expect(tree.logged.at(-1)).to.match(
        /problems; every route answers with an error page until fixed:\n {2}duplicate-route/,
      );
      tree.remove('[b]');
      await until(async () => (await get(endpoints, '/hello')).status === 200);
      expect((await get(endpoints, '/anything')).text).to.equal('a');
      // Removing a file reloads no module, and the fix is still said.
      await until(async () => tree.infos.length > 0);
      expect(tree.infos.at(-1)).to.match(/^express-file-endpoints \(dev\): fixed\b/);
    });

    it('lets a streaming response in flight finish on the code it started with', async () => {
      tree.write(
        'stream/endpoint.ts',
        `const release = globalThis as { eeRelease?: () => void };
export function GET(): Response {
  const body = new ReadableStream<string>({
    async start(controller) {
      controller.enqueue('old-start;');
      await new Promise<void>((resolve) => (release.eeRelease = resolve));
      controller.enqueue('old-end');
      controller.close();
    },
  });
  return new Response(body.pipeThrough(new TextEncoderStream()));
}
`,
      );
      const endpoints = tree.mount();
      const server = await listen(http.createServer(endpoints));
      try {
        const streaming = await fetch(`${server.url}/stream`);
        const reader = streaming.body!.getReader();
        const decoder = new TextDecoder();
        expect(decoder.decode((await reader.read()).value)).to.equal('old-start;');

        const before = tree.reloads.length;
        tree.write('stream/endpoint.ts', `export const GET = () => new Response('new');\n`);
        // Not polled with requests: the old code would open another stream waiting for release.
        await until(async () => tree.reloads.length > before);
        expect(await (await fetch(`${server.url}/stream`)).text()).to.equal('new');
        (globalThis as { eeRelease?: () => void }).eeRelease!();
        let rest = '';
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          rest += decoder.decode(chunk.value);
        }
        expect(rest).to.equal('old-end');
      } finally {
        await server.close();
      }
    });
  });
}

describe('dev mode: plain JavaScript ES modules', function () {
  this.timeout(20_000);
  let tree: ScratchTree;
  beforeEach(() => {
    tree = scratchTree('module', {
      'lib.js': `export const word = 'one';\n`,
      'js/endpoint.js': `import { word } from '../lib.js';\nexport const GET = () => new Response(word);\n`,
    });
  });
  afterEach(() => tree.cleanUp());

  it('reloads an edited import, and locates a syntax error with node --check', async () => {
    const endpoints = tree.mount();
    expect((await get(endpoints, '/js')).text).to.equal('one');
    tree.write('lib.js', `export const word = 'two';\n`);
    await until(async () => (await get(endpoints, '/js')).text === 'two');
    tree.write('js/endpoint.js', `export const GET = () => {\n  return new Response('x';\n};\n`);
    await until(async () => (await get(endpoints, '/js')).status === 500);
    const [problem] = problemsOf((await get(endpoints, '/js')).text);
    expect(problem!.code).to.equal('syntax-error');
    expect(problem!.location).to.match(/app\/js\/endpoint\.js:2:\d+$/);
    tree.write(
      'js/endpoint.js',
      `import { word } from '../lib.js';\nexport const GET = () => new Response(word + '!');\n`,
    );
    await until(async () => (await get(endpoints, '/js')).text === 'two!');
  });
});
