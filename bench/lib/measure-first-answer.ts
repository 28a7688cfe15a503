/**
 * Scenario (e), from process start to the first answered request: a bare Express app with
 * one route (the baseline), the 1,000-endpoint TypeScript tree (ES module package) mounted from a build, the
 * same app bundled into one file, and the tree mounted without a build, with tsx installed (cold: an empty
 * transform cache; the library strips what it can and registers tsx only for a file that needs it, which no
 * file of this tree does) and without (the tree copied where no tsx can be found). Each measurement is
 * a fresh process (bench/first-answer.ts, bundled); the driver notes the wall clock when it starts the process,
 * the process prints the wall clock of its first answer.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { buildEndpoints } from '../../src/build';
import { BUILD } from './build';
import { log } from './measure-throughput';
import { FIRST_ANSWER } from '../scenarios';
import { ROOT, childEnv } from './processes';
import { describeMachine, type FirstAnswerRun } from './results';
import { fmtMs, median } from './stats';
import { BENCH_DIR, SCRATCH, treeDir } from './trees';

function firstAnswer(args: string[], env: Record<string, string> = {}, cwd = ROOT): number {
  const started = Date.now();
  const result = spawnSync(process.execPath, args, { cwd, env: childEnv(env), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`first answer (${args.join(' ')}) failed:\n${result.stderr}`);
  const { answered } = JSON.parse(result.stdout.trim().split('\n').pop()!) as { answered: number };
  return answered - started;
}

/** The app of bench/first-answer.ts with the build's manifest imported, bundled whole into one file. */
async function bundleApp(buildDir: string, out: string): Promise<string> {
  mkdirSync(out, { recursive: true });
  const entry = path.join(out, 'app.ts');
  const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
  writeFileSync(
    entry,
    [
      "import express from 'express';",
      `import { mountEndpoints } from ${JSON.stringify(path.join(ROOT, 'src/index.ts'))};`,
      `import { answerOnce } from ${JSON.stringify(path.join(BENCH_DIR, 'lib/first-answer-app.ts'))};`,
      `import manifest from ${JSON.stringify(path.join(buildDir, 'manifest.mjs'))};`,
      'await answerOnce(express, (app) => mountEndpoints(app, { manifest }));',
      '',
    ].join('\n'),
  );
  const outfile = path.join(out, 'app.mjs');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    nodePaths: [path.join(ROOT, 'node_modules')],
    // What the published build writes in (tsup.config.ts).
    define: { __LIBRARY_VERSION__: JSON.stringify(version) },
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
    logLevel: 'warning',
  });
  // Alone in a folder: no node_modules to fall back on.
  const alone = path.join(out, 'alone');
  mkdirSync(alone, { recursive: true });
  cpSync(outfile, path.join(alone, 'app.mjs'));
  return path.join(alone, 'app.mjs');
}

/** Runs every variant `runs` times, interleaved. */
export async function measureFirstAnswer(runs: number): Promise<FirstAnswerRun> {
  log('\n(e) process start to the first answer');
  const script = path.join(BUILD, 'first-answer.mjs');
  const tree = treeDir('many-ts');
  const buildDir = path.join(SCRATCH, 'many-ts-build');
  const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'ee-bench-first-'));
  try {
    await buildEndpoints(tree, buildDir);
    const bundle = await bundleApp(buildDir, path.join(tmpRoot, 'bundle'));
    // Where no tsx can be found from the tree, the library leaves TypeScript to Node's own stripping.
    const bare = path.join(tmpRoot, 'no-tsx', 'many-ts');
    cpSync(tree, bare, { recursive: true });
    const mount = (dir: string) => [script, JSON.stringify({ app: 'mount', dir })];
    const production = { NODE_ENV: 'production' };
    const measures: [string, (i: number) => number][] = [
      [FIRST_ANSWER.baseline, () => firstAnswer([script, JSON.stringify({ app: 'express' })])],
      [FIRST_ANSWER.build, () => firstAnswer(mount(buildDir), production)],
      [FIRST_ANSWER.buildHashed, () => firstAnswer(mount(buildDir))],
      [FIRST_ANSWER.bundle, () => firstAnswer([bundle], production, path.dirname(bundle))],
      [
        FIRST_ANSWER.tsx,
        (i) => {
          const tmp = path.join(tmpRoot, `tsx-cold-${i}`);
          mkdirSync(tmp, { recursive: true });
          return firstAnswer(mount(tree), { TMPDIR: tmp });
        },
      ],
      [FIRST_ANSWER.stripping, () => firstAnswer(mount(bare), {}, path.dirname(bare))],
    ];
    const samples = new Map<string, number[]>(measures.map(([name]) => [name, []]));
    // Interleaved: each round runs every variant once, so a busy moment of the machine hits them all alike.
    for (let i = 0; i < runs; i++) for (const [name, run] of measures) samples.get(name)!.push(run(i));
    const rows = measures.map(([variant]) => {
      const values = samples.get(variant)!;
      return { variant, runs: values, total: median(values) };
    });
    for (const row of rows)
      log(`  ${row.variant}: ${fmtMs(row.total)} ms (runs ${row.runs.map(fmtMs).join(', ')})`);
    return { date: new Date().toISOString(), machine: describeMachine(), rows };
  } finally {
    rmSync(tmpRoot, { recursive: true, force: true });
  }
}
