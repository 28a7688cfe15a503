/**
 * Ports https://github.com/honojs/node-server/blob/main/test/listener.test.ts onto endpoints mounted by
 * this library (test/fixtures/peers-app, `/hono/listener/*`), on Express 5 and a bare node:http server.
 *
 * hono's `errorHandler` option maps to what answers a failed request here: the app's error handler
 * under Express (`next(err)`), the library's plain text on a bare server; `onError` is told either way.
 * Its `hostname` option, the close-listener counting of its fast path and `overrideGlobalObjects`
 * have no counterpart.
 */
import { expect } from 'chai';
import { open, outcome, type ErrorInfo } from '../fixtures/peers-app/_lib/state';
import { httpRequest } from '../support/net';
import { delay, eachHost, newId, rawRequest, within } from './hosts';

interface Aborted {
  method: string;
  aborted: boolean;
  reason: ErrorInfo;
}

describe('peers: hono listener.test', function () {
  this.timeout(10_000);

  eachHost('Invalid request', (app, host) => {
    it('hono listener.test: Should return server error for a request w/o host header (an empty Host names localhost)', async () => {
      // Peers disagree: hono answers 400, srvx falls back to the socket's address. The library reads an
      // empty Host, as HTTP/1.0 without one, as `localhost`.
      const empty = await rawRequest(app().port, 'GET /hono/url HTTP/1.1\r\nHost: ');
      expect(empty.status).to.equal(200);
      expect(empty.body.toString()).to.equal('http://localhost/hono/url');
      const none = await rawRequest(app().port, 'GET /hono/url HTTP/1.0');
      expect(none.status).to.equal(200);
      expect(none.body.toString()).to.equal('http://localhost/hono/url');
    });

    it('hono listener.test: Should return server error for a request invalid host header', async () => {
      const res = await rawRequest(app().port, 'GET /hono/listener/ok HTTP/1.1\r\nHost: a b');
      expect(res.status).to.equal(400);
      if (host.appErrorHandler) expect(res.header('x-app-error-handler')).to.equal('1');
      expect(res.body.toString()).to.match(/invalid Host header/);
    });

    it('hono listener.test: custom error handler - Should return server error for host header with path', async () => {
      const res = await rawRequest(app().port, 'GET /hono/listener/ok HTTP/1.1\r\nHost: a/b');
      expect(res.status).to.equal(400);
      if (host.appErrorHandler) expect(res.header('x-app-error-handler')).to.equal('1');
    });

    it('hono listener.test: default hostname - Should return 200 for a request w/o host header', async () => {
      const res = await rawRequest(app().port, 'GET /hono/listener/ok HTTP/1.0');
      expect(res.status).to.equal(200);
      expect(res.body.toString()).to.equal('ok');
    });

    it('hono listener.test: malformed body response - Should return a 500 for a malformed response', async () => {
      const res = await fetch(`${app().url}/hono/listener/malformed`);
      expect(res.status).to.equal(500);
      expect(await res.text()).to.not.include('content');
    });
  });

  eachHost('Response headers', (app) => {
    it('hono listener.test: Should not set content-type for a null body response', async () => {
      const res = await httpRequest(`${app().url}/hono/listener/null-body`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal(undefined);
      expect(res.body.toString()).to.equal('');
    });
  });

  for (const mode of ['sync', 'async'] as const) {
    eachHost(`Error handling - ${mode} fetchCallback`, (app, host) => {
      it(`hono listener.test: ${mode} - Should set the response if error handler returns a response`, async () => {
        const res = await fetch(`${app().url}/hono/listener/throw-${mode}`);
        expect(res.status).to.equal(500);
        if (host.appErrorHandler) {
          expect(res.headers.get('x-app-error-handler')).to.equal('1');
          expect(await res.text()).to.equal('error: thrown error');
        } else {
          expect(await res.text()).to.equal('Internal Server Error');
        }
      });

      it(`hono listener.test: ${mode} - Should not set the response if the error handler does not return a response (onError is told once)`, async () => {
        const before = app().errors.length;
        const res = await fetch(`${app().url}/hono/listener/throw-${mode}`);
        expect(res.status).to.equal(500);
        await res.text();
        const reported = app().errors.slice(before);
        expect(reported).to.have.length(1);
        expect((reported[0]!.error as Error).message).to.equal('thrown error');
        expect(reported[0]!.info.export).to.equal('ANY');
        expect(reported[0]!.info.passedToNext).to.equal(host.appErrorHandler);
      });
    });
  }

  eachHost('Abort request', (app, host) => {
    async function abortOnce(method: string): Promise<Aborted> {
      const id = newId(`abort-${method}`);
      const controller = new AbortController();
      const pending = fetch(`${app().url}/hono/listener/abort?id=${id}`, {
        method,
        signal: controller.signal,
      }).catch(() => {});
      await within(outcome(`${id}:ready`), 2000, 'the handler to start');
      controller.abort();
      const aborted = await within(outcome<Aborted>(`${id}:aborted`), 2000, 'request.signal to abort');
      await pending;
      return aborted;
    }

    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      it(`hono listener.test: should emit an abort event when the nodejs ${method.toLowerCase()} request is aborted`, async () => {
        const aborted = await abortOnce(method);
        expect(aborted.method).to.equal(method);
        expect(aborted.aborted).to.equal(true);
        // Peers disagree on the reason (srvx: an AbortError or "aborted"): the library's is a ClientClosedError.
        expect(aborted.reason.name).to.equal('ClientClosedError');
      });
    }

    for (const method of ['GET', 'POST', 'HEAD', 'PATCH', 'DELETE', 'PUT']) {
      it(`hono listener.test: should emit an abort event when the nodejs request is aborted on multiple ${method.toLowerCase()} requests`, async () => {
        const first = await abortOnce(method);
        const second = await abortOnce(method);
        for (const aborted of [first, second]) {
          expect(aborted.method).to.equal(method);
          expect(aborted.aborted).to.equal(true);
        }
      });
    }

    it('hono listener.test: should handle request abort without requestCache (the signal never read)', async () => {
      const before = app().errors.length;
      const id = newId('abort-untouched');
      const failed = await fetch(`${app().url}/hono/listener/abort-untouched?id=${id}`, {
        method: 'POST',
        signal: AbortSignal.timeout(50),
      }).then(
        () => undefined,
        (error: Error) => error,
      );
      expect(failed).to.be.instanceOf(Error);
      open(`${id}:release`);
      await delay(20);
      // The late answer has nowhere to go and is no error; the server goes on serving.
      expect(app().errors.slice(before)).to.deep.equal([]);
      expect(await (await fetch(`${app().url}/hono/listener/ok`)).text()).to.equal('ok');
    });

    if (host.appErrorHandler) {
      for (const mode of ['sync', 'async'] as const) {
        it(`hono listener.test: should abort request signal when client disconnects while async error handler is running after ${mode}`, async () => {
          // The handler throws; the app's error handler (x-hang-error-handler) never answers.
          const id = newId(`abort-error-${mode}`);
          const controller = new AbortController();
          const pending = fetch(`${app().url}/hono/listener/abort-then-throw-${mode}?id=${id}`, {
            headers: { 'x-hang-error-handler': '1' },
            signal: controller.signal,
          }).catch(() => {});
          await delay(50);
          controller.abort();
          const aborted = await within(outcome<Aborted>(`${id}:aborted`), 2000, 'request abort to propagate');
          expect(aborted.aborted).to.equal(true);
          await pending;
        });
      }
    }

    it('hono listener.test: should abort request signal when client disconnects during sync cacheable ReadableStream response', async () => {
      const id = newId('abort-cacheable');
      const controller = new AbortController();
      const pending = fetch(`${app().url}/hono/listener/abort-cacheable-stream?id=${id}`, {
        signal: controller.signal,
      }).catch(() => {});
      await within(outcome(`${id}:constructed`), 2000, 'the stream body to be constructed');
      await delay(20);
      controller.abort();
      const aborted = await within(outcome<Aborted>(`${id}:aborted`), 2000, 'request abort for the stream');
      expect(aborted.aborted).to.equal(true);
      await pending;
    });
  });
});
