/**
 * TypeScript trees written as users write them, started without a build: 1,000 endpoints that import a shared
 * helper without an extension (`../../../_lib/label`, and one `import type`), or with the NodeNext `.js` suffix,
 * plus one endpoint with an enum, in an ES module and a CommonJS package, tsx installed. Each start is a fresh
 * process running bench/startup.ts (bundled), timed from process start to `.ready`:
 *
 *   cold     no compile cache (node_modules/.cache removed) and tsx's own cache empty (a fresh TMPDIR)
 *   warm     the cache of the run before
 *   changed  one endpoint edited since the run before
 *   dev      NODE_ENV=development: the same, in development mode (watcher, import graph)
 *
 * `npx tsx bench/ts-startup.ts [--runs 3]` under the Node to measure; writes bench/ts-startup-results.md.
 * Medians of the runs: the machine may be shared, so read them as such.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUILD, buildBench } from './lib/build';
import { BENCH_DIR, SCRATCH } from './lib/trees';

const ROUTES = 1000;
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;

const label = `export interface Label { text: string; route: number }
export function label(text: string, route: number): Label {
  return { text, route };
}
`;
const endpoint = (i: number, suffix: string) => `import { label } from '../../../_lib/label${suffix}';
import type { Label } from '../../../_lib/label${suffix}';

interface Params {
  id: string;
}

export function GET(req: Request, { params }: { params: Params }): Response {
  const made: Label = label(params.id, ${i});
  return Response.json(made);
}
`;
const enumEndpoint = `export enum Kind { Plain = 'plain' }
export function GET(): Response {
  return Response.json({ kind: Kind.Plain });
}
`;

function writeTree(dir: string, type: 'module' | 'commonjs', suffix: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, '_lib'), { recursive: true });
  writeFileSync(path.join(dir, '_lib/label.ts'), label);
  for (let i = 0; i < ROUTES; i++) {
    const folder = path.join(dir, 'api', `r${i}`, '[id]');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'endpoint.ts'), endpoint(i, suffix));
  }
  mkdirSync(path.join(dir, 'kinds'), { recursive: true });
  writeFileSync(path.join(dir, 'kinds/endpoint.ts'), enumEndpoint);
  writeFileSync(path.join(dir, 'package.json'), `{ "type": "${type}" }\n`);
  // tsx installed in the app, as users have it (esbuild beside it, as tsx installs it).
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(path.join(BENCH_DIR, '..', 'node_modules/tsx'), path.join(dir, 'node_modules/tsx'), 'dir');
}

function start(dir: string, tmp: string, dev: boolean): number {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TMPDIR: tmp,
    NODE_ENV: dev ? 'development' : 'production',
  };
  delete env.NODE_OPTIONS;
  const config = JSON.stringify({ mode: 'mount', dir });
  const result = spawnSync(process.execPath, [path.join(BUILD, 'startup.mjs'), config], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`startup of ${dir} failed:\n${result.stderr}`);
  const line = JSON.parse(result.stdout.trim().split('\n').pop()!) as { sinceProcessStart: number };
  return Math.round(line.sinceProcessStart);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  await buildBench();
  const rows: string[] = [];
  const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'ee-ts-startup-'));
  try {
    for (const type of ['module', 'commonjs'] as const) {
      for (const [imports, suffix] of [
        ['extensionless', ''],
        ['.js suffix', '.js'],
      ] as const) {
        const dir = path.join(SCRATCH, `ts-${type}-${suffix ? 'js' : 'bare'}`);
        writeTree(dir, type, suffix);
        for (const dev of [false, true]) {
          const cold: number[] = [];
          const warm: number[] = [];
          const changed: number[] = [];
          for (let i = 0; i < runs; i++) {
            rmSync(path.join(dir, 'node_modules/.cache'), { recursive: true, force: true });
            const tmp = mkdtempSync(path.join(tmpRoot, 'tmp-'));
            cold.push(start(dir, tmp, dev));
            warm.push(start(dir, tmp, dev));
            appendFileSync(path.join(dir, 'api/r7/[id]/endpoint.ts'), `// edit ${Date.now()}\n`);
            changed.push(start(dir, tmp, dev));
          }
          const row = [
            type === 'module' ? 'ES module' : 'CommonJS',
            imports,
            dev ? 'development' : 'production',
            ...[cold, warm, changed].map((values) => `${median(values)} ms (${values.join(', ')})`),
          ];
          rows.push(`| ${row.join(' | ')} |`);
          console.log(rows.at(-1));
        }
      }
    }
  } finally {
    rmSync(tmpRoot, { recursive: true, force: true });
  }
  const text = `# TypeScript start-up without a build

Written by \`bench/ts-startup.ts\` on Node ${process.version}, ${os.cpus().length} CPUs, ${runs} runs a case
(median first, then every run). Process start to \`.ready\` of ${ROUTES.toLocaleString('en')} endpoints importing a
shared helper, plus one endpoint with an enum, tsx installed. Cold: no compile cache and tsx's cache empty; warm:
the cache of the run before; changed: one endpoint edited since. The machine may be shared: read medians.

| package | imports | NODE_ENV | cold | warm | one file changed |
|---|---|---|---:|---:|---:|
${rows.join('\n')}
`;
  writeFileSync(path.join(BENCH_DIR, 'ts-startup-results.md'), text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
