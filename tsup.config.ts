// Dual ESM + CommonJS build with bundled .d.ts/.d.cts, so `import` and `require` users both get types.
import { defineConfig } from 'tsup';

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
});
