/**
 * Ports https://github.com/h3js/srvx/blob/main/test/node-error-paths.test.ts onto endpoints mounted by
 * this library (test/fixtures/peers-app, `/srvx/*`), on Express 5 and a bare node:http server: a handler
 * that fails, or a response that cannot be written, answers 500, leaks nothing to the client, raises no
 * process-level error, and the server goes on serving. srvx's FastResponse (which defers validating a
 * status or a status text to the write) has no counterpart: a Response that cannot be sent cannot be made.
 */
import { expect } from 'chai';
import { capturingProcessErrors, delay, eachHost, streamRequest } from './hosts';

describe('peers: srvx node-error-paths.test', function () {
  this.timeout(10_000);

  eachHost('node adapter unhandled errors (F9)', (app, host) => {
    for (const [name, event, target, message] of [
      ['sync throw', 'uncaughtException', '/srvx/throw', 'unhandled sync error'],
      ['async rejection', 'unhandledRejection', '/srvx/throw-async', 'unhandled async error'],
    ] as const) {
      it(`srvx node-error-paths.test: ${name} answers 500 without escaping as ${event}`, async () => {
        await capturingProcessErrors(async (captured) => {
          const res = await fetch(`${app().url}${target}`, { signal: AbortSignal.timeout(1000) });
          expect(res.status).to.equal(500);
          const text = await res.text();
          if (host.appErrorHandler) {
            // The app's error handler decides what its 500 says.
            expect(text).to.equal(`error: ${message}`);
          } else {
            // No error details leak to the client.
            expect(text).to.equal('Internal Server Error');
          }
          await delay(50);
          expect(captured).to.deep.equal([]);
          const ok = await fetch(`${app().url}/srvx`);
          expect(ok.status).to.equal(200);
          expect(await ok.text()).to.equal('ok');
        });
      });
    }
  });

  eachHost('node adapter malformed responses (#290)', (app) => {
    it('srvx node-error-paths.test: invalid statusText is sanitized instead of crashing (it cannot inject a header)', async () => {
      // A statusText with CR/LF: srvx strips them; here the Response cannot even be made, so the handler
      // throws and the answer is a 500. Either way nothing is injected and nothing crashes.
      await capturingProcessErrors(async (captured) => {
        const res = await streamRequest(`${app().url}/srvx/bad-status-text`);
        expect(res.status).to.equal(500);
        expect(res.headers['x-inj']).to.equal(undefined);
        expect(res.statusMessage).to.equal('Internal Server Error');
        await delay(50);
        expect(captured).to.deep.equal([]);
      });
    });

    it('srvx node-error-paths.test: recovery survives a poisoned statusMessage', async () => {
      // The handler sets `context.node.res.statusMessage` to a value with CR/LF, then throws.
      await capturingProcessErrors(async (captured) => {
        const res = await streamRequest(`${app().url}/srvx/poison-status-message`);
        expect(res.status).to.equal(500);
        expect(res.statusMessage).to.equal('Internal Server Error');
        expect(res.headers['x-inj']).to.equal(undefined);
        await delay(50);
        expect(captured).to.deep.equal([]);
        expect((await fetch(`${app().url}/srvx`)).status).to.equal(200);
      });
    });
  });
});
