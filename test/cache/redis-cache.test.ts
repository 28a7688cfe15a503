/**
 * `redisCache()` on a real Redis (redis-server started by the test on a free port): entries come back
 * byte for byte and expire with their ttl, a lock is one holder's until it unlocks or it expires,
 * invalidate drops a route's or a tag's entries and no others, and while Redis is away requests go on
 * uncached. Then two processes share one cache: a stale entry hit by a burst of 100 requests split
 * between them is refreshed once, by one handler run in one of them.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { createClient } from 'redis';
import { readFileSync } from 'node:fs';
import { redisCache, type CacheEntry, type RedisCacheStore } from '../../src';
import { redisAvailable, INSTALL_HINT, startRedis, type RedisServer } from '../support/redis-server';
import { snippet } from '../support/readme-snippets';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const entryOf = (body: Uint8Array | string, storedAt = Date.now()): CacheEntry => ({
  status: 200,
  headers: [
    ['content-type', 'application/octet-stream'],
    ['x-note', 'é ✓'],
  ],
  body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
  storedAt,
});
const labels = (pattern: string, ...tags: string[]) => ({ pattern, tags });

describe('redisCache()', function () {
  let redis: RedisServer | undefined;
  const stores: RedisCacheStore[] = [];
  const store = (prefix?: string) => {
    const made = redisCache({ url: redis!.url, prefix });
    stores.push(made);
    return made;
  };
  before(async function () {
    if (!redisAvailable()) {
      console.log(`      skipped: ${INSTALL_HINT}`);
      return this.skip();
    }
    redis = await startRedis();
  });
  afterEach(() => Promise.all(stores.splice(0).map((made) => made.close())));
  after(() => redis?.stop());

  it('keeps an entry byte for byte, every byte value and invalid UTF-8 included', async () => {
    const cache = store();
    const body = new Uint8Array(70_000);
    for (let i = 0; i < body.length; i++) body[i] = (i * 7) % 256;
    body.set([0xff, 0xfe, 0xc3, 0x28, 0x00], 0);
    const entry = entryOf(body, 1_700_000_000_123);
    await cache.set('bytes', entry, 10_000, labels('/files/[name]'));
    const found = await cache.get('bytes');
    expect(found).to.deep.include({ status: 200, headers: entry.headers, storedAt: 1_700_000_000_123 });
    expect(Buffer.from(found!.body).equals(Buffer.from(body))).to.equal(true);
    expect(await cache.get('missing')).to.equal(undefined);
    // Another store on the same Redis, another process say, reads the same entry.
    expect((await store().get('bytes'))?.body.byteLength).to.equal(70_000);
  });

  it('drops an entry when its ttl runs out', async () => {
    const cache = store();
    await cache.set('short', entryOf('soon gone'), 150, labels('/short'));
    expect(await cache.get('short')).to.not.equal(undefined);
    await wait(300);
    expect(await cache.get('short')).to.equal(undefined);
  });

  it('gives a lock to one holder, to another once unlocked or expired, and never unlocks another holder', async () => {
    const one = store();
    const other = store();
    expect(await one.lock('k', 10_000)).to.equal(true);
    expect(await other.lock('k', 10_000)).to.equal(false);
    expect(await one.lock('k', 10_000), 'not twice by the same store either').to.equal(false);
    await other.unlock('k');
    expect(await other.lock('k', 10_000), 'an unlock by a store that does not hold it does nothing').to.equal(
      false,
    );
    await one.unlock('k');
    expect(await other.lock('k', 10_000)).to.equal(true);
    await other.unlock('k');

    expect(await one.lock('expiring', 100)).to.equal(true);
    await wait(250);
    expect(await other.lock('expiring', 10_000), 'taken once expired').to.equal(true);
    await one.unlock('expiring');
    expect(await store().lock('expiring', 10_000), "the late unlock left the new holder's lock").to.equal(
      false,
    );
  });

  it('invalidates by route pattern and by tag, counting what it dropped, and nothing of other routes or apps', async () => {
    const cache = store();
    const neighbour = store('another-app:cache');
    await cache.set('a1', entryOf('a1'), 10_000, labels('/api/users/[id]', 'users'));
    await cache.set('a2', entryOf('a2'), 10_000, labels('/api/users/[id]', 'users', 'people'));
    await cache.set('b', entryOf('b'), 10_000, labels('/api/teams', 'people'));
    await cache.set('c', entryOf('c'), 10_000, labels('/news'));
    await neighbour.set('a1', entryOf('theirs'), 10_000, labels('/api/users/[id]', 'users'));

    expect(await cache.invalidate('/api/users/[id]')).to.equal(2);
    expect(await cache.get('a1')).to.equal(undefined);
    expect(await cache.get('a2')).to.equal(undefined);
    expect(await cache.get('b')).to.not.equal(undefined);
    expect(await cache.invalidate('users'), "the tag's entries are gone already").to.equal(0);
    expect(await cache.invalidate('people')).to.equal(1);
    expect(await cache.get('b')).to.equal(undefined);
    expect(await cache.get('c')).to.not.equal(undefined);
    expect(await cache.invalidate('nothing-of-that-name')).to.equal(0);
    expect(new TextDecoder().decode((await neighbour.get('a1'))!.body)).to.equal('theirs');

    // Kept again after an invalidation, an entry is findable again.
    await cache.set('a1', entryOf('a1 again'), 10_000, labels('/api/users/[id]', 'users'));
    expect(await cache.invalidate('users')).to.equal(1);
  });

  it('indexes live as long as their longest entry, and forget expired members on the next set', async () => {
    const cache = store('indexes');
    const raw = await createClient({ url: redis!.url }).connect();
    try {
      await cache.set('old', entryOf('old'), 100, labels('/r', 't'));
      await cache.set('long', entryOf('long'), 60_000, labels('/r', 't'));
      expect(await raw.pTTL('indexes:pattern:/r')).to.be.greaterThan(59_000);
      await wait(200);
      await cache.set('new', entryOf('new'), 100, labels('/r', 't'));
      expect((await raw.zRange('indexes:tag:t', 0, -1)).sort()).to.deep.equal([
        'indexes:entry:long',
        'indexes:entry:new',
      ]);
      expect(await raw.pTTL('indexes:tag:t'), 'a shorter entry does not shorten the index').to.be.greaterThan(
        59_000,
      );
      // No KEYS scan: invalidate reads the index.
      expect(await cache.invalidate('t')).to.equal(2);
      expect(await raw.exists(['indexes:tag:t', 'indexes:entry:long'])).to.equal(0);
    } finally {
      raw.destroy();
    }
  });

  it('while Redis is away, misses and keeps nothing, telling onError; invalidate rejects', async () => {
    const errors: unknown[] = [];
    const cache = redisCache({ url: 'redis://127.0.0.1:1', onError: (error) => errors.push(error) });
    stores.push(cache);
    expect(await cache.get('k')).to.equal(undefined);
    await cache.set('k', entryOf('k'), 1000, labels('/k'));
    expect(await cache.lock('k', 1000)).to.equal(false);
    await cache.unlock('k');
    expect(errors.length).to.be.greaterThan(0);
    let refused: unknown;
    await cache.invalidate('/k').catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(Error);
  });
});

describe('redisCache() as docs/caching.md shows it', () => {
  it('is the example the docs give', () => {
    const shown = snippet('redis-cache').code;
    expect(shown).to.include("import { mountEndpoints, redisCache } from 'express-file-endpoints';");
    expect(shown).to.include('cache: { store: redisCache({ url: process.env.REDIS_URL }) }');
    expect(readFileSync(path.join(__dirname, 'cache-server.ts'), 'utf8')).to.include(
      'cache: { store: redisCache({ url: process.env.REDIS_URL }) }',
    );
  });
});

interface Child {
  port: number;
  ask<T>(type: string): Promise<T>;
  close(): Promise<void>;
}

function forkServer(url: string): Promise<Child> {
  const child: ChildProcess = fork(path.join(__dirname, 'cache-server.ts'), {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, REDIS_URL: url },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the cache server exited with ${code}`)));
    child.once('message', (message: { type: string; port: number }) => {
      resolve({
        port: message.port,
        ask: (type) =>
          new Promise((answer) => {
            child.once('message', answer as never);
            child.send({ type });
          }),
        async close() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.removeAllListeners('exit');
          const exited = new Promise((done) => child.once('exit', done));
          child.send({ type: 'close' });
          const cut = setTimeout(() => child.kill('SIGKILL'), 3000);
          await exited;
          clearTimeout(cut);
        },
      });
    });
  });
}

describe('redisCache(), two processes sharing one cache', function () {
  let redis: RedisServer | undefined;
  let servers: Child[] = [];
  before(async function () {
    if (!redisAvailable()) {
      console.log(`      skipped: ${INSTALL_HINT}`);
      return this.skip();
    }
    redis = await startRedis();
    servers = await Promise.all([forkServer(redis.url), forkServer(redis.url)]);
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await redis?.stop();
  });

  const totalRuns = async () => {
    const counts = await Promise.all(
      servers.map((server) => server.ask<{ runs: Record<string, number> }>('runs')),
    );
    return counts.reduce((sum, { runs }) => sum + (runs.news ?? 0), 0);
  };

  it('refreshes a stale entry once for a burst of 100 requests split between them, answering every one', async () => {
    const [one, two] = servers as [Child, Child];
    const get = async (server: Child) => {
      const response = await fetch(`http://127.0.0.1:${server.port}/news`);
      return {
        status: response.status,
        age: Number(response.headers.get('age')),
        body: await response.text(),
      };
    };
    // Each process loads its modules and connects to Redis first, so the two reads below come within maxAge.
    await Promise.all(
      servers.map((server) => fetch(`http://127.0.0.1:${server.port}/profile`).then((r) => r.text())),
    );
    const first = await get(one);
    expect(first.status).to.equal(200);
    const fromOther = await get(two);
    expect(fromOther.body, "the other process answers with the first's entry").to.equal(first.body);
    expect(fromOther.age, 'read while fresh, so no refresh runs yet').to.equal(0);
    expect(await totalRuns(), 'one run fills the shared entry').to.equal(1);

    await wait(1100);
    const started = Date.now();
    const burst = await Promise.all(Array.from({ length: 100 }, (_, i) => get(i % 2 ? two : one)));
    const took = Date.now() - started;
    expect(burst.map((answer) => answer.status)).to.deep.equal(Array(100).fill(200));
    // Both processes served the stale entry; an answer after the refresh may be the new one.
    for (const side of [0, 1]) {
      const stale = burst.filter(
        (answer, i) => i % 2 === side && answer.age >= 1 && answer.body === first.body,
      );
      expect(stale.length, `process ${side + 1} served the stale entry`).to.be.greaterThan(0);
    }
    await wait(200);
    expect(
      await totalRuns(),
      `one refresh for the burst, in one of the two processes (the burst took ${took} ms)`,
    ).to.equal(2);
    const after = await Promise.all([get(one), get(two)]);
    expect(
      after.map((answer) => answer.age),
      'both serve the refreshed entry',
    ).to.deep.equal([0, 0]);
    expect(await totalRuns()).to.equal(2);
  });
});
