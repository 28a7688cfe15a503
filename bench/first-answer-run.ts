/**
 * `npx tsx bench/first-answer-run.ts [--runs N] [--out DIR]`: scenario (e)'s first-answer rows alone
 * (bench/lib/measure-first-answer.ts), added to the run saved in DIR/results.json (default bench/), whose
 * results.md is then rendered again. A full `npm run bench` measures them too; this measures them without the
 * quarter of an hour the other scenarios take. Run it on the Node the targets name:
 * `node scripts/node-versions.mjs run 24 -- npx tsx bench/first-answer-run.ts`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildBench } from './lib/build';
import { log } from './lib/measure-throughput';
import { measureFirstAnswer } from './lib/measure-first-answer';
import { renderReport } from './lib/report';
import { readRun } from './lib/results';
import { BENCH_DIR, generateTrees } from './lib/trees';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string' }, out: { type: 'string' } } });
  const out = path.resolve(values.out ?? BENCH_DIR);
  const file = path.join(out, 'results.json');
  const run = readRun(file);
  if (!run) throw new Error(`no saved run in ${file}: run npm run bench first`);
  await buildBench();
  generateTrees();
  run.firstAnswer = await measureFirstAnswer(Number(values.runs ?? 5));
  writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);
  log(`wrote ${path.relative(process.cwd(), renderReport(out))} and results.json`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
