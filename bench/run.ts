/**
 * `npm run bench -- [--quick] [--only a,b] [--rounds N] [--duration S] [--node 24]
 * [--cross-version] [--rerender] [--out DIR]`: the benchmark driver (`--help` explains each).
 *
 * It only sequences the three parts: what to measure and the targets (scenarios.ts), measuring
 * (lib/measure-*.ts), and the report (lib/report*.ts), which is built from the saved JSON alone.
 * A run saves results.json, then renders results.md from it, exactly as `--rerender` does later.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PINNED, nodeBinDir } from '../scripts/node-versions.mjs';
import { BUILD, buildBench } from './lib/build';
import { log, measureThroughput } from './lib/measure-throughput';
import { measureFirstAnswer } from './lib/measure-first-answer';
import { measureStartup } from './lib/measure-startup';
import { measureTransfers } from './lib/measure-transfers';
import { parseOptions, type Options } from './lib/options';
import { LoadProcess, ROOT } from './lib/processes';
import { renderReport, summary } from './lib/report';
import { describeMachine, readRun, type RunOptions, type SavedCross, type SavedRun } from './lib/results';
import { generateTrees } from './lib/trees';
import { THROUGHPUT } from './scenarios';

const argv = process.argv.slice(2);
const options = parseOptions(argv);

// Every process of the run (driver, servers, load, startup) uses the chosen Node: re-run under it.
if (process.versions.node.split('.')[0] !== options.node) {
  const bin = nodeBinDir(options.node);
  const rerun = spawnSync(path.join(bin, 'node'), [...process.execArgv, process.argv[1]!, ...argv], {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
  });
  process.exit(rerun.status ?? 1);
}

const runOptions = (o: Options): RunOptions => ({
  quick: o.quick,
  rounds: o.rounds,
  duration: o.duration,
  warmup: o.warmup,
  connections: o.connections,
  only: o.only,
  node: o.node,
  processes: o.processes,
  semiSpace: o.semiSpace,
});

const shown = (file: string) => path.relative(ROOT, file);

async function measure(): Promise<SavedRun> {
  log(`building servers into ${shown(BUILD)} ...`);
  await buildBench();
  generateTrees();
  const load = new LoadProcess();
  await load.ready;
  const run: SavedRun = {
    schema: 2,
    date: new Date().toISOString(),
    options: runOptions(options),
    machine: describeMachine(),
    scenarios: [],
    startup: [],
    transfers: [],
  };
  try {
    for (const scenario of THROUGHPUT) {
      if (options.only.includes(scenario.id))
        run.scenarios.push(await measureThroughput(scenario, load, options));
    }
    if (options.only.includes('e')) {
      run.startup = measureStartup(options);
      // Cheaper than the startup rows: two more runs each.
      run.firstAnswer = await measureFirstAnswer(options.startupRuns + 2);
    }
    if (options.only.includes('f')) run.transfers = await measureTransfers(load, options);
  } finally {
    load.close();
  }
  // Read at the end, so the saved load average describes the run.
  return { ...run, machine: describeMachine() };
}

/**
 * `--cross-version`: scenario (a) once per supported Node, each run a child driver re-run under
 * its own Node (so its servers and load process use it too), collected into results-cross.json.
 */
function crossVersion(): void {
  const work = path.join(options.out, '.cross');
  rmSync(work, { recursive: true, force: true });
  const runs: SavedRun[] = [];
  for (const major of Object.keys(PINNED)) {
    log(`\n=== Node ${major} ===`);
    const out = path.join(work, `node-${major}`);
    const args = ['--node', major, '--only', 'a', '--rounds', String(options.rounds)];
    args.push('--duration', String(options.duration), '--out', out);
    if (options.quick) args.push('--quick');
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, ...args], {
      stdio: 'inherit',
    });
    const run = child.status === 0 ? readRun(path.join(out, 'results.json')) : undefined;
    if (!run) throw new Error(`the run on Node ${major} failed (exit ${child.status})`);
    runs.push(run);
  }
  const cross: SavedCross = { schema: 2, date: new Date().toISOString(), options: runOptions(options), runs };
  writeFileSync(path.join(options.out, 'results-cross.json'), `${JSON.stringify(cross, null, 2)}\n`);
  rmSync(work, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const started = Date.now();
  mkdirSync(options.out, { recursive: true });
  if (options.rerender) {
    log(`wrote ${shown(renderReport(options.out))}`);
    return;
  }
  if (options.crossVersion) {
    crossVersion();
    log(
      `\nwrote ${shown(path.join(options.out, 'results-cross.json'))} and ${shown(renderReport(options.out))}`,
    );
    return;
  }
  const run = await measure();
  writeFileSync(path.join(options.out, 'results.json'), `${JSON.stringify(run, null, 2)}\n`);
  const file = renderReport(options.out);
  log(`\nwrote ${shown(file)} and results.json in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  for (const line of summary(run)) log(line);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
