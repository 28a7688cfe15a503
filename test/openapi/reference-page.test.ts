/**
 * `openapi: { ui }`: the interactive reference of the tree's document, Swagger UI from the app's own
 * swagger-ui-dist, in Debian's Chromium (playwright-core): it renders every operation of the fixture tree
 * under the Content-Security-Policy it is sent with (no violation), and a try-it-out call reaches the endpoint.
 * Its routes are the tree's own: a folder's middleware on its path guards the page and its files.
 *
 * Needs Chromium at /usr/bin/chromium (or CHROMIUM_PATH); without it the browser tests are skipped, except
 * under CI=true, where they fail. `SCREENSHOT=<file>` saves the page, for docs/openapi.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { mountEndpoints, type OpenAPIDocument } from '../../src';
import { launchChromium, requireChromium } from '../support/chromium';

const DIR = path.join(__dirname, '../fixtures/openapi-app/app');
const openapi = { path: '/openapi.json', ui: '/reference', onWarning: () => {} };
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

describe('openapi.ui: the reference page', () => {
  it('sends the page with its policy, and Swagger UI and the starter as files of the tree', async () => {
    const app = express();
    app.use('/v1', mountEndpoints({ dir: DIR, openapi }));
    const page = await request(app).get('/v1/reference').expect(200);
    expect(page.headers['content-type']).to.equal('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).to.include("script-src 'self'");
    expect(page.text).to.include('data-url="/v1/openapi.json"');
    expect(page.text).to.include('src="/v1/reference/swagger-ui-bundle.js"');
    expect(page.text).to.not.match(/<script>(?!<)/);
    const bundle = await request(app).get('/v1/reference/swagger-ui-bundle.js').expect(200);
    expect(bundle.headers['content-type']).to.match(/^(text|application)\/javascript/);
    expect(bundle.headers.etag).to.be.a('string');
    await request(app)
      .get('/v1/reference/swagger-ui.css')
      .expect('content-type', /^text\/css/);
    await request(app)
      .get('/v1/reference/init.js')
      .expect(200, /SwaggerUIBundle/);
  });

  it('is guarded by the middleware files of the folders on its path', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ee-reference-'));
    try {
      writeFileSync(path.join(root, 'package.json'), '{"type":"commonjs"}');
      mkdirSync(path.join(root, 'app/internal'), { recursive: true });
      mkdirSync(path.join(root, 'app/users'), { recursive: true });
      writeFileSync(
        path.join(root, 'app/internal/middleware.js'),
        "module.exports = (request, next) => request.headers.get('x-staff') ? next() : new Response('staff only', { status: 401 });",
      );
      writeFileSync(path.join(root, 'app/users/endpoint.js'), 'exports.GET = () => Response.json([]);');
      const endpoints = mountEndpoints({
        dir: path.join(root, 'app'),
        openapi: { path: '/internal/openapi.json', ui: '/internal/docs', onWarning: () => {} },
      });
      for (const asset of ['', '/init.js', '/swagger-ui-bundle.js']) {
        const refused = await endpoints.fetch(new Request(`http://localhost/internal/docs${asset}`));
        expect(refused.status, asset).to.equal(401);
        const allowed = await endpoints.fetch(
          new Request(`http://localhost/internal/docs${asset}`, { headers: { 'x-staff': '1' } }),
        );
        expect(allowed.status, asset).to.equal(200);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('says to install swagger-ui-dist where neither the tree nor the working folder has it', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ee-no-swagger-'));
    const cwd = process.cwd();
    try {
      mkdirSync(path.join(root, 'app/users'), { recursive: true });
      writeFileSync(path.join(root, 'package.json'), '{"type":"commonjs"}');
      writeFileSync(path.join(root, 'app/users/endpoint.js'), 'exports.GET = () => Response.json([]);');
      // Synchronous from here to the throw: no other test runs in this working folder.
      process.chdir(root);
      expect(() => mountEndpoints({ dir: path.join(root, 'app'), openapi })).to.throw(
        'npm install swagger-ui-dist',
      );
    } finally {
      process.chdir(cwd);
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a ui path that is not below the mount, or is the document', () => {
    expect(() => mountEndpoints({ dir: DIR, openapi: { ...openapi, ui: 'docs' } })).to.throw(
      TypeError,
      /openapi.ui/,
    );
    expect(() => mountEndpoints({ dir: DIR, openapi: { ...openapi, ui: '/openapi.json' } })).to.throw(
      TypeError,
      /openapi.ui/,
    );
  });

  describe('in Chromium', function () {
    this.timeout(60_000);
    let server: http.Server | undefined;
    let browser: Browser | undefined;
    let base: string;
    let operations: { path: string; method: string }[];

    before(async function () {
      requireChromium(this, "the reference page's browser test");
      const app = express();
      const endpoints = mountEndpoints({ dir: DIR, openapi });
      app.use(endpoints);
      const document = (await endpoints.openapi({ onWarning: () => {} })) as OpenAPIDocument & {
        paths: Record<string, Record<string, unknown>>;
      };
      operations = Object.entries(document.paths).flatMap(([route, item]) =>
        Object.keys(item)
          .filter((method) => METHODS.includes(method))
          .map((method) => ({ path: route, method })),
      );
      server = http.createServer(app);
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      if (server) await new Promise((resolve) => server!.close(resolve));
    });

    it('renders every operation of the tree, with no policy violation, and a try-it-out call reaches the endpoint', async () => {
      const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
      });
      const outside: string[] = [];
      page.on('request', (sent) => {
        if (!sent.url().startsWith(base) && !sent.url().startsWith('data:')) outside.push(sent.url());
      });
      await page.goto(`${base}/reference`);
      await page.locator('.opblock').first().waitFor();
      const shown = await page.locator('.opblock').evaluateAll((blocks) =>
        blocks.map((block) => ({
          method: block.querySelector('.opblock-summary-method')?.textContent?.toLowerCase() ?? '',
          path: block.querySelector('[data-path]')?.getAttribute('data-path') ?? '',
        })),
      );
      const key = (o: { path: string; method: string }) => `${o.method} ${o.path}`;
      expect(shown.map(key).sort()).to.deep.equal(operations.map(key).sort());
      if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: false });

      const block = page.locator('#operations-users-getUser');
      await block.locator('.opblock-summary').click();
      await block.locator('input[placeholder="id"]').fill('1');
      const [answer] = await Promise.all([
        page.waitForResponse((r) => new URL(r.url()).pathname === '/api/users/1'),
        block.locator('button.execute').click(),
      ]);
      expect(answer.status()).to.equal(200);
      await block.locator('.responses-wrapper .live-responses-table').waitFor();
      expect(
        await block.locator('.live-responses-table tbody .response-col_status').first().textContent(),
      ).to.include('200');
      expect(violations).to.deep.equal([]);
      expect(outside).to.deep.equal([]);
      await page.close();
    });
  });
});
