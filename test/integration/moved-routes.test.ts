/**
 * A route moved from the app into the tree answers as the native route did, on every host:
 *   - the library's own refusals (400, 405, 413) reach the app's error handler, which answers them
 *     in the app's shape; only a bare node:http server and `.fetch` get the plain answers;
 *   - a body the app's parser already read under its own limit is not refused again by the
 *     tree's default limit, while a limit the endpoint states still holds.
 * test/differential/ compares whole answers with native Express routes; this suite pins each
 * behaviour on Express 5, Express 4, Connect, node:http and `.fetch`.
 */
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { mountEndpoints, type EndpointsMiddleware } from '../../src';
import { httpRequest, listen, type Listening } from '../support/net';
import { hosts, type RunningHost } from './hosts';

const dir = path.join(__dirname, '../fixtures/moved-app/app');
const quiet = () => {};
const caught = (text: string) => (JSON.parse(text) as { caught: string }).caught;

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

describe('integration: a moved route answers as the native one did', function () {
  this.timeout(10_000);

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
        await mountEndpoints(app, { dir, onError: quiet });
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
});
