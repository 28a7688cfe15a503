/**
 * The fast suite, `npm run test:unit` (and what a bare `npx mocha` runs): every test file but the
 * slow ones, listed in .mocharc.slow.cjs (`npm run test:slow`), the package's, in
 * test/package/.mocharc.json (`npm run test:package`), and Bun's and Deno's, in .mocharc.runtimes.cjs
 * (`npm run test:runtimes`). `npm test` runs all four.
 */
module.exports = {
  require: ['tsx/cjs'],
  'node-option': ['import=tsx'],
  extension: ['ts'],
  spec: ['test/**/*.test.ts', 'examples/express-app/test/**/*.test.ts'],
  // test/fixtures holds fixture apps' own tests, which their own runners (Vitest, Jest) run.
  ignore: ['test/package/**', 'test/runtimes/**', 'test/fixtures/**', ...require('./.mocharc.slow.cjs').spec],
  timeout: 20000,
  reporter: 'dot',
};
