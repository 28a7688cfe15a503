/**
 * csrf(): a state-changing request from another site's page is refused with 403, through the app's error
 * handler, on every host (Express 5 and 4, Connect, node:http, `.fetch`, and Bun and Deno under
 * `npm run test:runtimes`). The hostile cases are the ones users of SvelteKit's and Hono's checks met:
 * no Origin, a `null` origin, sibling subdomains, a proxy that rewrites Host, methods in any case, and
 * HEAD and OPTIONS passing.
 */
import path from 'node:path';
import { expect } from 'chai';
import { csrf, mountEndpoints, type WebMiddleware } from '../../src';
import { readFileSync } from 'node:fs';
import { hostsWithFetch, type Served } from '../integration/hosts';
import { snippet } from '../support/readme-snippets';

const DIR = path.join(__dirname, '../fixtures/csrf-app/app');
/** A tree with no csrf() of its own, for the mount's `middleware` option. */
const PLAIN = path.join(__dirname, '../fixtures/app');

describe('csrf() as docs/middleware.md shows it', () => {
  it("is the fixture tree's root middleware, which the suite below runs on every host", () => {
    const fixture = readFileSync(path.join(DIR, 'middleware.ts'), 'utf8')
      .replace("'../../../../src'", "'express-file-endpoints'")
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('// Every') && !line.startsWith('// payment'));
    const shown = snippet('csrf-middleware')
      .code.split('\n')
      .filter((line) => line !== '' && !line.startsWith('// app/'));
    expect(fixture).to.deep.equal(shown);
  });
});

for (const host of hostsWithFetch) {
  describe(`csrf() on ${host.name}`, () => {
    let served: Served;
    before(async () => (served = await host.start({ dir: DIR })));
    after(() => served?.close());

    const send = (method: string, headers: Record<string, string>, route = '/account') =>
      served.request(route, {
        method,
        headers,
        body: ['POST', 'PUT', 'PATCH'].includes(method.toUpperCase()) ? 'x=1' : undefined,
      });

    it("passes the page's own requests: same-origin by Fetch Metadata, or by Origin alone", async () => {
      expect((await send('POST', { 'sec-fetch-site': 'same-origin', origin: served.url })).status).to.equal(
        200,
      );
      expect((await send('DELETE', { origin: served.url })).status).to.equal(200);
    });

    it("refuses another site's page with 403 through the app's error handler", async () => {
      const refused = await send('POST', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' });
      expect(refused.status).to.equal(403);
      // Server hosts have an error handler that answers in JSON; .fetch, Bun and Deno answer in plain text.
      expect(refused.text).to.match(/cross-site request may not change state/);
      const byOrigin = await send('PUT', { origin: 'https://evil.example' });
      expect(byOrigin.status).to.equal(403);
    });

    it('refuses every state-changing method, in any case, and lets GET, HEAD and OPTIONS through', async () => {
      const evil = { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' };
      for (const method of ['POST', 'put', 'patch', 'Delete', 'PROPFIND']) {
        expect((await send(method, evil)).status, method).to.equal(403);
      }
      for (const method of ['GET', 'HEAD', 'OPTIONS']) {
        expect((await send(method, evil)).status, method).to.be.oneOf([200, 204]);
      }
    });

    it('refuses a null origin, and a cross-site request that sends no Origin', async () => {
      expect((await send('POST', { origin: 'null' })).status).to.equal(403);
      expect((await send('POST', { 'sec-fetch-site': 'cross-site' })).status).to.equal(403);
    });

    it('passes a request with neither header: not from a browser', async () => {
      expect((await send('POST', {})).status).to.equal(200);
    });

    it('passes a listed origin; a sibling subdomain only as listed', async () => {
      const admin = await send('POST', {
        'sec-fetch-site': 'same-site',
        origin: 'https://admin.example.com',
      });
      expect(admin.status).to.equal(200);
      const sibling = await send('POST', {
        'sec-fetch-site': 'same-site',
        origin: 'https://blog.example.com',
      });
      expect(sibling.status).to.equal(403);
      const lookalike = await send('POST', { origin: 'https://admin.example.com.evil.example' });
      expect(lookalike.status).to.equal(403);
    });

    it('leaves an exempt route to its handler: a webhook from another site', async () => {
      const hook = await send(
        'POST',
        { 'sec-fetch-site': 'cross-site', origin: 'https://hooks.stripe.com' },
        '/webhooks/stripe',
      );
      expect(hook.status).to.equal(200);
      expect(hook.text).to.equal('received');
    });
  });
}

describe('csrf() behind a proxy that rewrites Host', () => {
  /** The public origin's page's request, as the proxy sends it on: with Host: localhost:3000. */
  const run = (middleware: WebMiddleware, headers: Record<string, string>) =>
    mountEndpoints({ dir: PLAIN, middleware: [middleware] }).fetch(
      new Request('http://localhost:3000/echo', {
        method: 'POST',
        headers: { origin: 'https://shop.example.com', ...headers },
        body: 'x',
      }),
    );

  it('trusts Fetch Metadata, which the browser computed against the public origin', async () => {
    expect((await run(csrf(), { 'sec-fetch-site': 'same-origin' })).status).to.equal(200);
  });

  it('by Origin alone, refuses the public origin until it is listed', async () => {
    expect((await run(csrf(), {})).status).to.equal(403);
    expect((await run(csrf({ origins: ['https://shop.example.com'] }), {})).status).to.equal(200);
  });

  it('refuses, at the call, an origin not written as browsers send it', () => {
    expect(() => csrf({ origins: ['https://shop.example.com/'] })).to.throw(
      TypeError,
      /write "https:\/\/shop.example.com"/,
    );
    expect(() => csrf({ origins: ['shop.example.com'] })).to.throw(TypeError, /is not an origin/);
  });
});
