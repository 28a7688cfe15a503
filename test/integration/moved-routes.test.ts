/**
 * A route moved from the app into the tree answers as the native route did, on every host:
 *   - a body sent whole gets the ETag the app's `etag` setting says (or the `etag` option's), and a
 *     fresh conditional GET or HEAD a 304, as Express's `res.send` gives them; streams get none;
 *   - the library's own refusals (400, 405, 413) reach the app's error handler, which answers them
 *     in the app's shape; only a bare node:http server and `.fetch` get the plain answers;
 *   - a method the file does not serve goes on to the app, so a path only partly moved keeps the
 *     app's own routes for its other methods, whether the tree is mounted before or after them;
 *   - a body the app's parser already read under its own limit is not refused again by the
 *     tree's default limit, while a limit the endpoint states still holds.
 * test/differential/ compares whole answers with native Express routes; this suite pins each
 * behaviour on Express 5, Express 4, Connect, node:http and `.fetch`.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import connect from 'connect';
import express5 from 'express';
import { mountEndpoints, type EndpointsMiddleware, type MountOptions } from '../../src';
import { httpRequest, listen, requestText, type Listening } from '../support/net';
import { hosts, hostsWithFetch, statusOf, type RunningHost, type Served } from './hosts';

const express4 = require('express4') as typeof express5;

const dir = path.join(__dirname, '../fixtures/moved-app/app');
const quiet = () => {};
const caught = (text: string) => (JSON.parse(text) as { caught: string }).caught;

/** The ETag Express's `etag` package gives these bytes (its format, written out here). */
function entityTag(text: string, weak: boolean): string {
  const bytes = Buffer.from(text);
  const hash = createHash('sha1').update(bytes).digest('base64').slice(0, 27);
  return `${weak ? 'W/' : ''}"${bytes.length.toString(16)}-${hash}"`;
}

/** One GET with its target exactly as written: no URL parser resolves or encodes it first. */
function sendAsWritten(port: number, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: target, agent: false });
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.end();
  });
}

const PARTLY_MOVED_HOSTS = ['Express 5', 'Express 4', 'Connect', 'node:http'] as const;

type Req = http.IncomingMessage;
type Res = http.ServerResponse;
type Next = (error?: unknown) => void;

function reply(res: Res, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.end(text);
}

/**
 * An app whose hoax routes are partly moved: the tree serves `DELETE /hoaxes/[hoaxId]`, and the app's
 * own router still serves `GET /hoaxes/:hoaxId` and `POST /hoaxes/attachments` (an upload). The tree
 * goes before or after that router; the app's 404 and error handler come last.
 */
async function startPartlyMoved(
  hostName: (typeof PARTLY_MOVED_HOSTS)[number],
  order: 'before' | 'after',
  options: MountOptions = {},
): Promise<Listening> {
  const endpoints = mountEndpoints({ dir, onError: quiet, ...options });
  await endpoints.ready;
  const notFound = (_req: Req, res: Res) => reply(res, 404, 'app 404');
  const onError = (error: unknown, _req: Req, res: Res, _next: Next) => {
    res.statusCode = statusOf(error);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ caught: (error as Error).message }));
  };
  if (hostName === 'Express 5' || hostName === 'Express 4') {
    const express = hostName === 'Express 5' ? express5 : express4;
    const router = express.Router();
    router.get('/hoaxes/:hoaxId', (req, res) => void res.type('text').send(`app: hoax ${req.params.hoaxId}`));
    router.post(
      '/hoaxes/attachments',
      (_req, res) => void res.status(201).type('text').send('app: attachment stored'),
    );
    const app = express();
    if (order === 'before') app.use(endpoints);
    app.use(router);
    if (order === 'after') app.use(endpoints);
    app.use(notFound);
    app.use(onError);
    return listen(http.createServer(app));
  }
  // Connect and node:http: the same router, written by hand.
  const router = (req: Req, res: Res, next: Next) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'POST' && path === '/hoaxes/attachments')
      return reply(res, 201, 'app: attachment stored');
    const hoax = /^\/hoaxes\/([^/]+)$/.exec(path);
    if ((req.method === 'GET' || req.method === 'HEAD') && hoax)
      return reply(res, 200, `app: hoax ${hoax[1]}`);
    next();
  };
  const chain = order === 'before' ? [endpoints, router, notFound] : [router, endpoints, notFound];
  if (hostName === 'Connect') {
    const app = connect();
    for (const handle of chain) app.use(handle as connect.NextHandleFunction);
    app.use(onError as connect.ErrorHandleFunction);
    return listen(http.createServer(app));
  }
  return listen(
    http.createServer((req, res) => {
      let index = 0;
      const next: Next = (error) => {
        if (error !== undefined) return onError(error, req, res, next);
        chain[index++]?.(req, res, next);
      };
      next();
    }),
  );
}

describe('integration: a moved route answers as the native one did', function () {
  this.timeout(10_000);

  describe('ETags and conditional requests', () => {
    const body = '{"id":"1"}';
    const WEAK = entityTag(body, true);

    for (const host of hostsWithFetch) {
      const express = host.name.startsWith('Express');
      describe(host.name, () => {
        /** As the host is by default: Express's weak ETags in an Express app, none elsewhere. */
        let plain: Served;
        /** `etag: true`, for hosts that have no setting of their own. */
        let tagged: Served;
        before(async () => {
          [plain, tagged] = await Promise.all([
            host.start({ dir, onError: quiet }),
            host.start({ dir, onError: quiet, mount: { etag: true } }),
          ]);
        });
        after(() => Promise.all([plain?.close(), tagged?.close()]));

        it(express ? "by default, the app's weak ETag" : 'by default, none', async () => {
          const reply = await plain.request('/items/1');
          expect([reply.status, reply.text]).to.deep.equal([200, body]);
          expect(reply.headers.etag).to.equal(express ? WEAK : undefined);
        });

        it('with etag: true, the weak ETag Express gives the same bytes', async () => {
          const reply = await tagged.request('/items/1');
          expect(reply.headers.etag).to.equal(WEAK);
        });

        it('a fresh If-None-Match on GET and HEAD: 304, no body, no Content-Type or Content-Length', async () => {
          for (const method of ['GET', 'HEAD']) {
            const reply = await tagged.request('/items/1', { method, headers: { 'if-none-match': WEAK } });
            expect([method, reply.status, reply.text]).to.deep.equal([method, 304, '']);
            expect(reply.headers.etag).to.equal(WEAK);
            expect(reply.headers['content-type']).to.equal(undefined);
            expect(reply.headers['content-length']).to.equal(undefined);
          }
        });

        it('a stale If-None-Match, or Cache-Control: no-cache: the whole answer', async () => {
          const stale = await tagged.request('/items/1', { headers: { 'if-none-match': 'W/"other"' } });
          expect([stale.status, stale.text]).to.deep.equal([200, body]);
          const reload = await tagged.request('/items/1', {
            headers: { 'if-none-match': WEAK, 'cache-control': 'no-cache' },
          });
          expect(reload.status).to.equal(200);
        });

        it("the handler's own ETag stays, and decides", async () => {
          const reply = await tagged.request('/tagged', { headers: { 'if-none-match': '"v1"' } });
          expect([reply.status, reply.headers.etag]).to.deep.equal([304, '"v1"']);
        });

        it("If-Modified-Since against the handler's Last-Modified", async () => {
          const later = await tagged.request('/modified', {
            headers: { 'if-modified-since': 'Wed, 02 Apr 2025 10:00:00 GMT' },
          });
          expect(later.status).to.equal(304);
          const earlier = await tagged.request('/modified', {
            headers: { 'if-modified-since': 'Mon, 31 Mar 2025 10:00:00 GMT' },
          });
          expect([earlier.status, earlier.text]).to.deep.equal([200, 'modified']);
        });

        it('a POST gets an ETag, as res.json gives one, but never a 304', async () => {
          const created = await tagged.request('/created', { method: 'POST' });
          const tag = entityTag('{"created":true}', true);
          expect([created.status, created.headers.etag]).to.deep.equal([201, tag]);
          const again = await tagged.request('/created', {
            method: 'POST',
            headers: { 'if-none-match': tag },
          });
          expect(again.status).to.equal(201);
        });

        it('a large body made at once gets one; a stream and an empty answer do not', async () => {
          const big = await tagged.request('/big');
          expect(big.headers.etag).to.equal(entityTag('x'.repeat(200 * 1024), true));
          const stream = await tagged.request('/stream', { headers: { 'if-none-match': '*' } });
          expect([stream.status, stream.text, stream.headers.etag]).to.deep.equal([
            200,
            'first,second',
            undefined,
          ]);
          const empty = await tagged.request('/empty');
          expect([empty.status, empty.headers.etag]).to.deep.equal([204, undefined]);
        });

        it("etag: 'strong' and etag: false", async () => {
          const [strong, off] = await Promise.all([
            host.start({ dir, onError: quiet, mount: { etag: 'strong' } }),
            host.start({ dir, onError: quiet, mount: { etag: false } }),
          ]);
          try {
            expect((await strong.request('/items/1')).headers.etag).to.equal(entityTag(body, false));
            expect((await off.request('/items/1')).headers.etag).to.equal(undefined);
          } finally {
            await Promise.all([strong.close(), off.close()]);
          }
        });
      });
    }

    it('.fetch with etag: true: a body that fails still fails for the caller who reads it', async () => {
      const endpoints = mountEndpoints({ dir, onError: quiet, etag: true });
      const response = await endpoints.fetch(new Request('http://localhost/broken'));
      expect(response.status).to.equal(200);
      let failure: unknown;
      await response.text().catch((error: unknown) => (failure = error));
      expect(failure).to.be.instanceOf(Error);
    });

    for (const host of hosts.filter((h) => h.name.startsWith('Express'))) {
      describe(`${host.name}: the app's etag setting`, () => {
        const started: Served[] = [];
        const start = async (settings: Record<string, unknown>) => {
          const app = await host.start({ dir, onError: quiet, settings });
          started.push(app);
          return app;
        };
        after(() => Promise.all(started.map((app) => app.close())));

        it("app.set('etag', false): no ETag, and the handler's own still answers 304, as res.send does", async () => {
          const app = await start({ etag: false });
          expect((await app.request('/items/1')).headers.etag).to.equal(undefined);
          const tagged = await app.request('/tagged', { headers: { 'if-none-match': '"v1"' } });
          expect(tagged.status).to.equal(304);
        });

        it("app.set('etag', 'strong') and a function of the app's own", async () => {
          const strong = await start({ etag: 'strong' });
          expect((await strong.request('/items/1')).headers.etag).to.equal(entityTag(body, false));
          const custom = await start({ etag: (bytes: Buffer) => `"custom-${bytes.length}"` });
          const reply = await custom.request('/items/1');
          expect(reply.headers.etag).to.equal(`"custom-${body.length}"`);
          const fresh = await custom.request('/items/1', {
            headers: { 'if-none-match': reply.headers.etag as string },
          });
          expect(fresh.status).to.equal(304);
        });

        it('the mount option overrides the setting', async () => {
          const app = await host.start({
            dir,
            onError: quiet,
            settings: { etag: false },
            mount: { etag: true },
          });
          started.push(app);
          expect((await app.request('/items/1')).headers.etag).to.equal(WEAK);
        });
      });
    }
  });

  describe("the library's refusals go to the app's error handler", () => {
    for (const host of hosts) {
      describe(host.name, () => {
        let app: RunningHost;
        before(async () => {
          app = await host.start({ dir, onError: quiet });
        });
        after(() => app?.close());

        it('400 for malformed percent-encoding, answered in the app’s error shape', async () => {
          const reply = await app.request('/items/%zz');
          expect(reply.status).to.equal(400);
          expect(reply.headers['content-type']).to.equal('application/json');
          expect(caught(reply.text)).to.match(/malformed percent-encoding/);
        });

        it('400 for a path the URL parser would rewrite', async () => {
          const reply = await sendAsWritten(app.port, '/items/a\\b');
          expect(reply.status).to.equal(400);
          expect(caught(reply.body)).to.match(/"\.\." segment/);
        });

        it('400 for a Host header that makes no URL', async () => {
          const reply = await app.request('/items/1', { headers: { host: 'bad host/x' } });
          expect(reply.status).to.equal(400);
          expect(caught(reply.text)).to.match(/invalid Host header/);
        });

        it('413 by Content-Length, before the handler runs', async () => {
          const reply = await app.request('/limited', { method: 'POST', body: 'x'.repeat(1001) });
          expect(reply.status).to.equal(413);
          expect(caught(reply.text)).to.match(/too large/);
          // The rest of an upload that large is not read: the client is told the connection ends.
          expect(reply.headers.connection).to.equal('close');
        });

        it('413 while the handler reads a chunked body', async () => {
          const reply = await httpRequest(`${app.url}/limited`, {
            method: 'POST',
            headers: { 'transfer-encoding': 'chunked' },
            body: 'x'.repeat(1001),
          });
          expect(reply.status).to.equal(413);
          expect(caught(reply.body.toString())).to.match(/too large/);
        });
      });
    }

    describe('the error the app’s handler gets', () => {
      it('has status, statusCode and expose, and a 405’s Allow as headers and on the response', async () => {
        const express = (await import('express')).default;
        const seen: unknown[] = [];
        const app = express();
        await mountEndpoints(app, { dir, onError: quiet, unservedMethods: '405' });
        app.use((error: unknown, _req: unknown, res: import('express').Response, _next: unknown) => {
          seen.push(error);
          res.status(418).end();
        });
        const server = await listen(http.createServer(app));
        try {
          const reply = await httpRequest(`${server.url}/items/1`, { method: 'POST' });
          expect(reply.status).to.equal(418);
          expect(reply.headers.allow).to.equal('GET, HEAD, OPTIONS');
          await httpRequest(`${server.url}/limited`, { method: 'POST', body: 'x'.repeat(1001) });
        } finally {
          await server.close();
        }
        const [notAllowed, tooLarge] = seen as Record<string, unknown>[];
        expect(notAllowed).to.include({ status: 405, statusCode: 405, expose: true });
        expect(notAllowed!.headers).to.deep.equal({ Allow: 'GET, HEAD, OPTIONS' });
        // body-parser's 413 has the same fields, so a handler written for it answers this one.
        expect(tooLarge).to.include({ status: 413, statusCode: 413, expose: true, type: 'entity.too.large' });
      });
    });

    describe('with no error handler, the plain answers', () => {
      let bare: Listening;
      let endpoints: EndpointsMiddleware;
      before(async () => {
        endpoints = mountEndpoints({ dir, onError: quiet });
        await endpoints.ready;
        bare = await listen(http.createServer(endpoints));
      });
      after(() => bare?.close());

      it('a bare node:http server', async () => {
        const malformed = await httpRequest(`${bare.url}/items/%zz`);
        expect([malformed.status, malformed.headers['content-type']]).to.deep.equal([
          400,
          'text/plain; charset=utf-8',
        ]);
        const tooLarge = await httpRequest(`${bare.url}/limited`, { method: 'POST', body: 'x'.repeat(1001) });
        expect([tooLarge.status, tooLarge.body.toString()]).to.deep.equal([413, 'Payload Too Large']);
      });

      it('.fetch', async () => {
        const malformed = await endpoints.fetch(new Request('http://localhost/items/%zz'));
        expect([malformed.status, malformed.headers.get('content-type')]).to.deep.equal([
          400,
          'text/plain; charset=utf-8',
        ]);
      });
    });
  });
  describe("a body the app's parser already read", () => {
    // 2 MiB of JSON: over the tree's default limit (1 MiB), under the app's parser's ('3mb').
    const big = JSON.stringify({ data: 'x'.repeat(2 * 1024 * 1024) });
    const json = { 'content-type': 'application/json' };
    const chunked = { ...json, 'transfer-encoding': 'chunked' };

    for (const host of hosts) {
      describe(host.name, () => {
        let app: RunningHost;
        let stated: RunningHost;
        before(async () => {
          [app, stated] = await Promise.all([
            host.start({ dir, onError: quiet, bodyParsers: { limit: '3mb' } }),
            host.start({
              dir,
              onError: quiet,
              bodyParsers: { limit: '3mb' },
              mount: { bodyLimit: 1024 * 1024 },
            }),
          ]);
        });
        after(() => Promise.all([app?.close(), stated?.close()]));

        it('is not refused again by the default limit, by Content-Length or chunked', async () => {
          for (const headers of [json, chunked]) {
            const reply = await httpRequest(`${app.url}/echo`, { method: 'POST', headers, body: big });
            expect([reply.status, reply.body.toString()]).to.deep.equal([200, `{"bytes":${big.length}}`]);
          }
        });

        it("is held to the endpoint's own config.bodyLimit, through the app's error handler", async () => {
          const body = JSON.stringify({ data: 'x'.repeat(2000) });
          for (const headers of [json, chunked]) {
            const reply = await httpRequest(`${app.url}/limited`, { method: 'POST', headers, body });
            expect(reply.status).to.equal(413);
            expect(caught(reply.body.toString())).to.match(/too large: the limit is 1000 bytes/);
          }
        });

        it('is held to a bodyLimit the mount states', async () => {
          for (const headers of [json, chunked]) {
            const reply = await httpRequest(`${stated.url}/echo`, { method: 'POST', headers, body: big });
            expect(reply.status).to.equal(413);
            expect(caught(reply.body.toString())).to.match(/too large/);
          }
        });

        it('a body no parser read still meets the default limit', async () => {
          const reply = await httpRequest(`${app.url}/echo`, {
            method: 'POST',
            headers: { 'content-type': 'application/octet-stream' },
            body: big,
          });
          expect(reply.status).to.equal(413);
        });
      });
    }
  });

  describe('a path partly moved: the app still serves its other methods', () => {
    for (const hostName of PARTLY_MOVED_HOSTS) {
      for (const order of ['before', 'after'] as const) {
        describe(`${hostName}, the tree mounted ${order} the app's router`, () => {
          let server: Listening;
          before(async () => {
            server = await startPartlyMoved(hostName, order);
          });
          after(() => server?.close());

          it('the moved method is the endpoint’s', async () => {
            const reply = await requestText(`${server.url}/hoaxes/7`, { method: 'DELETE' });
            expect([reply.status, reply.body]).to.deep.equal([200, '{"deleted":"7"}']);
          });

          it('the app’s routes on the same paths answer their methods', async () => {
            const upload = await requestText(`${server.url}/hoaxes/attachments`, { method: 'POST' });
            expect([upload.status, upload.body]).to.deep.equal([201, 'app: attachment stored']);
            const read = await requestText(`${server.url}/hoaxes/7`);
            expect([read.status, read.body]).to.deep.equal([200, 'app: hoax 7']);
          });

          it('a method neither serves gets the app’s 404, as Express gives it', async () => {
            const reply = await requestText(`${server.url}/hoaxes/7`, { method: 'PUT' });
            expect([reply.status, reply.body]).to.deep.equal([404, 'app 404']);
          });
        });
      }
    }

    it("with unservedMethods: '405' and the tree first, the app's routes on those paths are cut off", async () => {
      const server = await startPartlyMoved('Express 5', 'before', { unservedMethods: '405' });
      try {
        const upload = await requestText(`${server.url}/hoaxes/attachments`, { method: 'POST' });
        expect([upload.status, upload.headers.allow]).to.deep.equal([405, 'DELETE, OPTIONS']);
        expect(caught(upload.body)).to.match(/not allowed/i);
      } finally {
        await server.close();
      }
    });

    it('.fetch, with no app behind the tree, answers 405 with Allow', async () => {
      const endpoints = mountEndpoints({ dir, onError: quiet });
      const reply = await endpoints.fetch(new Request('http://localhost/hoaxes/7', { method: 'PUT' }));
      expect([reply.status, reply.headers.get('allow')]).to.deep.equal([405, 'DELETE, OPTIONS']);
    });

    it('a bare node:http server, with no app behind the tree, answers 405 with Allow', async () => {
      const endpoints = mountEndpoints({ dir, onError: quiet });
      await endpoints.ready;
      const server = await listen(http.createServer(endpoints));
      try {
        const reply = await requestText(`${server.url}/hoaxes/7`, { method: 'PUT' });
        expect([reply.status, reply.headers.allow]).to.deep.equal([405, 'DELETE, OPTIONS']);
      } finally {
        await server.close();
      }
    });
  });
});
