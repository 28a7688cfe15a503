/**
 * `migrate --write` on test/fixtures/legacy-app as it was before any route moved (its routers only, on
 * Express 4): the command writes the endpoints and middleware files, deletes the routes from the routers and
 * mounts the tree, and the app's own Jest suite, unchanged, passes. A second run changes nothing.
 */
import { readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { runMigrate } from './run-migrate';
import { ROOT, RUNNERS, removeScratchApps, runNode, scratchApp } from '../support/runner-apps';
import { ensureBuilt } from '../integration/loading-apps';

/**
 * create-app.js as the app had it before: the fixture's own, with its routers mounted one by one and no switch to
 * the tree.
 */
const ROUTERS_ONLY = readFileSync(path.join(ROOT, 'test/fixtures/legacy-app/create-app.js'), 'utf8').replace(
  /^ {2}if \(process\.env\.MOVED_ROUTES === '1'\) \{\n[\s\S]*?\n {2}\} else \{\n([\s\S]*?)\n {2}\}\n/m,
  (_switch, routers: string) => `${routers.replace(/^ {2}/gm, '')}\n`,
);

function legacyApp(): string {
  expect(ROUTERS_ONLY, 'the fixture without its switch').to.not.include('MOVED_ROUTES ===');
  const dir = scratchApp('legacy-app', { 'create-app.js': ROUTERS_ONLY });
  rmSync(path.join(dir, 'app'), { recursive: true });
  rmSync(path.join(dir, 'node_modules/express'));
  symlinkSync(path.join(ROOT, 'node_modules/express4'), path.join(dir, 'node_modules/express'), 'dir');
  return dir;
}

describe('migrate: a legacy Express 4 app, its own Jest suite after the command', function () {
  this.timeout(120_000);
  before(async function () {
    this.timeout(120_000);
    await ensureBuilt();
  });
  after(removeScratchApps);

  it('moves every route, and the suite passes unchanged; a second run changes nothing', async () => {
    const dir = legacyApp();
    const plan = await runMigrate(dir, 'create-app.js');
    expect(plan.code, plan.output).to.equal(0);
    expect(plan.output).to.include('6 routes found: 6 moved (6 rewritten, 0 as they were), 0 left.');
    expect(plan.output).to.include('+++ b/app/api/me/endpoint.js');
    // res.sendFile and res.download, with the callback that only passed errors on, become sendFile.
    expect(plan.output).to.include(
      "+  return sendFile(request, params.name, { root: UPLOADS, maxAge: '1h' });",
    );
    expect(plan.output).to.include(
      '+  return sendFile(request, path.join(REPORTS, `${params.year}.csv`), { download: `report-${params.year}.csv` });',
    );

    const write = await runMigrate(dir, 'create-app.js', '--write', '--allow-dirty');
    expect(write.code, write.output).to.equal(0);
    expect(write.output).to.match(/6 endpoints, 0 problems/);
    // The routers lost their routes; the entry mounts the tree where the first router was.
    expect(readFileSync(path.join(dir, 'routes/me.js'), 'utf8')).not.to.include('router.get(');
    expect(readFileSync(path.join(dir, 'create-app.js'), 'utf8')).to.include(
      "app.use(mountEndpoints({ dir: path.join(__dirname, 'app') }));",
    );

    const suite = await runNode([RUNNERS.jest30, '--ci'], dir);
    expect(suite.output, suite.output).to.match(/Tests:\s+9 passed, 9 total/);
    expect(suite.code, suite.output).to.equal(0);

    const again = await runMigrate(dir, 'create-app.js', '--write', '--allow-dirty');
    expect(again.code, again.output).to.equal(0);
    expect(again.output).to.include('Nothing to change.');
  });
});
