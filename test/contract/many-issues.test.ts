/**
 * An invalid request's answer stays small whatever was sent: on every host, a body with an issue
 * per item (100,000 numbers where strings are expected) gets a 400 listing the first 100 issues,
 * counting the rest, with a one-line `detail`, where it was a document about 75 times the
 * request's size that took seconds to build.
 */
import path from 'node:path';
import { expect } from 'chai';
import { z } from 'zod';
import { defineHandler } from '../../src';
import { createTestRequest } from '../../src/testing';
import { hostsWithFetch, type Served } from '../integration/hosts';

const DIR = path.join(__dirname, '../fixtures/contract-edges-app/app');
const ITEMS = 100_000;

describe('contracts: an invalid request with an issue per item', function () {
  this.timeout(20_000);
  const body = JSON.stringify({ items: new Array<number>(ITEMS).fill(0) });

  for (const host of hostsWithFetch) {
    describe(host.name, () => {
      let served: Served;
      const reported: unknown[] = [];
      before(async () => {
        served = await host.start({ dir: DIR, onError: (error) => void reported.push(error) });
      });
      after(() => served?.close());

      it('gets the first 100 issues and the count of the rest, in an answer smaller than the request', async () => {
        const res = await served.request('/items', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        expect(res.status).to.equal(400);
        expect(res.text.length).to.be.below(body.length / 10);
        const problem = JSON.parse(res.text) as {
          detail: string;
          issues: { path: string; pointer: string }[];
          omittedIssues: number;
        };
        expect(Object.keys(problem)).to.deep.equal([
          'type',
          'title',
          'status',
          'detail',
          'issues',
          'omittedIssues',
        ]);
        expect(problem.issues).to.have.length(100);
        expect(problem.issues[0]).to.include({ path: 'body.items[0]', pointer: '/items/0' });
        expect(problem.issues[99]).to.include({ path: 'body.items[99]', pointer: '/items/99' });
        expect(problem.omittedIssues).to.equal(ITEMS - 100);
        // One short line: the count and the first paths (its wording is pinned in messages.test.ts).
        expect(problem.detail).to.match(/^100000 issues with the request: body\.items\[0\], /);
        expect(problem.detail.length).to.be.below(200);
        expect(reported).to.deep.equal([]);
      });
    });
  }

  it("more issues than Zod's asynchronous run can carry: still a 400, from its synchronous run", async () => {
    // Zod's `safeParseAsync`, which the library prefers, overflows the stack on so many issues.
    const items = 250_000;
    const handler = defineHandler({ body: z.object({ items: z.array(z.string()) }) }, () => new Response());
    const res = await handler(
      createTestRequest('/items', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ items: new Array<number>(items).fill(0) }),
      }),
    );
    expect(res.status).to.equal(400);
    const problem = (await res.json()) as { issues: unknown[]; omittedIssues: number };
    expect([problem.issues.length, problem.omittedIssues]).to.deep.equal([100, items - 100]);
  });
});
