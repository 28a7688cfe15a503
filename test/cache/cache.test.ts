/**
 * `export const cache`: Cache-Control and Vary for CDNs and browsers, and with the mount's `cache` option
 * answers kept in memory: a hit runs no handler, a stale answer is served at once while one request refreshes
 * it, a failing handler is stood in for within staleIfError, keys follow the query (in any order), the
 * varied headers and the key function, cookies and Authorization are never cached, and ETags still give 304s.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { mountEndpoints, type CacheStore, type EndpointsMiddleware } from '../../src';
import { failing, runs } from '../fixtures/cache-app/app/_lib/counter';
import { hostsWithFetch, type Served } from '../integration/hosts';
import { snippet } from '../support/readme-snippets';

const DIR = path.join(__dirname, '../fixtures/cache-app/app');
const get = async (endpoints: EndpointsMiddleware, url: string, headers: Record<string, string> = {}) => {
  const response = await endpoints.fetch(new Request(`http://localhost${url}`, { headers }));
  return { status: response.status, headers: response.headers, body: (await response.text()) as string };
};
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('export const cache as docs/caching.md shows it', () => {
  it("is the fixture's news endpoint's export", () => {
    const shown = snippet('cache-endpoint')
      .code.split('\n')
      .find((line) => line.startsWith('export const cache'));
    expect(readFileSync(path.join(DIR, 'news/endpoint.ts'), 'utf8')).to.include(shown);
  });
});

describe('export const cache', () => {
  beforeEach(() => {
    for (const name of Object.keys(runs)) delete runs[name];
    failing.flaky = false;
  });

  it('without a store, marks the answer for shared caches and runs the handler every time', async () => {
    const endpoints = mountEndpoints({ dir: DIR });
    const first = await get(endpoints, '/news');
    expect(first.headers.get('cache-control')).to.equal('public, max-age=1, stale-while-revalidate=60');
    expect(first.headers.get('vary')).to.equal('accept-language');
    await get(endpoints, '/news');
    expect(runs.news).to.equal(2);
  });

  it('with a store, answers a fresh hit without the handler, keyed by the query in any order and the varied headers', async () => {
    const endpoints = mountEndpoints({ dir: DIR, cache: {} });
    const first = await get(endpoints, '/news?b=2&a=1');
    const again = await get(endpoints, '/news?a=1&b=2');
    expect(again.body).to.equal(first.body);
    expect(again.headers.get('age')).to.equal('0');
    expect(runs.news).to.equal(1);
    const french = await get(endpoints, '/news?a=1&b=2', { 'accept-language': 'fr' });
    expect(JSON.parse(french.body)).to.include({ lang: 'fr', n: 2 });
    await get(endpoints, '/news?a=1');
    expect(runs.news).to.equal(3);
  });

  it('serves a stale answer at once and refreshes it once, for a burst of requests', async () => {
    const endpoints = mountEndpoints({ dir: DIR, cache: {} });
    await get(endpoints, '/news');
    await wait(1100);
    const burst = await Promise.all(Array.from({ length: 100 }, () => get(endpoints, '/news')));
    expect(new Set(burst.map((r) => JSON.parse(r.body).n))).to.deep.equal(new Set([1]));
    await wait(60);
    expect(runs.news, 'one refresh for the burst').to.equal(2);
    expect(JSON.parse((await get(endpoints, '/news')).body).n).to.equal(2);
  });

  it('runs the handler once for a burst of misses', async () => {
    const endpoints = mountEndpoints({ dir: DIR, cache: {} });
    const burst = await Promise.all(Array.from({ length: 50 }, () => get(endpoints, '/news?burst=1')));
    expect(burst.every((r) => r.status === 200)).to.equal(true);
    expect(runs.news).to.equal(1);
  });

  it("keeps one answer per key function's value", async () => {
    const endpoints = mountEndpoints({ dir: DIR, cache: {} });
    await get(endpoints, '/profile', { 'x-user': 'ada' });
    await get(endpoints, '/profile', { 'x-user': 'bob' });
    const ada = await get(endpoints, '/profile', { 'x-user': 'ada' });
    expect(JSON.parse(ada.body)).to.deep.equal({ n: 1, user: 'ada' });
    expect(runs.profile).to.equal(2);
  });

  it('stands a stale answer in for a failing handler within staleIfError', async () => {
    const endpoints = mountEndpoints({ dir: DIR, cache: {}, onError: () => {} });
    await get(endpoints, '/flaky');
    await wait(1100);
    failing.flaky = true;
    const stale = await get(endpoints, '/flaky');
    expect(stale.status).to.equal(200);
    expect(JSON.parse(stale.body)).to.deep.equal({ n: 1 });
    expect(runs.flaky).to.equal(2);
  });

  it('never caches an answer with Set-Cookie, nor a request with Authorization', async () => {
    const endpoints = mountEndpoints({ dir: DIR, cache: {} });
    const cookie = await get(endpoints, '/cookie');
    expect(cookie.headers.get('cache-control')).to.equal(null);
    await get(endpoints, '/cookie');
    expect(runs.cookie).to.equal(2);
    const authorized = await get(endpoints, '/profile', { authorization: 'Bearer x' });
    expect(authorized.headers.get('cache-control')).to.equal(null);
    await get(endpoints, '/profile', { authorization: 'Bearer x' });
    expect(runs.profile).to.equal(2);
  });

  it("answers a stale HEAD from the GET's entry, and leaves the refresh to a GET", async () => {
    const endpoints = mountEndpoints({ dir: DIR, cache: {} });
    await get(endpoints, '/news?head=1');
    await wait(1100);
    const head = await endpoints.fetch(new Request('http://localhost/news?head=1', { method: 'HEAD' }));
    expect(head.status).to.equal(200);
    await wait(60);
    expect(runs.news, 'no refresh from a HEAD').to.equal(1);
  });

  it("streams an answer too large to keep, and keeps none with the handler's own Cache-Control", async () => {
    const endpoints = mountEndpoints({ dir: DIR, cache: {} });
    for (let i = 0; i < 2; i++) {
      const big = await endpoints.fetch(new Request('http://localhost/big'));
      expect((await big.arrayBuffer()).byteLength).to.equal(1024 * 1024 + 10);
    }
    expect(runs.big).to.equal(2);
    const own = await get(endpoints, '/own-policy');
    expect(own.headers.get('cache-control')).to.equal('public, max-age=0');
    await get(endpoints, '/own-policy');
    expect(runs.own).to.equal(2);
  });

  it('answers through the handler when the store fails', async () => {
    const failing = Promise.reject(new Error('the store is down'));
    failing.catch(() => {});
    const store = {
      get: () => failing,
      set: () => failing,
      lock: () => failing,
      unlock: () => failing,
      invalidate: () => failing,
    } as unknown as CacheStore;
    const endpoints = mountEndpoints({ dir: DIR, cache: { store } });
    const answer = await get(endpoints, '/news?down=1');
    expect(answer.status).to.equal(200);
    expect(runs.news).to.equal(1);
  });

  it('gives a cached answer its ETag and a 304, and drops what invalidate() names', async () => {
    const endpoints = mountEndpoints({ dir: DIR, cache: {}, etag: true });
    const first = await get(endpoints, '/news');
    const etag = first.headers.get('etag')!;
    expect(etag).to.be.a('string');
    expect((await get(endpoints, '/news', { 'if-none-match': etag })).status).to.equal(304);
    expect(runs.news).to.equal(1);
    expect(await endpoints.invalidate('news')).to.equal(1);
    await get(endpoints, '/news');
    expect(runs.news).to.equal(2);
    expect(await endpoints.invalidate('/news')).to.equal(1);
  });
});

for (const host of hostsWithFetch) {
  describe(`export const cache on ${host.name}`, () => {
    let served: Served;
    before(async () => (served = await host.start({ dir: DIR, mount: { cache: {}, etag: true } })));
    after(() => served?.close());
    beforeEach(() => {
      for (const name of Object.keys(runs)) delete runs[name];
    });

    it('answers hits without the handler, a stale burst with one refresh, and 304s to its ETag', async () => {
      const first = await served.request('/news?host=1');
      expect(first.headers['cache-control']).to.equal('public, max-age=1, stale-while-revalidate=60');
      const hit = await served.request('/news?host=1');
      expect(hit.text).to.equal(first.text);
      const etag = hit.headers.etag as string;
      expect((await served.request('/news?host=1', { headers: { 'if-none-match': etag } })).status).to.equal(
        304,
      );
      await wait(1100);
      // The stale answer goes out at once while one request refreshes it; the rest get it or the new one.
      const burst = await Promise.all(Array.from({ length: 20 }, () => served.request('/news?host=1')));
      const counts = burst.map((reply) => (JSON.parse(reply.text) as { n: number }).n);
      expect(counts).to.include((JSON.parse(first.text) as { n: number }).n);
      expect(new Set(counts).size).to.be.at.most(2);
      await wait(80);
      // On Bun and Deno the fixture's counter lives in their process: the answers show the refresh instead.
      const after = JSON.parse((await served.request('/news?host=1')).text) as { n: number };
      expect(after.n).to.equal(JSON.parse(first.text).n + 1);
    });

    // On the Node hosts no Request is built for the cache step: what keys a hit is read from Node's request.
    it('keys hits by the query in any order and the varied headers, and skips a request with Authorization', async () => {
      const n = (reply: { text: string }) => (JSON.parse(reply.text) as { n: number }).n;
      const first = await served.request('/news?keyed=1&b=2&a=1');
      expect(n(await served.request('/news?keyed=1&a=1&b=2'))).to.equal(n(first));
      const french = await served.request('/news?keyed=1&a=1&b=2', { headers: { 'accept-language': 'fr' } });
      expect(JSON.parse(french.text)).to.include({ lang: 'fr' });
      expect(n(french)).to.not.equal(n(first));
      const frenchAgain = await served.request('/news?a=1&keyed=1&b=2', {
        headers: { 'accept-language': 'fr' },
      });
      expect(n(frenchAgain)).to.equal(n(french));
      const authorized = await served.request('/news?keyed=1&a=1&b=2', {
        headers: { authorization: 'Bearer x' },
      });
      expect(authorized.headers.age).to.equal(undefined);
      expect(n(authorized)).to.not.equal(n(first));
    });

    it('keys by the key function, and serves hits behind a folder middleware that reads the Request', async () => {
      const user = (name: string) => served.request('/profile', { headers: { 'x-user': name } });
      const ann = await user('ann');
      expect((await user('ann')).text).to.equal(ann.text);
      expect(JSON.parse((await user('bob')).text)).to.include({ user: 'bob' });
      const guarded = await served.request('/guarded');
      expect((await served.request('/guarded')).text).to.equal(guarded.text);
      expect((await served.request('/guarded', { headers: { 'x-blocked': '1' } })).status).to.equal(403);
    });
  });
}
