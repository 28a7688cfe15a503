/**
 * The example app as two processes behind one Redis, as a deployment runs it: `node server.js`
 * twice, with REDIS_URL, each on its own port. A page open on the first process shows the count
 * that a POST to the second one publishes: the topic reaches the sockets of every process.
 *
 * Needs Chromium (see browser.test.ts), Debian's redis-server (test/support/redis-server.ts) and
 * the built package (`npm run build`, which `npm test` runs first). Without Chromium or Redis the
 * test is skipped, except under CI=true, where it fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import {
  INSTALL_HINT,
  redisAvailable,
  startRedis,
  type RedisServer,
} from '../../../test/support/redis-server';
import { CHROMIUM, launchChromium } from './support';

const SERVER = path.join(__dirname, '../server.js');

/** `node server.js` with PORT=0; resolves with its origin once it says it listens. */
function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, ...env, PORT: '0', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in 20 s:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/localhost:(\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({ child, origin: `http://127.0.0.1:${match[1]}` });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

describe('example app: two processes behind one Redis, in Chromium', function () {
  this.timeout(60_000);
  let redis: RedisServer | undefined;
  const servers: ChildProcess[] = [];
  let browser: Browser | undefined;

  before(function () {
    const missing = [
      existsSync(CHROMIUM) ? undefined : `Chromium not found at ${CHROMIUM}`,
      redisAvailable() ? undefined : INSTALL_HINT,
    ].filter(Boolean);
    if (missing.length === 0) return;
    if (process.env.CI) throw new Error(missing.join('; '));
    console.warn(`  skipping the two-process test: ${missing.join('; ')}`);
    this.skip();
  });

  after(async () => {
    await browser?.close();
    for (const child of servers) child.kill();
    await redis?.stop();
  });

  it('a POST to one process raises the count a page open on the other shows', async () => {
    redis = await startRedis();
    const [first, second] = await Promise.all([
      startServer({ REDIS_URL: redis.url }),
      startServer({ REDIS_URL: redis.url }),
    ]);
    servers.push(first.child, second.child);

    browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(first.origin);
    // The page shows a number once its socket, on the first process, has its first message.
    await page.waitForFunction(() => /^\d+$/.test(document.getElementById('count')!.textContent!));

    // Each process keeps its own count; what the page shows is what the second one published.
    const raised = (await (await fetch(`${second.origin}/counter`, { method: 'POST' })).json()) as {
      count: number;
    };
    await page.waitForFunction(
      (n) => document.getElementById('count')!.textContent === n,
      String(raised.count),
      { timeout: 10_000 },
    );
    const shownOnFirst = await page.locator('#count').textContent();
    const firstOwn = (await (await fetch(`${first.origin}/counter`)).json()) as { count: number };
    expect(shownOnFirst).to.equal(String(raised.count));
    // The first process served no POST: the number came from the other one, through Redis.
    expect(firstOwn.count).to.equal(0);
  });
});
