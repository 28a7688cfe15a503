/**
 * The example's tests once more, with the endpoints mounted from a build: `npm run build:endpoints`'s command
 * (the built CLI, dist/cli.js) compiles app/ into the example's dist/endpoints, where the packages the
 * endpoints import resolve as from the app, and a child mocha runs the tests with EXAMPLE_BUILD_DIR naming
 * it (see support.ts). The browser test stays with the tree.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { EXAMPLE_BUILD_DIR } from './support';

const ROOT = path.resolve(__dirname, '../../..');
const TESTS = ['app.test.ts', 'auth.test.ts', 'handlers.test.ts'].map((file) => path.join(__dirname, file));

describe('example app: its tests, mounted from a build', function () {
  this.timeout(120_000);
  const out = path.join(ROOT, 'examples/express-app/dist/endpoints');

  it('pass as they pass from the tree', () => {
    execFileSync(process.execPath, ['dist/cli.js', 'build', 'examples/express-app/app'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const mocha = require.resolve('mocha/bin/mocha.js');
    const args = ['--no-config', '--require', 'tsx/cjs', '--node-option', 'import=tsx', '--extension', 'ts'];
    const result = spawnSync(
      process.execPath,
      [mocha, ...args, '--timeout', '20000', '--reporter', 'dot', ...TESTS],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, [EXAMPLE_BUILD_DIR]: out },
      },
    );
    expect(result.stdout + result.stderr).to.match(/\b\d+ passing\b/);
    expect(result.status, result.stdout + result.stderr).to.equal(0);
  });
});
