/**
 * The shared integration suites (every host, and `.fetch`) run once more, unchanged, with the fixture tree
 * mounted from a build of it (`express-file-endpoints build`): a build must serve exactly what the tree serves.
 * The suites run in a child mocha, with FIXTURE_APP_DIR naming the build (test/support/fixture-app.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { buildEndpoints } from '../../src/build';
import { FIXTURE_APP_DIR } from '../support/fixture-app';

const ROOT = path.resolve(__dirname, '../..');
const SUITES = [
  'test/integration/endpoints.test.ts',
  'test/integration/semantics.test.ts',
  'test/integration/request-rules.test.ts',
  'test/integration/fetch-semantics.test.ts',
  'test/integration/body-parsers.test.ts',
  'test/integration/default-on-error.test.ts',
];

describe('integration: the shared suites, mounted from a build', function () {
  this.timeout(120_000);
  let out: string;
  before(() => {
    out = mkdtempSync(path.join(tmpdir(), 'ee-fixture-build-'));
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it('pass as they pass from the tree', async () => {
    // Built from the repository's root, so the build names files as the suites expect (test/fixtures/app/…).
    const cwd = process.cwd();
    process.chdir(ROOT);
    try {
      await buildEndpoints(path.join(ROOT, 'test/fixtures/app'), out);
    } finally {
      process.chdir(cwd);
    }
    const mocha = require.resolve('mocha/bin/mocha.js');
    const args = ['--no-config', '--require', 'tsx/cjs', '--node-option', 'import=tsx', '--extension', 'ts'];
    const result = spawnSync(
      process.execPath,
      [mocha, ...args, '--timeout', '20000', '--reporter', 'dot', ...SUITES],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, [FIXTURE_APP_DIR]: out },
      },
    );
    expect(result.stdout + result.stderr).to.match(/\b\d{3,} passing\b/);
    expect(result.status, result.stdout + result.stderr).to.equal(0);
  });
});
