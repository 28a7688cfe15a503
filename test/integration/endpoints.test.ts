/**
 * One suite, run unchanged against every host in ./hosts (Express 5, Express 4, Connect,
 * node:http): the endpoint tree in test/fixtures/app served inside a legacy app that has its own
 * upstream middleware, routes, 404 and error handler.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { expect } from 'chai';
import request from 'supertest';
import { BIG_TEXT, setUpstream, state } from '../fixtures/app/_lib/store';
import { hosts, UPSTREAM, type RunningHost } from './hosts';
import { headerLines, httpRequest, waitFor, type Listening } from '../support/net';
import { startGzipUpstream } from '../support/upstreams';
import { fixtureApp } from '../support/fixture-app';

const dir = fixtureApp;
const fixtureFile = (route: string) => `test/fixtures/app/${route}/endpoint.ts`;

describe('integration: endpoints served by every host', function () {
  this.timeout(10_000);

  let upstream: Listening;
  before(async () => {
    upstream = await startGzipUpstream();
    setUpstream(upstream.url);
  });
  after(async () => {
    setUpstream(undefined);
    await upstream.close();
  });

  for (const host of hosts) {
    describe(host.name, () => {
      /** Endpoints at the root, no body parsers. */
      let app: RunningHost;
      /** `express.json()` + `express.urlencoded({ extended: true })` mounted first. */
      let parsed: RunningHost;
      /** Endpoints mounted under `/v1`. */
      let v1: RunningHost;
      /** `compression()` mounted first. */
      let compressed: RunningHost;
      /** `unservedMethods: '405'`. */
      let strict: RunningHost;

      /** What `onError` was told (semantics.test.ts tests it; here it keeps the output quiet). */
      const reported: unknown[] = [];
      const onError = (error: unknown) => void reported.push(error);

      before(async () => {
        [app, parsed, v1, compressed, strict] = await Promise.all([
          host.start({ dir, onError }),
          host.start({ dir, onError, bodyParsers: true }),
          host.start({ dir, onError, prefix: '/v1' }),
          host.start({ dir, onError, compression: true }),
          host.start({ dir, onError, mount: { unservedMethods: '405' } }),
        ]);
      });
      after(async () => {
        await Promise.all([app, parsed, v1, compressed, strict].filter(Boolean).map((h) => h.close()));
      });

      describe('CRUD on api/users/[id]', () => {
        it('creates (201), reads, updates, deletes (204, null body), then 404 with a null body', async () => {
          const created = await request(app.url).post('/api/users').send({ name: 'Grace' });
          expect(created.status).to.equal(201);
          const id = created.body.id as string;
          expect(id).to.be.a('string');
          expect(created.body).to.deep.equal({ id, name: 'Grace' });
          expect(created.headers.location).to.equal(`/api/users/${id}`);

          const read = await request(app.url).get(`/api/users/${id}`);
          expect(read.status).to.equal(200);
          expect(read.body).to.deep.equal({ id, name: 'Grace' });

          const updated = await request(app.url).put(`/api/users/${id}`).send({ name: 'Grace Hopper' });
          expect(updated.status).to.equal(200);
          expect(updated.body).to.deep.equal({ id, name: 'Grace Hopper' });

          const deleted = await httpRequest(`${app.url}/api/users/${id}`, { method: 'DELETE' });
          expect(deleted.status).to.equal(204);
          expect(deleted.body.length).to.equal(0);
          expect(deleted.headers['content-type']).to.equal(undefined);

          const gone = await httpRequest(`${app.url}/api/users/${id}`);
          expect(gone.status).to.equal(404);
          expect(gone.body.length).to.equal(0);
          expect(gone.headers['content-type']).to.equal(undefined);

          const deletedAgain = await httpRequest(`${app.url}/api/users/${id}`, { method: 'DELETE' });
          expect(deletedAgain.status).to.equal(404);
          expect(deletedAgain.body.length).to.equal(0);
        });

        it('lists the users from the folder endpoint beside [id]', async () => {
          const res = await request(app.url).get('/api/users');
          expect(res.status).to.equal(200);
          expect(res.body).to.deep.include({ id: '1', name: 'Ada Lovelace' });
        });
      });

      describe('optional catch-all [[...path]]', () => {
        it('leaves the key out when there is no tail', async () => {
          const res = await request(app.url).get('/files');
          expect(res.status).to.equal(200);
          expect(res.body).to.deep.equal({ keys: [], path: null });
        });

        it('gives the tail as an array of segments', async () => {
          const res = await request(app.url).get('/files/docs/2024/report.pdf');
          expect(res.body).to.deep.equal({ keys: ['path'], path: ['docs', '2024', 'report.pdf'] });
        });

        it('decodes each segment after splitting, so a%2Fb is one segment "a/b"', async () => {
          const res = await httpRequest(`${app.url}/files/a%2Fb/c%20d`);
          expect(res.status).to.equal(200);
          expect(JSON.parse(res.body.toString())).to.deep.equal({ keys: ['path'], path: ['a/b', 'c d'] });
        });

        it("matches like Express's defaults: any letter case, one trailing slash ignored", async () => {
          const res = await request(app.url).get('/API/Users/1/');
          expect([res.status, res.body]).to.deep.equal([200, { id: '1', name: 'Ada Lovelace' }]);
        });

        it('answers malformed percent-encoding with 400', async () => {
          const res = await httpRequest(`${app.url}/files/%zz`);
          expect(res.status).to.equal(400);
          expect(res.body.toString()).to.match(/malformed percent-encoding/);
          const cutOff = await httpRequest(`${app.url}/api/users/%E0%A4%A`);
          expect(cutOff.status).to.equal(400);
        });
      });

      describe('method dispatch', () => {
        it('sends a method with its own export to it, and the rest to ANY', async () => {
          const get = await request(app.url).get('/methods/any');
          expect([get.status, get.text, get.headers['x-handler']]).to.deep.equal([200, 'GET handler', 'GET']);
          const del = await request(app.url).delete('/methods/any');
          expect([del.status, del.text]).to.deep.equal([200, 'ANY handler (DELETE)']);
          const options = await request(app.url).options('/methods/any');
          expect([options.status, options.text]).to.deep.equal([200, 'ANY handler (OPTIONS)']);
        });

        it('treats export default like ANY, after the specific export', async () => {
          const post = await request(app.url).post('/methods/default');
          expect([post.status, post.text]).to.deep.equal([200, 'POST handler']);
          const patch = await request(app.url).patch('/methods/default');
          expect([patch.status, patch.text]).to.deep.equal([200, 'default handler (PATCH)']);
        });

        it('serves HEAD with the GET handler, headers only', async () => {
          const res = await httpRequest(`${app.url}/methods/get-only`, { method: 'HEAD' });
          expect(res.status).to.equal(200);
          expect(res.headers['x-handler']).to.equal('GET');
          expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
          expect(res.headers['content-length']).to.equal(String('GET only'.length));
          expect(res.body.length).to.equal(0);
          const withAny = await httpRequest(`${app.url}/methods/any`, { method: 'HEAD' });
          expect(withAny.headers['x-handler']).to.equal('GET');
          expect(withAny.body.length).to.equal(0);
        });

        it('serves HEAD of a streamed response without reading the stream', async () => {
          const started = Date.now();
          const res = await httpRequest(`${app.url}/stream`, { method: 'HEAD' });
          expect(res.status).to.equal(200);
          expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
          expect(res.body.length).to.equal(0);
          expect(Date.now() - started).to.be.lessThan(280); // reading it would take 300 ms
        });

        it('answers OPTIONS itself with 204 and Allow when nothing exports it', async () => {
          const res = await httpRequest(`${app.url}/methods/get-only`, { method: 'OPTIONS' });
          expect(res.status).to.equal(204);
          expect(res.headers.allow).to.equal('GET, HEAD, OPTIONS');
          expect(res.body.length).to.equal(0);
        });

        it('leaves a method the file does not serve to the app, whose 404 answers it', async () => {
          const res = await request(app.url).post('/methods/get-only');
          expect([res.status, res.text]).to.deep.equal([404, 'app 404']);
          expect(res.headers.allow).to.equal(undefined);
        });

        it("with unservedMethods: '405', answers it with 405 and Allow through the app's error handler", async () => {
          const res = await request(strict.url).post('/methods/get-only');
          expect(res.status).to.equal(405);
          expect(res.headers.allow).to.equal('GET, HEAD, OPTIONS');
          expect(res.body.caught).to.match(/not allowed/i);
        });
      });

      describe('page.tsx beside a POST-only endpoint', () => {
        it("lets GET fall through to the app's own page", async () => {
          const res = await request(app.url).get('/contact');
          expect(res.status).to.equal(200);
          expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
          expect(res.text).to.equal('<!doctype html><h1>Contact us</h1>');
        });

        it("lets HEAD fall through to the app's own page too", async () => {
          const res = await httpRequest(`${app.url}/contact`, { method: 'HEAD' });
          expect(res.status).to.equal(200);
          expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
          expect(res.body.length).to.equal(0);
        });

        it('sends POST to the endpoint, which reads the form with request.formData()', async () => {
          const res = await request(app.url)
            .post('/contact')
            .type('form')
            .send('name=Ada&message=Hello%2C+world');
          expect(res.status).to.equal(201);
          expect(res.body).to.deep.equal({ name: 'Ada', message: 'Hello, world' });
        });

        it('leaves other methods to the app; with 405s, Allow does not offer GET', async () => {
          expect((await request(app.url).put('/contact')).status).to.equal(404);
          const res = await request(strict.url).put('/contact');
          expect(res.status).to.equal(405);
          expect(res.headers.allow).to.equal('POST, OPTIONS');
        });
      });

      describe("the app's own routes and 404", () => {
        it("lets unknown paths reach the app's 404", async () => {
          for (const url of ['/nope', '/api/users/1/extra', '/_lib/store', '/nope/%zz']) {
            const res = await request(app.url).get(url);
            expect([url, res.status, res.text]).to.deep.equal([url, 404, 'app 404']);
          }
        });

        it('keeps legacy routes after the endpoints working', async () => {
          const res = await request(app.url).get('/legacy/health');
          expect([res.status, res.text]).to.deep.equal([200, 'ok']);
        });
      });

      const bodyHosts: [string, () => RunningHost][] = [
        ['streamed from the socket', () => app],
        ['after express.json() and express.urlencoded() consumed it', () => parsed],
      ];
      for (const [label, server] of bodyHosts) {
        describe(`request bodies ${label}`, () => {
          it('hands a JSON body to request.json()', async () => {
            const body = { name: 'Ada', tags: ['x', 'y'], n: 1.5, nested: { ok: true } };
            const res = await request(server().url).post('/echo?as=json').send(body);
            expect(res.status).to.equal(200);
            expect(res.body).to.deep.equal({ received: body });
          });

          it('hands a urlencoded body (nested a[b], repeated keys) to request.formData()', async () => {
            const res = await request(server().url)
              .post('/echo?as=form')
              .type('form')
              .send('a[b]=1&a[c]=2&list=x&list=y&name=Ada+L');
            expect(res.status).to.equal(200);
            expect(res.body.entries).to.deep.equal([
              ['a[b]', '1'],
              ['a[c]', '2'],
              ['list', 'x'],
              ['list', 'y'],
              ['name', 'Ada L'],
            ]);
          });

          it('posts a form to the page + POST endpoint', async () => {
            const res = await request(server().url).post('/contact').type('form').send('name=Bo&message=Hi');
            expect(res.status).to.equal(201);
            expect(res.body).to.deep.equal({ name: 'Bo', message: 'Hi' });
          });

          it('round-trips a 1 MiB random binary body byte for byte', async () => {
            const bytes = randomBytes(1024 * 1024);
            const res = await httpRequest(`${server().url}/echo?as=bytes`, {
              method: 'POST',
              headers: { 'content-type': 'application/octet-stream' },
              body: bytes,
            });
            expect(res.status).to.equal(200);
            expect(res.headers['content-type']).to.equal('application/octet-stream');
            expect(res.body.length).to.equal(bytes.length);
            expect(res.body.equals(bytes)).to.equal(true);
          });
        });
      }

      describe('request body limit', () => {
        it('answers 413 to a body over the default 1 MiB', async () => {
          const res = await httpRequest(`${app.url}/echo?as=bytes`, {
            method: 'POST',
            headers: { 'content-type': 'application/octet-stream' },
            body: Buffer.alloc(1024 * 1024 + 1),
          });
          expect(res.status).to.equal(413);
          expect(res.body.toString()).to.match(/too large/i);
        });
      });

      describe('bodies a parser already read', () => {
        const json = '{ "b" : 1,\n  "a": [1, 2] }\n';

        it('hands over req.rawBody byte for byte when a verify callback stored it', async () => {
          const res = await request(parsed.url)
            .post('/echo?as=text')
            .set('content-type', 'application/json')
            .set('x-keep-raw', '1')
            .send(json);
          expect(res.status).to.equal(200);
          expect(res.text).to.equal(json);
        });

        it('re-encodes req.body when there is no rawBody', async () => {
          const res = await request(parsed.url)
            .post('/echo?as=text')
            .set('content-type', 'application/json')
            .send(json);
          expect(res.text).to.equal('{"b":1,"a":[1,2]}');
        });
      });

      describe('headers and cookies set upstream', () => {
        it('keep them, and add each of the handler’s Set-Cookie values as its own line', async () => {
          const res = await httpRequest(`${app.url}/headers`);
          expect(res.status).to.equal(200);
          expect(res.headers[UPSTREAM.header[0]]).to.equal(UPSTREAM.header[1]);
          expect(res.headers['x-content-type-options']).to.equal('nosniff'); // helmet
          expect(res.headers['x-handler']).to.equal('headers');
          expect(headerLines(res, 'set-cookie')).to.deep.equal([
            UPSTREAM.cookie,
            'a=1; Path=/',
            'b=2; Path=/; HttpOnly',
          ]);
          expect(res.body.toString()).to.equal('with cookies');
        });

        it('give the handler what earlier middleware attached, through context.node.req', async () => {
          const res = await request(app.url).get('/whoami');
          expect(res.body.user).to.deep.equal(UPSTREAM.user);
        });
      });

      describe('the URL a handler sees', () => {
        it('is the full client URL', async () => {
          const res = await request(app.url).get('/whoami?x=1&y=%20');
          expect(res.body.url).to.equal(`http://127.0.0.1:${app.port}/whoami?x=1&y=%20`);
        });

        it(`follows X-Forwarded-Proto only under Express's trust proxy (${host.trustsProxy})`, async () => {
          const res = await request(app.url).get('/whoami').set('x-forwarded-proto', 'https');
          const protocol = host.trustsProxy ? 'https' : 'http';
          expect(res.body.url).to.equal(`${protocol}://127.0.0.1:${app.port}/whoami`);
        });

        it('answers 400 to a Host header that cannot be a host, without crashing', async () => {
          const res = await httpRequest(`${app.url}/whoami`, { headers: { host: 'bad host/x' } });
          expect(res.status).to.equal(400);
          const after = await request(app.url).get('/whoami');
          expect(after.status).to.equal(200);
        });
      });

      describe('mounted under /v1', () => {
        it('matches on the path below the prefix and shows the handler the full URL', async () => {
          const res = await request(v1.url).get('/v1/whoami?x=1');
          expect(res.status).to.equal(200);
          expect(res.body.url).to.equal(`http://127.0.0.1:${v1.port}/v1/whoami?x=1`);
          const user = await request(v1.url).get('/v1/api/users/1');
          expect(user.body).to.deep.equal({ id: '1', name: 'Ada Lovelace' });
          const files = await request(v1.url).get('/v1/files/a/b');
          expect(files.body).to.deep.equal({ keys: ['path'], path: ['a', 'b'] });
        });

        it("serves nothing outside the prefix: those reach the app's 404", async () => {
          for (const url of ['/api/users/1', '/whoami', '/v1/nope']) {
            const res = await request(v1.url).get(url);
            expect([url, res.status, res.text]).to.deep.equal([url, 404, 'app 404']);
          }
        });
      });

      describe('streamed responses', () => {
        it('deliver the first chunk before the stream ends', async () => {
          const seen = await new Promise<{ chunks: string[]; first: number; end: number }>(
            (resolve, reject) => {
              http
                .get(`${app.url}/stream`, { agent: false }, (res) => {
                  const chunks: string[] = [];
                  let first = 0;
                  res.setEncoding('utf8');
                  res.on('data', (chunk: string) => {
                    first ||= Date.now();
                    chunks.push(chunk);
                  });
                  res.on('end', () => resolve({ chunks, first, end: Date.now() }));
                  res.on('error', reject);
                })
                .on('error', reject);
            },
          );
          expect(seen.chunks.join('')).to.equal('first\nsecond\nthird\n');
          expect(seen.chunks[0]).to.equal('first\n');
          // Two 150 ms pauses come after the first chunk.
          expect(seen.end - seen.first).to.be.greaterThan(200);
        });
      });

      describe('streams that end badly', () => {
        it('are cancelled when the client disconnects mid-stream', async () => {
          const id = `${host.name}/ticker/${Date.now()}`;
          await new Promise<void>((resolve, reject) => {
            const req = http.get(
              `${app.url}/ticker?id=${encodeURIComponent(id)}`,
              { agent: false },
              (res) => {
                res.once('data', () => {
                  req.destroy();
                  resolve();
                });
              },
            );
            req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
          });
          await waitFor(() => state.tickerCancelled.includes(id), 2000, 'the stream to be cancelled');
        });

        it('destroy the connection when the stream errors after the headers are out', async () => {
          const outcome = await new Promise<{ status: number; body: string; aborted: boolean }>((resolve) => {
            http
              .get(`${app.url}/errors/mid-stream`, { agent: false }, (res) => {
                let body = '';
                res.setEncoding('utf8');
                res.on('data', (chunk: string) => (body += chunk));
                res.on('end', () => resolve({ status: res.statusCode!, body, aborted: false }));
                res.on('error', () => resolve({ status: res.statusCode!, body, aborted: true }));
              })
              .on('error', () => resolve({ status: 0, body: '', aborted: true }));
          });
          expect(outcome).to.deep.equal({ status: 200, body: 'partial', aborted: true });
        });
      });

      describe('client aborts', () => {
        it('fire request.signal when the client goes away before the response', async () => {
          const id = `${host.name}/abort/${Date.now()}`;
          const req = http.get(`${app.url}/slow?id=${encodeURIComponent(id)}`, { agent: false });
          req.on('error', () => {}); // we are the ones hanging up
          await waitFor(() => state.slowStarted.includes(id), 2000, 'the handler to start');
          req.destroy();
          await waitFor(() => state.slowAborted.includes(id), 2000, 'request.signal to abort');
        });

        it('do not fire request.signal for a request that completed', async () => {
          const id = `${host.name}/complete/${Date.now()}`;
          const res = await request(app.url).get(`/slow?ms=10&id=${encodeURIComponent(id)}`);
          expect([res.status, res.text]).to.deep.equal([200, 'done']);
          await new Promise((resolve) => setTimeout(resolve, 100));
          expect(state.slowStarted).to.include(id);
          expect(state.slowAborted).not.to.include(id);
        });
      });

      describe("errors reach the app's error handler", () => {
        it('a thrown error', async () => {
          const res = await request(app.url).get('/errors/throw');
          expect(res.status).to.equal(500);
          expect(res.body).to.deep.equal({ caught: 'thrown by the endpoint' });
        });

        it('a rejected promise', async () => {
          const res = await request(app.url).get('/errors/reject');
          expect(res.status).to.equal(500);
          expect(res.body).to.deep.equal({ caught: 'rejected by the endpoint' });
        });

        it('a handler returning something other than a Response, named by file and export', async () => {
          const res = await request(app.url).get('/errors/not-a-response');
          expect(res.status).to.equal(500);
          expect(res.body.caught.startsWith(`${fixtureFile('errors/not-a-response')}: `)).to.equal(true);
          expect(res.body.caught).to.match(/\bGET\b.*\bobject\b.*\bResponse\.json\(/);
        });
      });

      describe('a catch-all proxy returning fetch() of a gzip upstream', () => {
        it('sends the decoded body without the stale content-encoding and content-length', async () => {
          const res = await httpRequest(`${app.url}/proxy/some/where?q=1`, {
            headers: { 'accept-encoding': 'gzip' },
          });
          const text = 'GET /some/where?q=1';
          expect(res.status).to.equal(200);
          expect(res.body.toString()).to.equal(text);
          expect(res.headers['content-encoding']).to.equal(undefined);
          expect(res.headers['content-length'] ?? String(text.length)).to.equal(String(text.length));
          expect(res.headers['x-upstream-server']).to.equal('gzip');
          expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
        });

        it('forwards any method with its body, and an empty tail', async () => {
          const post = await request(app.url).post('/proxy/echo').type('text').send('ping');
          expect([post.status, post.text]).to.deep.equal([200, 'POST /echo ping']);
          const root = await request(app.url).delete('/proxy');
          expect([root.status, root.text]).to.deep.equal([200, 'DELETE /']);
        });
      });

      describe('compression() mounted first', () => {
        it('still compresses a large endpoint response', async () => {
          const res = await httpRequest(`${compressed.url}/big`, { headers: { 'accept-encoding': 'gzip' } });
          expect(res.status).to.equal(200);
          expect(res.headers['content-encoding']).to.equal('gzip');
          expect(res.body.length).to.be.lessThan(BIG_TEXT.length / 10);
          expect(zlib.gunzipSync(res.body).toString()).to.equal(BIG_TEXT);
        });

        it('compresses a streamed response as a whole', async () => {
          const res = await httpRequest(`${compressed.url}/stream`, {
            headers: { 'accept-encoding': 'gzip' },
          });
          expect(res.headers['content-encoding']).to.equal('gzip');
          expect(zlib.gunzipSync(res.body).toString()).to.equal('first\nsecond\nthird\n');
        });

        it('leaves it alone for a client that does not accept gzip', async () => {
          const res = await httpRequest(`${compressed.url}/big`, {
            headers: { 'accept-encoding': 'identity' },
          });
          expect(res.headers['content-encoding']).to.equal(undefined);
          expect(res.body.toString()).to.equal(BIG_TEXT);
        });
      });
    });
  }
});
