/**
 * `migrate --write` on code nobody here wrote: examples of the Express repository (test/fixtures/express-examples,
 * MIT), each migrated from its own index.js, then the repository's own acceptance tests for them, unchanged.
 * One test asks for what the tree refuses by design: `GET /files/../index.js`, a `..` segment, is a 400 before
 * any route (docs/migrating.md, "A `.` or `..` segment is refused with 400"), where Express's send answers 403.
 */
import { expect } from 'chai';
import { ensureBuilt } from '../integration/loading-apps';
import { runMigrate } from './run-migrate';
import { RUNNERS, removeScratchApps, runNode, scratchApp } from '../support/runner-apps';

const REFUSED_BY_DESIGN = 'GET /files/\\.\\./index\\.js';

/** Each example and what the command says of it. */
const EXAMPLES: Record<string, string> = {
  'multi-router': '5 routes found: 5 moved (5 rewritten, 0 as they were), 0 left.',
  'web-service': '3 routes found: 3 moved (2 rewritten, 1 as they were), 0 left.',
  downloads: '2 routes found: 2 moved (1 rewritten, 1 as they were), 0 left.',
  params: '3 routes found: 1 moved (1 rewritten, 0 as they were), 2 left.',
  resource: '1 route found: 1 moved (1 rewritten, 0 as they were), 0 left.',
};

describe("migrate: the Express repository's examples, their own acceptance tests after the command", function () {
  this.timeout(180_000);
  before(async function () {
    this.timeout(120_000);
    await ensureBuilt();
  });
  after(removeScratchApps);

  it('moves what it can read, and the acceptance tests pass unchanged', async () => {
    const dir = scratchApp('express-examples');
    const mocha = ['--reporter', 'dot', 'test/acceptance/'];
    const before = await runNode([RUNNERS.mocha, ...mocha], dir);
    expect(before.code, before.output).to.equal(0);
    expect(before.output).to.match(/39 passing/);

    for (const [example, summary] of Object.entries(EXAMPLES)) {
      const entry = `examples/${example}/index.js`;
      const write = await runMigrate(dir, entry, '--write', '--allow-dirty');
      expect(write.code, write.output).to.equal(0);
      expect(write.output, example).to.include(summary);
    }
    const params = await runMigrate(dir, 'examples/params/index.js');
    // app.param('user', …) loads req.user: the route stays behind it.
    expect(params.output).to.include(
      "get /user/:user: its param :user is loaded by its router's param() callback, which runs in Express's router only",
    );

    const after = await runNode([RUNNERS.mocha, ...mocha, '--grep', REFUSED_BY_DESIGN, '--invert'], dir);
    expect(after.output, after.output).to.match(/38 passing/);
    expect(after.code, after.output).to.equal(0);
  });
});
