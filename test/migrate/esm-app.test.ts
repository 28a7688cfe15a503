/**
 * `migrate --write` on test/fixtures/migrate-esm-app: an ES module Express 5 app with a router per resource, a
 * nested router reading its parent's params (mergeParams), route middleware (auth, express-validator) and its own
 * error handler, tested with Vitest and supertest. Its suite passes before the command, and unchanged after it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ensureBuilt } from '../integration/loading-apps';
import { runMigrate } from './run-migrate';
import { RUNNERS, removeScratchApps, runNode, scratchApp } from '../support/runner-apps';

describe('migrate: an ES module app with Vitest, its own suite after the command', function () {
  this.timeout(180_000);
  before(async function () {
    this.timeout(120_000);
    await ensureBuilt();
  });
  after(removeScratchApps);

  it('moves its routes, and the suite passes unchanged; a second run changes nothing', async () => {
    const dir = scratchApp('migrate-esm-app');
    const before = await runNode([RUNNERS.vitest, 'run'], dir, 120_000);
    expect(before.code, before.output).to.equal(0);

    // No entry named: package.json's main, server.js, which only starts the app create-app.js makes.
    const write = await runMigrate(dir, '--write', '--allow-dirty');
    expect(write.code, write.output).to.equal(0);
    expect(write.output).to.include('12 routes found: 12 moved (12 rewritten, 0 as they were), 0 left.');
    // DELETE /api/users/me is DELETE /:id's in Express; in the tree, users/me (GET only) takes it, and hands it
    // on to the folder DELETE /:id moved to, its id 'me'.
    expect(readFileSync(path.join(dir, 'app/api/users/me/endpoint.js'), 'utf8')).to.include(
      "import { DELETE as deleteForwarded } from '../[id]/endpoint.js';",
    );
    // /me before /:id in Express is what the tree's precedence picks too, so both move.
    expect(write.output).to.include('GET /api/users/:id -> app/api/users/[id]/endpoint.js (rewritten)');
    // The nested router's routes run behind the parent router's requireUser, imported from its own file.
    const tasks = readFileSync(path.join(dir, 'app/api/projects/[projectId]/tasks/endpoint.js'), 'utf8');
    expect(tasks).to.include("import { requireUser } from '../../../../../lib/auth.js';");
    expect(readFileSync(path.join(dir, 'create-app.js'), 'utf8')).to.include(
      "app.use(mountEndpoints({ dir: path.join(import.meta.dirname, 'app') }));",
    );

    const after = await runNode([RUNNERS.vitest, 'run'], dir, 120_000);
    expect(after.output, after.output).to.match(/Tests\s+\d+ passed \(\d+\)/);
    expect(after.code, after.output).to.equal(0);

    const again = await runMigrate(dir, '--write', '--allow-dirty');
    expect(again.code, again.output).to.equal(0);
    expect(again.output).to.include('Nothing to change.');
  });
});
