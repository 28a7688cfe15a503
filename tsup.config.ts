// Dual ESM + CommonJS build with bundled .d.ts/.d.cts, so `import` and `require` users both get types.
import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    client: 'src/client/index.ts',
    cli: 'src/cli/main.ts',
  },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', testing: 'src/testing/index.ts', client: 'src/client/index.ts' } },
  target: 'node22',
  platform: 'node',
  splitting: false,
  sourcemap: false,
  clean: true,
  shims: true,
  // The version a build records and a mount from a build compares (src/manifest/version.ts).
  define: { __LIBRARY_VERSION__: JSON.stringify(version) },
  // Which build this is: only the CommonJS one asks whether a test runner's require loaded it (src/load/runner-require.ts).
  esbuildOptions(options, { format }) {
    options.define = { ...options.define, __COMMONJS_BUILD__: String(format === 'cjs') };
  },
});
