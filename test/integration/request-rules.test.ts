/**
 * The rules a request meets whatever serves the tree, each proven on every host of ./hosts: the four
 * Node hosts and `.fetch`, and Bun and Deno under `npm run test:runtimes`. The body limit, from
 * Content-Length and by counting a body sent without one; the checks on the path; request.signal,
 * which aborts when the client leaves before the answer is complete, and only then. What only a Node
 * host does about them (draining, closing the connection, Express's error handler) is in
 * test/hardening. A refusal (400, 413) reaches the app's error handler on the Node hosts, which
 * answer it as `{ caught: message }`; `.fetch`, Bun and Deno have no app behind the tree and send the
 * plain answer.
 */
import http from 'node:http';
import { expect } from 'chai';
import type { EndpointErrorInfo } from '../../src';
import { state } from '../fixtures/app/_lib/store';
import { fixtureApp } from '../support/fixture-app';
import { delay, waitFor } from '../support/net';
import { hostsWithFetch, type Served } from './hosts';

const dir = fixtureApp;
/** The mount's limit, as in the report that found `.fetch` without one: 1,000 bytes, 5,000 sent. */
const LIMIT = 1000;
const OVER = 5000;
const bytes = (n: number) => Buffer.alloc(n, 'a');
/** `n` bytes in pieces of 500, sent without a Content-Length. */
const pieces = (n: number) =>
  Array.from({ length: Math.ceil(n / 500) }, (_, i) => bytes(Math.min(500, n - i * 500)));
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

let nextId = 0;

describe('integration: the rules a request meets, on every host', function () {
  this.timeout(10_000);

  for (const host of hostsWithFetch) {
    describe(host.name, () => {
      let app: Served;
      let open: Served;
      const errors: Array<[unknown, EndpointErrorInfo]> = [];
      const onError = (error: unknown, info: EndpointErrorInfo) => errors.push([error, info]);
      /** What the refusal says: the app's error handler's `caught` on a Node host, else the plain text. */
      const refusal = (res: { text: string }) =>
        host.node ? (JSON.parse(res.text) as { caught: string }).caught : res.text;
      const tooLarge = host.node
        ? `Request body too large: the limit is ${LIMIT} bytes`
        : 'Payload Too Large';
      /** `it` where a client has a connection of its own; on `.fetch`, skipped, saying why. */
      const itWithSocket = (reason: string, title: string, fn: Mocha.AsyncFunc) =>
        host.sockets ? it(title, fn) : it.skip(`${title} (not through .fetch: ${reason})`, fn);

      before(async () => {
        [app, open] = await Promise.all([
          host.start({ dir, onError, bodyLimit: LIMIT }),
          host.start({ dir, onError, bodyLimit: false }),
        ]);
      });
      after(() => Promise.all([app, open].map((served) => served?.close())));
      beforeEach(() => {
        errors.length = 0;
      });

      describe('bodyLimit', () => {
        it('answers 413 from a Content-Length over the limit, before the handler runs', async () => {
          // The handler never reads the body: it would answer 200.
          const res = await app.request('/limits/ignore', {
            method: 'POST',
            headers: { 'content-length': String(OVER) },
            body: bytes(OVER),
          });
          expect([res.status, refusal(res)]).to.deep.equal([413, tooLarge]);
        });

        it('accepts a body of exactly the limit', async () => {
          const res = await app.request('/limits/read', { method: 'POST', body: bytes(LIMIT) });
          expect([res.status, json(res.text)]).to.deep.equal([200, { size: LIMIT }]);
        });

        for (const via of ['text', 'arrayBuffer', 'stream']) {
          it(`counts a body sent without a Content-Length: the handler's ${via} read fails at the limit, 413`, async () => {
            const res = await app.request(`/limits/read?via=${via}`, { method: 'POST', body: pieces(OVER) });
            expect([res.status, refusal(res)]).to.deep.equal([413, tooLarge]);
          });
        }

        it('counts a JSON body too', async () => {
          const body = [Buffer.from(`{"a":"${'x'.repeat(OVER)}"}`)];
          const res = await app.request('/limits/read?via=json', { method: 'POST', body });
          expect(res.status).to.equal(413);
        });

        it('lets the handler catch the failed read: a BodyLimitError', async () => {
          const res = await app.request('/limits/read?via=catch', { method: 'POST', body: pieces(OVER) });
          expect(res.status).to.equal(422);
          expect(json(res.text)).to.deep.equal({
            error: 'BodyLimitError',
            message: `Request body too large: the limit is ${LIMIT} bytes`,
          });
        });

        it('does not tell onError about a body over the limit: it is the client’s', async () => {
          await app.request('/limits/read', { method: 'POST', body: pieces(OVER) });
          await app.request('/limits/read', { method: 'POST', body: bytes(OVER) });
          await delay(50);
          expect(errors).to.deep.equal([]);
        });

        it("takes an endpoint's own limit over the mount's, above it and below", async () => {
          const above = await app.request('/limits/own', { method: 'POST', body: pieces(1500) });
          const over = await app.request('/limits/own', { method: 'POST', body: pieces(3000) });
          const declared = await app.request('/limits/own', { method: 'POST', body: bytes(3000) });
          const unlimited = await app.request('/limits/unlimited', { method: 'POST', body: bytes(OVER) });
          expect([above.status, json(above.text)]).to.deep.equal([200, { size: 1500 }]);
          expect([over.status, declared.status]).to.deep.equal([413, 413]);
          expect([unlimited.status, json(unlimited.text)]).to.deep.equal([200, { size: OVER }]);
        });

        it("takes a folder's bodyLimit for the endpoints beneath, and an endpoint's own over it, as sizes", async () => {
          const within = await app.request('/limits/folder/inherits', { method: 'POST', body: pieces(2048) });
          const over = await app.request('/limits/folder/inherits', { method: 'POST', body: pieces(2049) });
          const declared = await app.request('/limits/folder/inherits', {
            method: 'POST',
            body: bytes(2049),
          });
          const own = await app.request('/limits/folder/own', { method: 'POST', body: pieces(4096) });
          const ownOver = await app.request('/limits/folder/own', { method: 'POST', body: bytes(4097) });
          expect([within.status, json(within.text)]).to.deep.equal([200, { size: 2048 }]);
          expect([over.status, declared.status]).to.deep.equal([413, 413]);
          expect([own.status, json(own.text), ownOver.status]).to.deep.equal([200, { size: 4096 }, 413]);
        });

        it('counts nothing with bodyLimit: false', async () => {
          const counted = await open.request('/limits/read', { method: 'POST', body: pieces(OVER) });
          const declared = await open.request('/limits/read', { method: 'POST', body: bytes(OVER) });
          expect([counted.status, json(counted.text), declared.status]).to.deep.equal([
            200,
            { size: OVER },
            200,
          ]);
        });
      });

      describe('the path', () => {
        it('400 for malformed percent-encoding', async () => {
          const res = await app.request('/files/%zz');
          expect([res.status, refusal(res)]).to.deep.equal([
            400,
            'Bad Request: malformed percent-encoding in the URL path',
          ]);
        });

        it('refuses a path with a dot segment, or serves it as the URL parser resolves it: never another', async () => {
          // Node and Deno hand the tree the target as sent; Bun's server and a Request made in-process
          // have resolved it already, and then router, guards and handler all see `/files/b`.
          const res = await app.request('/files/a/%2e%2e/b');
          if (host.resolvesDotSegments) {
            expect([res.status, json(res.text)]).to.deep.equal([200, { keys: ['path'], path: ['b'] }]);
          } else {
            expect(res.status).to.equal(400);
            expect(refusal(res)).to.match(/^Bad Request: the URL path has a "\." or "\.\." segment/);
          }
        });

        it("matches as Express's defaults do: any letter case, one trailing slash ignored", async () => {
          const res = await app.request('/API/Users/1/');
          expect([res.status, json(res.text)]).to.deep.equal([200, { id: '1', name: 'Ada Lovelace' }]);
        });

        it('matches a folder name as sent, never its decoding: /%61pi is not /api', async () => {
          const res = await app.request('/%61pi/users/1');
          expect(res.status).to.equal(404);
        });

        itWithSocket(
          'a Request cannot carry TRACE',
          'no handler serves TRACE: the app behind the tree answers it (its 404), else a 405 with Allow',
          async () => {
            const res = await app.request('/methods/any', { method: 'TRACE' });
            if (host.node) {
              expect([res.status, res.text]).to.deep.equal([404, 'app 404']);
            } else {
              expect(res.status).to.equal(405);
              expect(res.headers.allow).to.be.a('string');
            }
          },
        );
      });

      describe('request.signal', () => {
        const id = (what: string) => `${host.name}/${what}/${nextId++}`;
        const events = (key: string) =>
          state.signalLog
            .filter((line) => line.startsWith(`${key}:`))
            .map((line) => line.slice(key.length + 1));

        it('never aborts once the answer is complete, whole or streamed', async () => {
          const whole = id('whole');
          const streamed = id('streamed');
          expect((await app.request(`/signal?id=${encodeURIComponent(whole)}`)).text).to.equal('done');
          const res = await app.request(`/signal?chunks=3&id=${encodeURIComponent(streamed)}`);
          expect(res.text).to.equal('chunk 1\nchunk 2\nchunk 3\n');
          // Deno's server aborts a request's signal once it has sent the answer; handlers must not see that.
          await delay(150);
          expect([events(whole), events(streamed)]).to.deep.equal([
            ['started', 'answered'],
            ['started', 'answered'],
          ]);
        });

        itWithSocket('no client to leave', 'aborts when the client leaves before the answer', async () => {
          const key = id('before');
          const socket = leaveAfter(app.url, `/signal?ms=5000&id=${encodeURIComponent(key)}`, () =>
            events(key).includes('started'),
          );
          await socket;
          await waitFor(() => events(key).includes('aborted'), 3000, 'the abort');
          expect(events(key)).to.deep.equal(['started', 'aborted', 'answered']);
        });

        itWithSocket(
          'no client to leave',
          'aborts when the client leaves while a streamed answer is sent',
          async () => {
            const key = id('mid-body');
            await leaveAfter(app.url, `/signal?chunks=100&id=${encodeURIComponent(key)}`, (received) =>
              received.includes('chunk 2'),
            );
            await waitFor(() => events(key).includes('aborted'), 3000, 'the abort');
            expect(events(key)).to.deep.equal(['started', 'answered', 'aborted']);
          },
        );
      });
    });
  }
});

/** A GET of `path` that the client abandons, its socket destroyed, once `ready(what came so far)` holds. */
async function leaveAfter(origin: string, path: string, ready: (received: string) => boolean): Promise<void> {
  let received = '';
  const req = http.get(`${origin}${path}`, { agent: false }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (received += chunk));
  });
  req.on('error', () => {});
  await waitFor(() => ready(received), 3000, `the request of ${path} to get going`);
  req.destroy();
}
