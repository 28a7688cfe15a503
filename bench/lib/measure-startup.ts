/**
 * Measuring scenario (e): `mountEndpoints({ dir })` then `await .ready` over 1,000 generated
 * endpoints, each measurement in a fresh process (bench/startup.ts, bundled), JavaScript and
 * TypeScript. Returns the raw runs; the limits are in ../scenarios.ts and judged by the report.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUILD } from './build';
import { log } from './measure-throughput';
import type { Options } from './options';
import { ROOT, childEnv } from './processes';
import type { StartupRow } from './results';
import { fmtMs, median } from './stats';
import { treeDir } from './trees';

function runProcess(mode: 'mount' | 'phases', dir: string, tmp?: string): Record<string, number> {
  const result = spawnSync(
    process.execPath,
    [path.join(BUILD, 'startup.mjs'), JSON.stringify({ mode, dir })],
    {
      cwd: ROOT,
      env: childEnv(tmp ? { TMPDIR: tmp } : {}),
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`startup (${mode}, ${dir}) failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as Record<string, number>;
}

const times = (count: number, run: (i: number) => number) => Array.from({ length: count }, (_, i) => run(i));

function phases(runs: Record<string, number>[]) {
  return {
    discover: median(runs.map((r) => r.discover!)),
    validate: median(runs.map((r) => r.validate!)),
    load: median(runs.map((r) => r.load!)),
  };
}

export function measureStartup(options: Options): StartupRow[] {
  log('\n(e) startup');
  const runs = options.startupRuns;
  const rows: StartupRow[] = [];
  const jsDir = treeDir('many-js');
  const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'ee-bench-'));
  try {
    // JavaScript: cold is the first process after the tree was written (Node keeps no compile
    // cache for it unless asked), so cold and warm differ by what the OS and V8 have cached.
    const jsCold = runProcess('mount', jsDir).total!;
    const jsWarm = times(runs, () => runProcess('mount', jsDir).total!);
    const jsPhases = Array.from({ length: runs }, () => runProcess('phases', jsDir));
    rows.push({ tree: 'JavaScript', case: 'cold', runs: [jsCold], total: jsCold });
    rows.push({ tree: 'JavaScript', case: 'warm', runs: jsWarm, total: median(jsWarm), ...phases(jsPhases) });
    rows.push(
      ...typeScript('TypeScript (ES module package)', treeDir('many-ts'), path.join(tmpRoot, 'esm'), runs),
    );
    rows.push(
      ...typeScript('TypeScript (CommonJS package)', treeDir('many-ts-cjs'), path.join(tmpRoot, 'cjs'), runs),
    );
  } finally {
    rmSync(tmpRoot, { recursive: true, force: true });
  }
  for (const row of rows)
    log(`  ${row.tree} ${row.case}: ${fmtMs(row.total)} ms (runs ${row.runs.map(fmtMs).join(', ')})`);
  return rows;
}

/**
 * TypeScript with tsx installed: in an ES module package, import() with Node's own type stripping
 * (no file of the tree needs tsx, so the library never registers it); in a CommonJS one, require()
 * through tsx's in-thread CommonJS hook. Cold: tsx's transform cache is empty (a fresh TMPDIR per
 * run); warm: the cache of an earlier run.
 */
function typeScript(tree: string, dir: string, tmpRoot: string, runs: number): StartupRow[] {
  const cold = times(runs, (i) => {
    const tmp = path.join(tmpRoot, `cold-${i}`);
    mkdirSync(tmp, { recursive: true });
    return runProcess('mount', dir, tmp).total!;
  });
  const warmTmp = path.join(tmpRoot, 'warm');
  mkdirSync(warmTmp, { recursive: true });
  runProcess('mount', dir, warmTmp);
  const warm = times(runs, () => runProcess('mount', dir, warmTmp).total!);
  const warmPhases = Array.from({ length: runs }, () => runProcess('phases', dir, warmTmp));
  return [
    { tree, case: 'cold', runs: cold, total: median(cold) },
    { tree, case: 'warm', runs: warm, total: median(warm), ...phases(warmPhases) },
  ];
}
