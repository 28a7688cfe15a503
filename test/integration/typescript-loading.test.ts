/**
 * Endpoint files load in a fresh Node process the way users start their apps:
 *   - plain `node` on the built package: `.ts` endpoints through tsx's loader, registered by the
 *     library because tsx is installed; `.js` trees (CommonJS and ESM) with no loader at all;
 *   - plain `node` where tsx cannot be found: a clear error saying how to fix it;
 *   - `node --import tsx` on the sources: the process already handles `.ts`.
 * Each case spawns `test/fixtures/ts-load/serve-once.cjs`, which serves one request and exits.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';

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

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function isBuildFresh(): boolean {
  try {
    return statSync(builtEntry).mtimeMs >= newestMtime(path.join(root, 'src'));
  } catch {
    return false;
  }
}

describe('integration: loading endpoint files', function () {
  this.timeout(60_000);

  describe('plain node, built package', () => {
    before(async function () {
      if (isBuildFresh()) return;
      this.timeout(120_000);
      await run('npm', ['run', 'build'], { cwd: root, timeout: 110_000 });
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

    it('says how to fix it when tsx cannot be found', async () => {
      // A working directory with no node_modules above it: tsx is resolved from process.cwd().
      const elsewhere = mkdtempSync(path.join(tmpdir(), 'ee-no-tsx-'));
      try {
        const outcome = await serveOnce({
          entry: builtEntry,
          dir: path.join(fixtures, 'ts-tree'),
          url: '/greet/Ada',
          cwd: elsewhere,
        });
        expect(outcome.error).to.be.a('string');
        expect(outcome.error).to.include('greet/[name]/endpoint.ts');
        expect(outcome.error).to.include('npm install -D tsx');
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
  });
});
