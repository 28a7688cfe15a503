/**
 * A validator's async refinement that rejects (its database is down) fails the request, once, on
 * every host: a 500 through the app's error handler, told to `onError`. Zod's own
 * `~standard.validate` runs the refinement twice and leaves the first run's rejection unhandled,
 * which ends the process under Node's default; the library validates Zod schemas with their
 * `safeParseAsync`, which runs it once and hands its rejection back.
 */
import path from 'node:path';
import { expect } from 'chai';
import type { EndpointErrorInfo } from '../../src';
import { hostsWithFetch, type Served } from '../integration/hosts';

const DIR = path.join(__dirname, '../fixtures/contract-edges-app/app');

describe('contracts: an async refinement that rejects', () => {
  const unhandled: unknown[] = [];
  const listen = (reason: unknown) => void unhandled.push(reason);
  before(() => process.on('unhandledRejection', listen));
  after(() => process.off('unhandledRejection', listen));

  for (const host of hostsWithFetch) {
    describe(host.name, () => {
      let served: Served;
      const errors: { error: unknown; info: EndpointErrorInfo }[] = [];
      before(async () => {
        served = await host.start({ dir: DIR, onError: (error, info) => void errors.push({ error, info }) });
      });
      after(() => served?.close());

      it('fails the request once, and leaves no rejection unhandled', async () => {
        unhandled.length = 0;
        const before = (JSON.parse((await served.request('/refine')).text) as { refinements: number })
          .refinements;
        const res = await served.request('/refine', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"email":"ada@example.com"}',
        });
        expect(res.status).to.equal(500);
        if (host.node) expect(JSON.parse(res.text)).to.deep.equal({ caught: 'the database is down' });
        expect(errors.map(({ error }) => (error as Error).message)).to.deep.equal(['the database is down']);
        expect(errors[0]!.info).to.include({ route: '/refine', export: 'POST', passedToNext: host.node });
        // Rejections are found unhandled once the microtasks have run: a few turns later.
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(unhandled).to.deep.equal([]);
        const after = (JSON.parse((await served.request('/refine')).text) as { refinements: number })
          .refinements;
        expect(after - before).to.equal(1);
      });
    });
  }
});
