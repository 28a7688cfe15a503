/**
 * The fast suite, `npm run test:unit` (and what a bare `npx mocha` runs): every test file but the
 * slow ones, listed in .mocharc.slow.cjs (`npm run test:slow`), and the package's, in
 * test/package/.mocharc.json (`npm run test:package`). `npm test` runs all three.
 */
module.exports = {
  require: ['tsx/cjs'],
  'node-option': ['import=tsx'],
  extension: ['ts'],
  spec: ['test/**/*.test.ts', 'examples/express-app/test/**/*.test.ts'],
  ignore: ['test/package/**', ...require('./.mocharc.slow.cjs').spec],
  timeout: 20000,
  reporter: 'dot',
};
