/**
 * Scenario (e), one measurement per process: `node bench/.scratch/build/startup.mjs '<json>'`.
 *
 *   mode 'mount'   what users run: `mountEndpoints({ dir })` then `await .ready`, timed whole
 *   mode 'phases'  the same steps one by one (discover, validate, load every module, validate
 *                  against the loaded exports), to see what validation adds to loading
 *
 * Prints one JSON line with the times in milliseconds.
 */
import { discoverTree } from '../src/discover';
import { mountEndpoints } from '../src/index';
import { loadModule } from '../src/load';
import { validateTree } from '../src/validate';

interface StartupConfig {
  mode: 'mount' | 'phases';
  dir: string;
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as StartupConfig;
  const processStart = performance.timeOrigin;
  const t0 = performance.now();
  if (config.mode === 'mount') {
    const endpoints = mountEndpoints({ dir: config.dir });
    const t1 = performance.now();
    await endpoints.ready;
    const t2 = performance.now();
    report({
      routes: endpoints.routes.length,
      sync: t1 - t0,
      total: t2 - t0,
      sinceProcessStart: Date.now() - processStart,
    });
    // Development mode (NODE_ENV=development) may keep the process up: it ends once the compile cache is written.
    setTimeout(() => process.exit(0), 1000).unref();
    return;
  }
  const tree = discoverTree(config.dir);
  const t1 = performance.now();
  const problems = validateTree(tree);
  const t2 = performance.now();
  const loaded = await Promise.all(tree.files.map((f) => loadModule(f.file, f.displayPath)));
  const t3 = performance.now();
  const again = validateTree({
    ...tree,
    files: tree.files.map((file, i) => ({
      ...file,
      exports: { names: Object.keys(loaded[i]!), namesIncomplete: false, nonFunctions: [] },
    })),
  });
  const t4 = performance.now();
  if (problems.length + again.length > 0) throw new Error('the bench tree is invalid');
  report({
    routes: tree.files.length,
    discover: t1 - t0,
    validate: t2 - t1 + (t4 - t3),
    load: t3 - t2,
  });
}

function report(values: Record<string, number>): void {
  process.stdout.write(`${JSON.stringify(values)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
