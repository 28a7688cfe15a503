/**
 * A Response that cannot be sent — Node refuses a header value that came from
 * user input, or its body is locked or already read — is answered with a 500 that carries none
 * of its headers (its Set-Cookie least of all). Headers the app set before the endpoints or the
 * bridged middleware ran (helmet, cors, cookies) may stay.
 */
import { expect } from 'chai';
import { bridgeMiddleware } from '../../src';
import type { WebMiddleware } from '../../src/types';
import { hosts } from '../integration/hosts';
import { sendJson, sendText, type Layer } from '../middleware/chain-hosts';
import { bridgeHosts } from './bridge-hosts';
import { converse, expectOwnAnswers, headerValues, type ParsedResponse } from './framing';
import { FIXTURE_DIR, unhandledRejectionTripwire } from './helpers';

/** Control characters Node refuses in a header value; a Headers object holds them. */
const REFUSED = ['a%01b', '%7F', '%1B%5B31m'];

/** The 500 has none of the failed Response's headers and the upstream ones it had before. */
function expectCleanFailure(response: ParsedResponse): void {
  expect(`${response.status} ${response.reason}`).to.equal('500 Internal Server Error');
  const names = response.headers.map(([name]) => name);
  expect(names).not.to.include.members(['x-unsent', 'x-echo', 'x-app']);
  expect(headerValues(response, 'content-type').join()).not.to.include('x-unsent');
  const cookies = headerValues(response, 'set-cookie');
  expect(cookies.join('\n')).not.to.match(/unsent=|app=/);
  expect(
    cookies.some((cookie) => cookie.startsWith('upstream=1')),
    'the upstream cookie stays',
  ).to.equal(true);
  expect(headerValues(response, 'x-upstream')).to.have.length(1);
}

describe('hardening: a Response that cannot be sent', function () {
  this.timeout(10_000);
  unhandledRejectionTripwire();

  for (const host of hosts) {
    describe(`endpoints on ${host.name}`, () => {
      let server: Awaited<ReturnType<typeof host.start>>;
      before(async () => {
        server = await host.start({ dir: FIXTURE_DIR });
      });
      after(() => server.close());

      const targets = [
        ...REFUSED.map((v) => `/unsendable/header?v=${v}`),
        '/unsendable/locked',
        '/unsendable/used',
      ];
      for (const path of targets) {
        it(`${path}: a 500 without the Response's headers`, async () => {
          const c = await converse(server.port, [{ path }, { path: '/methods/get-only' }]);
          expectCleanFailure(c.responses[0]!);
          expectOwnAnswers(c, c.responses[0]!.body, 'get');
        });
      }
    });

    describe(`a body stream of strings on ${host.name}`, () => {
      let server: Awaited<ReturnType<typeof host.start>>;
      const reported: string[] = [];
      before(async () => {
        server = await host.start({ dir: FIXTURE_DIR, onError: (error) => reported.push(String(error)) });
      });
      after(() => server.close());
      beforeEach(() => void (reported.length = 0));
      const STRING_CHUNK =
        /^TypeError: A Response body stream yielded a string where the Fetch standard takes bytes/;

      it('finished before the answer: a 500 without its headers, the one error told', async () => {
        const c = await converse(server.port, [{ path: '/unsendable/strings?when=now' }]);
        expectCleanFailure(c.responses[0]!);
        expect(reported).to.have.length(1);
        expect(reported[0]).to.match(STRING_CHUNK);
      });

      it('yielded after the head went out: the connection is cut, with the same error told', async () => {
        const c = await converse(server.port, [{ path: '/unsendable/strings?when=later' }]);
        expect(c.responses[0]?.complete ?? false, 'no complete response').to.equal(false);
        expect(c.responses[0]?.body.toString() ?? '').to.not.include('a string');
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(reported).to.have.length(1);
        expect(reported[0]).to.match(STRING_CHUNK);
      });
    });
  }

  for (const host of bridgeHosts) {
    describe(`bridgeMiddleware on ${host.name}`, () => {
      const failing = (value: string, body: BodyInit | null = 'never sent', init: ResponseInit = {}) => {
        const headers = new Headers(init.headers);
        headers.set('content-type', 'text/x-unsent');
        headers.append('set-cookie', 'unsent=1; Path=/');
        headers.set('x-echo', value);
        return new Response(body, { status: init.status ?? 200, headers });
      };
      const middleware: WebMiddleware = async (req, next) => {
        const url = new URL(req.url);
        const value = url.searchParams.get('v') ?? '';
        switch (url.pathname) {
          case '/own':
            return failing(value);
          case '/locked': {
            const response = failing('fine');
            response.body!.getReader();
            return response;
          }
          case '/copy': {
            // A copy around the app's body: replayed, with the bad header added.
            const response = await next();
            return failing(value, response.body, response);
          }
          case '/other':
            await next();
            return failing(value);
          case '/used': {
            const response = await next();
            await response.text();
            return response;
          }
          default:
            return next();
        }
      };
      const appRoute = (path: string): Layer => ({
        route: path,
        handle: (_req, res) => {
          res.setHeader('x-app', '1');
          res.setHeader('set-cookie', 'app=1; Path=/');
          sendText(res, 'from the app');
        },
      });
      const layers: Layer[] = [
        {
          use: (_req, res, next) => {
            res.setHeader('x-upstream', 'before');
            res.setHeader('set-cookie', 'upstream=1; Path=/');
            next();
          },
        },
        { use: bridgeMiddleware(middleware) },
        appRoute('/copy'),
        appRoute('/other'),
        appRoute('/used'),
        { route: '/second', handle: (_req, res) => sendText(res, 'second') },
        { onError: (error, _req, res) => sendJson(res, { caught: String(error) }, 500) },
      ];

      let server: Awaited<ReturnType<typeof host.start>>;
      before(async () => {
        server = await host.start(layers);
      });
      after(() => server.close());

      const targets = [
        ...REFUSED.flatMap((v) => [`/own?v=${v}`, `/copy?v=${v}`, `/other?v=${v}`]),
        '/locked',
        '/used',
      ];
      for (const path of targets) {
        it(`${path}: a 500 without the Response's headers`, async () => {
          const c = await converse(server.port, [{ path }, { path: '/second' }]);
          expectCleanFailure(c.responses[0]!);
          expect(c.responses[0]!.body.toString()).not.to.include('never sent');
          expectOwnAnswers(c, c.responses[0]!.body, 'second');
        });
      }
    });
  }
});
