/**
 * Every route of a legacy Express 4 app moves: test/fixtures/legacy-app has passport (local and JWT),
 * express-rate-limit, express-validator, a multer upload to disk, res.sendFile and res.download, and its own
 * JSON error handler, with a Jest suite written against its routers. Its routes moved into app/ as
 * docs/migrating.md shows (expressMiddleware in folders, multipart() and saveFile(), sendFile), and the same
 * suite, unchanged, passes against either.
 */
import { rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT, RUNNERS, removeScratchApps, runNode, scratchApp } from '../support/runner-apps';
import { ensureBuilt } from './loading-apps';

/** A copy of the app, installed as npm installs it, on Express 4 as the app's package.json asks. */
function legacyApp(files: Record<string, string> = {}): string {
  const dir = scratchApp('legacy-app', files);
  rmSync(path.join(dir, 'node_modules/express'));
  symlinkSync(path.join(ROOT, 'node_modules/express4'), path.join(dir, 'node_modules/express'), 'dir');
  return dir;
}

describe('integration: a legacy Express 4 app, its routes moved into the tree, its own Jest suite', function () {
  this.timeout(60_000);
  before(async function () {
    this.timeout(120_000);
    await ensureBuilt();
  });
  after(removeScratchApps);

  it('passes against its routers', async () => {
    const result = await runNode([RUNNERS.jest30, '--ci'], legacyApp());
    expect(result.output, result.output).to.match(/Tests:\s+9 passed, 9 total/);
    expect(result.code, result.output).to.equal(0);
  });

  it('passes, unchanged, against the endpoints its routes moved to', async () => {
    // The app serves the tree instead of its routers when MOVED_ROUTES is set (create-app.js).
    const dir = legacyApp({ 'moved.js': "process.env.MOVED_ROUTES = '1';\n" });
    const result = await runNode(['--require', './moved.js', RUNNERS.jest30, '--ci'], dir);
    expect(result.output, result.output).to.match(/Tests:\s+9 passed, 9 total/);
    expect(result.code, result.output).to.equal(0);
  });
});
