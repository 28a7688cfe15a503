/**
 * A route's `timeout`, on every host: past it the client gets `503` (through the app's error handler
 * where there is one), the handler's `request.signal` aborts with a `TimeoutError`, an answer already
 * streaming is cut rather than rewritten, and the innermost timeout (endpoint, folder, mount) wins.
 */
import path from 'node:path';
import { expect } from 'chai';
import { hosts, hostsWithFetch, type Served } from './hosts';

const DIR = path.join(__dirname, '../fixtures/timeouts-app');
const reasons = ((globalThis as { timeoutReasons?: string[] }).timeoutReasons ??= []);

for (const host of hostsWithFetch) {
  describe(`route timeouts (${host.name})`, () => {
    let app: Served;
    before(async () => {
      app = await host.start({ dir: DIR, onError: () => {} });
    });
    after(() => app.close());
    beforeEach(() => void (reasons.length = 0));

    it('past it: 503, and the handler’s signal aborts with a TimeoutError', async () => {
      const started = Date.now();
      const reply = await app.request('/slow');
      expect(reply.status).to.equal(503);
      expect(reply.text).to.include('did not answer within 100 ms');
      expect(Date.now() - started).to.be.within(90, 900);
      // Bun and Deno run the tree in their own process: only Node's hosts share these globals.
      if (host.node || host.name === '.fetch') {
        expect(reasons).to.deep.equal([
          'TimeoutError: Service Unavailable: the route did not answer within 100 ms',
        ]);
      }
    });

    it('within it: the answer as it was', async () => {
      const reply = await app.request('/fast');
      expect([reply.status, reply.text]).to.deep.equal([200, 'in time']);
    });

    it("a folder's timeout holds for the endpoints beneath; an endpoint's own wins over it", async () => {
      const [inherits, longer] = await Promise.all([
        app.request('/patient/inherits'),
        app.request('/patient/longer'),
      ]);
      expect(inherits.status).to.equal(503);
      expect([longer.status, longer.text]).to.deep.equal([200, 'in time']);
    });

    if (host.sockets) {
      it('a streamed answer already started is cut, not rewritten', async () => {
        const reply = await app.request('/stream').catch((error: Error) => error);
        // The head went out with 200: the connection breaks, so the client sees no complete answer.
        if (reply instanceof Error) return;
        expect(reply.status).to.equal(200);
        expect(reply.text.split('\n').filter(Boolean).length).to.be.below(20);
      });
    }
  });
}

// The option is a Node app's (Bun and Deno get theirs through the tree's exports): Node's run only.
(process.env.TEST_HOSTS === 'runtimes' ? describe.skip : describe)('route timeouts: the mount option', () => {
  const host = hosts[0]!;
  it('holds for a route that states none, and not at all when left out', async () => {
    const limited = await host.start({ dir: DIR, onError: () => {}, mount: { timeout: 50 } });
    const open = await host.start({ dir: DIR, onError: () => {} });
    try {
      expect((await limited.request('/plain')).status).to.equal(503);
      expect((await limited.request('/fast')).status, 'its own 1,000 ms wins').to.equal(200);
      expect((await open.request('/plain')).status).to.equal(200);
    } finally {
      await Promise.all([limited.close(), open.close()]);
    }
  });
});
