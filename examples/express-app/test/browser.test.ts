/**
 * The example in a real browser: Debian's Chromium, driven by playwright-core, loads the legacy
 * page GET /contact, fills the form in and submits it (the POST-only endpoint's answer must be the
 * page the browser shows); follows the live activity over /feed with its own EventSource, through
 * a dropped connection; and counts over the /counter WebSocket.
 *
 * Needs Chromium at /usr/bin/chromium (or CHROMIUM_PATH): `apt-get update && apt-get install -y
 * chromium` on Debian or Ubuntu; .ci/run does it. Without it the test is skipped, except under
 * CI=true, where it fails.
 */
import http from 'node:http';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import type { EndpointsMiddleware } from '../../../src';
import { CHROMIUM, createApp, DEFAULT_TOKEN, launchChromium, silentLogger } from './support';

describe('the example in Chromium (playwright-core)', function () {
  this.timeout(60_000);
  let server: http.Server | undefined;
  let browser: Browser | undefined;
  let baseUrl: string;

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      const hint = `Chromium not found at ${CHROMIUM}: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)`;
      if (process.env.CI) throw new Error(hint);
      console.warn(`  skipping the browser test. ${hint}`);
      this.skip();
    }
    const app = await createApp({ logger: silentLogger() });
    server = http.createServer(app);
    (app.locals.endpoints as EndpointsMiddleware).attach(server);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    if (server) await new Promise((resolve) => server!.close(resolve));
  });

  it('submits the form and shows the endpoint’s "Thanks, …" page', async () => {
    const page = await browser!.newPage();
    try {
      await page.goto(`${baseUrl}/contact`);
      expect(await page.title()).to.equal('Contact');

      await page.getByLabel('Name').fill('Ada <Lovelace>');
      await page.getByLabel('Message').fill('Hello from Chromium');
      // The form page and the answer share the URL /contact: wait for the POST's response itself.
      const [response] = await Promise.all([
        page.waitForResponse(
          (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/contact',
        ),
        page.getByRole('button', { name: 'Send' }).click(),
      ]);
      expect(response.status()).to.equal(200);

      // Escaped by the endpoint, so the browser shows the name as text, brackets included.
      const heading = page.locator('h1', { hasText: 'Thanks' });
      await heading.waitFor();
      expect(await heading.textContent()).to.equal('Thanks, Ada <Lovelace>');
      expect(await page.textContent('body')).to.include('19 characters');
      if (process.env.SCREENSHOT)
        await page.screenshot({ path: path.join(os.tmpdir(), 'contact-thanks.png') });
    } finally {
      await page.close();
    }
  });

  /** POST /api/users from outside the browser, as another client would. */
  async function createUser(name: string): Promise<void> {
    const response = await fetch(`${baseUrl}/api/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEFAULT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, email: `${name.replace(/\W/g, '').toLowerCase()}@example.com` }),
    });
    expect(response.status).to.equal(201);
  }

  it('shows users’ activity live over /feed, and resumes after a dropped connection, nothing twice', async () => {
    const resumedFrom: (string | undefined)[] = [];
    const noteResume = (req: http.IncomingMessage) => {
      if (req.url === '/feed') resumedFrom.push(req.headers['last-event-id'] as string | undefined);
    };
    server!.on('request', noteResume);
    const page = await browser!.newPage();
    const shown = (text: string) =>
      page.waitForFunction(
        (wanted) => [...document.querySelectorAll('#feed li')].some((li) => li.textContent === wanted),
        text,
      );
    try {
      await page.goto(baseUrl);
      // Chromium's own EventSource, opened by the page's script (a global of the page).
      await page.waitForFunction('feed.readyState === EventSource.OPEN');
      await createUser('Live One');
      await shown('Live One created');
      const seenId = await page.$eval('#feed li', (li) => (li as HTMLElement).dataset.id);

      // The connection drops (a proxy, a network change); meanwhile another user is created.
      server!.closeAllConnections();
      await createUser('While Away');
      await shown('While Away created');

      // The browser came back with the id of the last event it had, and got only what it missed.
      expect(resumedFrom.slice(-1)).to.deep.equal([seenId]);
      const items = await page.$$eval('#feed li', (lis) =>
        lis.map((li) => ({ id: (li as HTMLElement).dataset.id, text: li.textContent })),
      );
      expect(new Set(items.map((item) => item.id)).size).to.equal(items.length);
      expect(items.filter((item) => item.text === 'Live One created')).to.have.length(1);
    } finally {
      server!.off('request', noteResume);
      await page.close();
    }
  });

  it('counts live over the /counter WebSocket: a click sends, every open page receives', async () => {
    const [first, second] = [await browser!.newPage(), await browser!.newPage()];
    try {
      await first.goto(baseUrl);
      await second.goto(baseUrl);
      const count = (page: typeof first) => page.locator('#count');
      // The page shows a number once the socket's first message has arrived.
      await first.waitForFunction(() => /^\d+$/.test(document.getElementById('count')!.textContent!));
      await second.waitForFunction(() => /^\d+$/.test(document.getElementById('count')!.textContent!));
      const start = Number(await count(first).textContent());
      await first.getByRole('button', { name: '+1' }).click();
      const raised = String(start + 1);
      await first.waitForFunction((n) => document.getElementById('count')!.textContent === n, raised);
      await second.waitForFunction((n) => document.getElementById('count')!.textContent === n, raised);
      expect(await count(second).textContent()).to.equal(raised);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
