/**
 * Endpoint files load in a fresh Node process the way users start their apps:
 *   - plain `node` on the built package: `.ts` endpoints through tsx's loader, registered by the
 *     library because tsx is installed; `.js` trees (CommonJS and ESM) with no loader at all;
 *   - tsx is looked up from the endpoint folder, so a process started elsewhere finds it;
 *   - plain `node` where tsx cannot be found: a clear error saying how to fix it;
 *   - `node --import tsx`: the process already handles `.ts`, and registering tsx again is harmless.
 * Each case spawns `test/fixtures/ts-load/serve-once.cjs`, which serves one request and exits.
 * module-systems.test.ts covers CommonJS and ES module packages, .mts/.cts and top-level await.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { ensureBuilt, nodeStripsTypes } from './loading-apps';

const run = promisify(execFile);
const root = path.join(__dirname, '../..');
const fixtures = path.join(root, 'test/fixtures/ts-load');
const script = path.join(fixtures, 'serve-once.cjs');
const builtEntry = path.join(root, 'dist/index.js');
const sourceEntry = path.join(root, 'src/index.ts');

interface Outcome {
  status?: number;
  body?: unknown;
  error?: string;
  execArgv: string[];
}

/** Runs serve-once.cjs in a child process that is killed if it outlives `timeout`. */
async function serveOnce(options: {
  nodeArgs?: string[];
  entry: string;
  dir: string;
  url: string;
  cwd?: string;
}): Promise<Outcome> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS; // no loader may sneak in through the environment
  const { stdout } = await run(
    process.execPath,
    [...(options.nodeArgs ?? []), script, options.entry, options.dir, options.url],
    { cwd: options.cwd ?? root, env, timeout: 15_000, killSignal: 'SIGKILL' },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as Outcome;
}

describe('integration: loading endpoint files', function () {
  this.timeout(60_000);

  describe('plain node, built package', () => {
    before(async function () {
      this.timeout(120_000);
      await ensureBuilt();
    });

    it('loads TypeScript endpoints (and their .ts imports) through tsx when it is installed', async () => {
      const outcome = await serveOnce({
        entry: builtEntry,
        dir: path.join(fixtures, 'ts-tree'),
        url: '/greet/Ada',
      });
      expect(outcome).to.deep.equal({
        status: 200,
        body: { text: 'Hello, Ada!', via: 'typescript' },
        execArgv: [],
      });
    });

    it('loads TypeScript in an ES module package (and .mts anywhere) through tsx ESM hooks', async () => {
      const dir = path.join(fixtures, 'esm-ts-tree');
      const ts = await serveOnce({ entry: builtEntry, dir, url: '/greet/Di' });
      expect(ts).to.deep.equal({
        status: 200,
        body: { text: 'Hello, Di!', via: 'esm-typescript' },
        execArgv: [],
      });
      const mts = await serveOnce({ entry: builtEntry, dir, url: '/mts/Ed' });
      expect(mts).to.deep.equal({
        status: 200,
        body: { text: 'Hi, Ed!', via: 'mts', meta: 'string' },
        execArgv: [],
      });
    });

    it('loads a compiled CommonJS tree without any loader', async () => {
      const outcome = await serveOnce({
        entry: builtEntry,
        dir: path.join(fixtures, 'js-tree'),
        url: '/greet/Bo',
      });
      expect(outcome).to.deep.equal({
        status: 200,
        body: { text: 'Hello, Bo!', via: 'commonjs' },
        execArgv: [],
      });
    });

    it('loads an ES module .js tree without any loader', async () => {
      const outcome = await serveOnce({
        entry: builtEntry,
        dir: path.join(fixtures, 'esm-js-tree'),
        url: '/greet/Cy',
      });
      expect(outcome).to.deep.equal({ status: 200, body: { text: 'Hello, Cy!', via: 'esm' }, execArgv: [] });
    });

    it('finds tsx from the endpoint folder when the process starts in another folder', async () => {
      for (const cwd of ['/', tmpdir()]) {
        const outcome = await serveOnce({
          entry: builtEntry,
          dir: path.join(fixtures, 'ts-tree'),
          url: '/greet/Ada',
          cwd,
        });
        expect(outcome, cwd).to.deep.include({
          status: 200,
          body: { text: 'Hello, Ada!', via: 'typescript' },
        });
      }
    });

    it('says how to fix it when tsx cannot be found', async () => {
      // A copy of ts-tree outside this repository: no node_modules above it holds tsx.
      const elsewhere = mkdtempSync(path.join(tmpdir(), 'ee-no-tsx-'));
      try {
        cpSync(path.join(fixtures, 'ts-tree'), elsewhere, { recursive: true });
        const outcome = await serveOnce({ entry: builtEntry, dir: elsewhere, url: '/greet/Ada' });
        expect(outcome.error).to.be.a('string');
        expect(outcome.error).to.match(/greet\/\[name\]\/endpoint\.ts: /);
        expect(outcome.error).to.include('npm install -D tsx');
        // Node 22.18+ strips the types itself, but cannot resolve the extensionless import.
        expect(outcome.error).to.include(
          nodeStripsTypes
            ? 'does not resolve extensionless imports'
            : 'does not load this kind of TypeScript',
        );
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    });
  });

  describe('node --import tsx, sources', () => {
    it('loads TypeScript endpoints with the loader the process already has', async () => {
      const outcome = await serveOnce({
        nodeArgs: ['--import', 'tsx'],
        entry: sourceEntry,
        dir: path.join(fixtures, 'ts-tree'),
        url: '/greet/Ada',
      });
      expect(outcome).to.deep.equal({
        status: 200,
        body: { text: 'Hello, Ada!', via: 'typescript' },
        execArgv: ['--import', 'tsx'],
      });
    });

    it('registering tsx again beside the one already running is harmless', async () => {
      await ensureBuilt();
      const dir = path.join(fixtures, 'esm-ts-tree');
      for (const [url, via] of [
        ['/greet/Di', 'esm-typescript'],
        ['/mts/Ed', 'mts'],
      ]) {
        const outcome = await serveOnce({ nodeArgs: ['--import', 'tsx'], entry: builtEntry, dir, url: url! });
        expect(outcome).to.deep.include({ status: 200 });
        expect(outcome.body).to.deep.include({ via });
      }
    });
  });
});
