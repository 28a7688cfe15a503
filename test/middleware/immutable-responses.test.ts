/**
 * `next()` resolves to a Response whose headers a middleware may change, whatever the handler
 * returned: docs/middleware.md's `timing` middleware in front of `Response.redirect()`, a thrown
 * redirect, a `fetch()` result, and a folder `middleware.ts` in front of a redirect, on every host
 * and through `.fetch`. `Response.error()` is an error naming the file, never `TypeError: immutable`.
 */
import path from 'node:path';
import { expect } from 'chai';
import { mountEndpoints, type EndpointErrorInfo, type WebMiddleware } from '../../src';
import { hosts } from '../integration/hosts';
import { listen, requestText, type Listening } from '../support/net';
import http from 'node:http';

const DIR = path.join(__dirname, '../fixtures/immutable-app/app');

/** docs/middleware.md's timing middleware: sets a header on what next() returns. */
const timing: WebMiddleware = async (_request, next) => {
  const started = performance.now();
  const response = await next();
  response.headers.set('server-timing', `app;dur=${(performance.now() - started).toFixed(1)}`);
  return response;
};

describe('middleware may change the headers of what next() returns', () => {
  let upstream: Listening;
  before(async () => {
    upstream = await listen(
      http.createServer((_req, res) => {
        res.setHeader('content-type', 'text/plain');
        res.setHeader('x-from', 'upstream');
        res.end('from upstream');
      }),
    );
  });
  after(() => upstream.close());

  describe('.fetch', () => {
    const errors: Array<[unknown, EndpointErrorInfo]> = [];
    const endpoints = mountEndpoints({
      dir: DIR,
      middleware: [timing],
      onError: (e, i) => errors.push([e, i]),
    });

    it('Response.redirect()', async () => {
      const res = await endpoints.fetch(new Request('http://localhost/redirect'));
      expect([res.status, res.headers.get('location')]).to.deep.equal([303, 'http://localhost/elsewhere']);
      expect(res.headers.get('server-timing')).to.match(/^app;dur=/);
    });

    it('a thrown Response.redirect()', async () => {
      const res = await endpoints.fetch(new Request('http://localhost/thrown-redirect'));
      expect([res.status, res.headers.get('location')]).to.deep.equal([302, 'http://localhost/login']);
      expect(res.headers.get('server-timing')).to.match(/^app;dur=/);
    });

    it('a fetch() result, its body streamed through untouched', async () => {
      const res = await endpoints.fetch(
        new Request('http://localhost/fetched', { headers: { 'x-upstream': upstream.url } }),
      );
      expect([res.status, res.headers.get('x-from'), await res.text()]).to.deep.equal([
        200,
        'upstream',
        'from upstream',
      ]);
      expect(res.headers.get('server-timing')).to.match(/^app;dur=/);
    });

    it('a folder middleware.ts in front of a redirect', async () => {
      const res = await endpoints.fetch(new Request('http://localhost/stamped-redirect'));
      expect([res.status, res.headers.get('x-stamped')]).to.deep.equal([307, 'yes']);
    });

    it('Response.error() is an error naming the file and the export', async () => {
      errors.length = 0;
      const res = await endpoints.fetch(new Request('http://localhost/network-error'));
      expect(res.status).to.equal(500);
      expect(errors).to.have.length(1);
      const [error, info] = errors[0]!;
      const message = (error as Error).message;
      expect(message.startsWith('test/fixtures/immutable-app/app/network-error/endpoint.ts: ')).to.equal(
        true,
      );
      expect(message).to.match(/\bexport GET\b.*\bResponse\.error\(\)/);
      expect(info.export).to.equal('GET');
    });
  });

  for (const host of hosts) {
    describe(host.name, () => {
      let app: Awaited<ReturnType<typeof host.start>>;
      before(async () => {
        app = await host.start({ dir: DIR, middleware: [timing], onError: () => {} });
      });
      after(() => app.close());

      for (const [target, status, location] of [
        ['/redirect', 303, 'http://localhost/elsewhere'],
        ['/thrown-redirect', 302, 'http://localhost/login'],
        ['/stamped-redirect', 307, 'http://localhost/stamped'],
      ] as const) {
        it(`${target}: ${status} with the middleware's header`, async () => {
          const reply = await requestText(`${app.url}${target}`);
          expect([reply.status, reply.headers.location]).to.deep.equal([status, location]);
          expect(reply.headers['server-timing']).to.match(/^app;dur=/);
        });
      }

      it('/fetched: the upstream answer with the middleware header', async () => {
        const reply = await requestText(`${app.url}/fetched`, { headers: { 'x-upstream': upstream.url } });
        expect([reply.status, reply.body, reply.headers['x-from']]).to.deep.equal([
          200,
          'from upstream',
          'upstream',
        ]);
        expect(reply.headers['server-timing']).to.match(/^app;dur=/);
      });
    });
  }
});
