/**
 * The ETags and freshness the library gives hosts without Express's own (Connect, node:http, `.fetch`
 * with the `etag` option) against Express's: its `etag` package's tags for the same bytes, and its
 * `fresh` package's decision for the same request and response headers. Both packages are taken from
 * where Express 5 resolves them, so this compares with what Express itself does.
 */
import { createRequire } from 'node:module';
import { expect } from 'chai';
import fc from 'fast-check';
import { formatEntityTag, isFresh, webEntityTag } from '../../src/dispatch';
import { createHash } from 'node:crypto';

const fromExpress = createRequire(require.resolve('express'));
const expressEtag = fromExpress('etag') as (body: Buffer, options: { weak: boolean }) => string;
const expressFresh = fromExpress('fresh') as (
  reqHeaders: Record<string, string | undefined>,
  resHeaders: Record<string, string | undefined>,
) => boolean;

const TAGS = ['"a"', 'W/"a"', '"b"', 'W/"b"', '"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"', '*'];
const DATES = [
  'Tue, 01 Apr 2025 10:00:00 GMT',
  'Wed, 02 Apr 2025 10:00:00 GMT',
  'Mon, 31 Mar 2025 10:00:00 GMT',
  'not a date',
];

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const tagList = fc
  .array(fc.constantFrom(...TAGS), { minLength: 1, maxLength: 3 })
  .chain((tags) => fc.constantFrom(tags.join(','), tags.join(', '), tags.join(' ,  ')));

describe('conditional requests: the same answers as Express', () => {
  it("ETags: the format of Express's etag package, weak and strong, empty bodies included", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.boolean(), async (bytes, weak) => {
        const body = Buffer.from(bytes);
        const expected = expressEtag(body, { weak });
        const sha1 = createHash('sha1').update(body).digest('base64');
        expect(formatEntityTag(body.length, sha1, weak)).to.equal(expected);
        expect(await webEntityTag(bytes, weak)).to.equal(expected);
      }),
      { numRuns: 200 },
    );
  });

  it("freshness: the decision of Express's fresh package, for GET with a 200", () => {
    fc.assert(
      fc.property(
        maybe(tagList),
        maybe(fc.constantFrom(...DATES)),
        maybe(fc.constantFrom('no-cache', 'max-age=0', 'public, no-cache', 'no-cache=x')),
        maybe(fc.constantFrom(...TAGS.filter((tag) => tag !== '*'))),
        maybe(fc.constantFrom(...DATES)),
        (noneMatch, modifiedSince, cacheControl, etag, lastModified) => {
          const request: Record<string, string | undefined> = {
            'if-none-match': noneMatch,
            'if-modified-since': modifiedSince,
            'cache-control': cacheControl,
          };
          const expected = expressFresh(request, { etag, 'last-modified': lastModified });
          expect(isFresh('GET', 200, (name) => request[name], etag, lastModified)).to.equal(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('only a GET or HEAD answered 2xx or 304 can be fresh', () => {
    const header = (name: string) => (name === 'if-none-match' ? '"a"' : undefined);
    for (const [method, status, fresh] of [
      ['GET', 200, true],
      ['HEAD', 204, true],
      ['GET', 304, true],
      ['POST', 200, false],
      ['GET', 404, false],
      ['GET', 301, false],
    ] as const) {
      expect(isFresh(method, status, header, '"a"', undefined), `${method} ${status}`).to.equal(fresh);
    }
  });
});
