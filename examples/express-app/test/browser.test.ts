/**
 * The contact form in a real browser: Debian's Chromium, driven by playwright-core, loads the
 * legacy page GET /contact, fills the form in and submits it; the POST-only endpoint's answer
 * must be the page the browser shows.
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
import { chromium, type Browser } from 'playwright-core';
import type { EndpointsMiddleware } from '../../../src';
import { createApp, silentLogger } from './support';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('example contact form in Chromium (playwright-core)', function () {
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

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Playwright gives the browser a fresh profile of its own (a --user-data-dir here would
      // clash with it). The networking flags stop Chromium calling outside hosts, which fails here.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
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
