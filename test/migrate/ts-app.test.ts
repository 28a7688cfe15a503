/**
 * `migrate --write` on test/fixtures/migrate-ts-app: a TypeScript Express 5 app compiled by tsc to CommonJS, with
 * a router per resource, typed handlers, route and router middleware and its own error handler, tested with
 * node:test and supertest on what tsc compiled. The command writes TypeScript endpoints into the source folder
 * tsc compiles; they type-check under `strict`, and the suite passes unchanged.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ensureBuilt, root } from '../integration/loading-apps';
import { runMigrate } from './run-migrate';
import { removeScratchApps, runNode, scratchApp } from '../support/runner-apps';

const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

/** The app's `npm test`: tsc, then node:test on the compiled suite (the spec reporter, which Node 22 uses only on a terminal). */
async function suite(dir: string) {
  const compiled = await runNode([tsc, '-p', 'tsconfig.json'], dir, 120_000);
  if (compiled.code !== 0) return compiled;
  return runNode(['--test', '--test-reporter=spec', 'dist/test/**/*.test.js'], dir, 120_000);
}

describe('migrate: a TypeScript app compiled by tsc, its own suite after the command', function () {
  this.timeout(240_000);
  before(async function () {
    this.timeout(120_000);
    await ensureBuilt();
  });
  after(removeScratchApps);

  it('writes endpoints tsc compiles, and the suite passes unchanged; a second run changes nothing', async () => {
    const dir = scratchApp('migrate-ts-app');
    const before = await suite(dir);
    expect(before.code, before.output).to.equal(0);

    const write = await runMigrate(dir, '--write', '--allow-dirty');
    expect(write.code, write.output).to.equal(0);
    expect(write.output).to.include('7 routes found: 7 moved (7 rewritten, 0 as they were), 0 left.');
    // Beside src/app.ts, inside the folder tsc compiles; mounted by __dirname, as the compiled code runs.
    expect(write.output).to.include(
      'GET /api/products/:id -> src/app/api/products/[id]/endpoint.ts (rewritten)',
    );
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).to.include(
      "app.use(mountEndpoints({ dir: path.join(__dirname, 'app') }));",
    );

    const after = await suite(dir);
    expect(after.output, after.output).to.match(/\bpass 7\n/);
    expect(after.code, after.output).to.equal(0);

    const again = await runMigrate(dir, '--write', '--allow-dirty');
    expect(again.code, again.output).to.equal(0);
    expect(again.output).to.include('Nothing to change.');
  });
});
