/**
 * Bundles the bench processes (server, load, startup) and the library source into
 * bench/.scratch/build; `library.mjs` is the library alone, for the endpoint files that import it
 * (bench/trees/contract).
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { BENCH_DIR } from './trees';

// Under .scratch: ignored by git, ESLint, Prettier and tsc alike.
export const BUILD = path.join(BENCH_DIR, '.scratch', 'build');

const { version } = JSON.parse(readFileSync(path.join(BENCH_DIR, '..', 'package.json'), 'utf8')) as {
  version: string;
};

export async function buildBench(): Promise<void> {
  await build({
    entryPoints: [
      ...['server', 'load', 'startup', 'first-answer'].map((name) => path.join(BENCH_DIR, `${name}.ts`)),
      { in: path.join(BENCH_DIR, '..', 'src', 'index.ts'), out: 'library' },
    ],
    outdir: BUILD,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Like the published build: dependencies stay imports, our own code is bundled.
    packages: 'external',
    // What the published build writes in (tsup.config.ts): the version a build of endpoints records.
    define: { __LIBRARY_VERSION__: JSON.stringify(version) },
    logLevel: 'warning',
  });
}
