/**
 * The runtime suite, `npm run test:runtimes`: the shared suites once more, with Bun and Deno as their
 * hosts in place of the Node ones (each serving the tree through `.fetch` on its own server, see
 * test/runtimes/runtime-hosts.ts), and what is particular to those runtimes (test/runtimes). `npm test`
 * runs it once, on the Node it runs on; the other Node versions' runs leave it out, since the runtimes
 * are the same whichever Node drives them.
 *
 * A runtime whose pinned binary has not been fetched (`node scripts/runtimes.mjs fetch`) is skipped,
 * saying so; under `CI=true` that is a failure instead.
 */
process.env.TEST_HOSTS = 'runtimes';

module.exports = {
  require: ['tsx/cjs'],
  'node-option': ['import=tsx'],
  extension: ['ts'],
  spec: [
    'test/runtimes/**/*.test.ts',
    'test/integration/semantics.test.ts',
    'test/integration/request-rules.test.ts',
    'test/integration/locals-hosts.test.ts',
    'test/hardening/client-gone.test.ts',
    'test/csrf/csrf.test.ts',
    'test/multipart/hosts.test.ts',
    'test/contract/uploads.test.ts',
  ],
  timeout: 20000,
  reporter: 'dot',
};
