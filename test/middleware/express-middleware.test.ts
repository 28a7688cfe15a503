/**
 * expressMiddleware in a folder's middleware.ts, with the real packages, on Express 5, Express 4,
 * Connect and node:http: a rate limit counted in Redis (rate-limit-redis on a real redis-server),
 * passport's JWT and local strategies, express-validator, multer, helmet and cors, and an app's own
 * guards. Their next() goes on to the handler, which sees what they attached and the body they read;
 * their own answer is the route's, and the Web middleware outside get it; their errors reach the
 * app's error handler. `.fetch` refuses the tree; the definition refuses error handlers.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http, { type Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import express5 from 'express';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { createClient } from 'redis';
import { expressMiddleware, mountEndpoints, type EndpointErrorInfo } from '../../src';
import { SECRET } from '../fixtures/express-middleware-app/_lib/auth';
import { CASES } from '../fixtures/express-middleware-app/_lib/cases';
import { state } from '../fixtures/express-middleware-app/_lib/state';
import { hosts, type RunningHost } from '../integration/hosts';
import { listen, requestOver } from '../support/net';
import { snippet } from '../support/readme-snippets';
import { redisAvailable, startRedis, type RedisServer } from '../support/redis-server';

const DIR = path.join(__dirname, '../fixtures/express-middleware-app');
const onNode = process.env.TEST_HOSTS !== 'runtimes';

const token = (name: string) => jwt.sign({ sub: name.toLowerCase(), name }, SECRET);

/** A multipart body with one text field and one file. */
function multipart(file: string, fileName = 'note.txt') {
  const boundary = 'efe-boundary';
  const body = [
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nhello\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/plain\r\n\r\n${file}\r\n`,
    `--${boundary}--\r\n`,
  ].join('');
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body };
}

describe('expressMiddleware', () => {
  let redis: RedisServer | undefined;
  let client: ReturnType<typeof createClient> | undefined;
  // Before anything loads the tree: the rate limiter's Redis store loads its script as it is made.
  before(async function () {
    if (!redisAvailable()) {
      state.sendCommand = () => new Promise(() => {});
      return;
    }
    redis = await startRedis();
    client = createClient({ url: redis.url });
    await client.connect();
    state.sendCommand = (args) => client!.sendCommand(args);
  });
  after(async () => {
    await client?.close();
    await redis?.stop();
  });

  describe('defined', () => {
    it('refuses an error handler (four parameters), naming it', () => {
      function handleErrors(_err: unknown, _req: unknown, _res: unknown, _next: unknown) {}
      // Its type refuses it too (four parameters where three are given); JavaScript gets the error.
      expect(() => expressMiddleware(handleErrors as never)).to.throw(
        TypeError,
        /handleErrors takes four parameters/,
      );
    });

    it('refuses what is not a function, and nothing at all', () => {
      expect(() => expressMiddleware((() => {}) as never, 'cors' as never)).to.throw(
        TypeError,
        /middleware #2 is .*string/,
      );
      expect(() => expressMiddleware()).to.throw(TypeError, /at least one middleware/);
    });

    it('flattens arrays, as Express does, and runs them in order', async () => {
      const order: string[] = [];
      const step = (name: string) => (_req: unknown, _res: unknown, next: () => void) => {
        order.push(name);
        next();
      };
      const mw = expressMiddleware(step('a'), [step('b'), [step('c')]], step('d'));
      const node = { req: { method: 'GET', headers: {} }, res: {} } as never;
      const response = await mw(new Request('http://x/'), async () => new Response('ok'), {
        params: {},
        locals: {},
        node,
      });
      expect(await response.text()).to.equal('ok');
      expect(order).to.deep.equal(['a', 'b', 'c', 'd']);
    });

    it('called without Node request and response, says it needs them', async () => {
      const mw = expressMiddleware((_req: unknown, _res: unknown, next: () => void) => next());
      let error: Error | undefined;
      await Promise.resolve(mw(new Request('http://x/'), async () => new Response('ok'))).catch(
        (e: Error) => {
          error = e;
        },
      );
      expect(error?.message).to.match(/Node's req and res/);
    });
  });

  describe('under .fetch', () => {
    it('the tree is refused, naming the files that use it, rather than answered with 500s', async () => {
      const endpoints = mountEndpoints({ dir: DIR });
      await endpoints.ready;
      let error: Error | undefined;
      await endpoints.fetch(new Request('http://localhost/failing')).catch((e: Error) => {
        error = e;
      });
      expect(error?.name).to.equal('ExpressMiddlewareError');
      expect(error?.message).to.include('failing/middleware.ts').and.include('upload/middleware.ts');
      expect(error?.message).to.match(/and \.fetch has none/);
      await endpoints.close();
    });
  });

  describe('around an endpoint that serves WebSockets', () => {
    const SCRATCH = path.join(__dirname, '.scratch', `sockets-${process.pid}`);
    after(() => rmSync(SCRATCH, { recursive: true, force: true }));

    it('the mount refuses the tree, naming both files: an upgrade has no res to run it with', async () => {
      mkdirSync(path.join(SCRATCH, 'app/chat'), { recursive: true });
      const source = path.relative(path.join(SCRATCH, 'app/chat'), path.join(__dirname, '../../src'));
      writeFileSync(
        path.join(SCRATCH, 'app/chat/middleware.ts'),
        `import { expressMiddleware } from '${source.split(path.sep).join('/')}';\n` +
          'export default expressMiddleware((req: unknown, res: unknown, next: () => void) => next());\n',
      );
      writeFileSync(
        path.join(SCRATCH, 'app/chat/endpoint.ts'),
        'export const websocket = { open() {} };\nexport const GET = () => new Response("chat");\n',
      );
      const reported: unknown[] = [];
      const endpoints = mountEndpoints({
        dir: path.join(SCRATCH, 'app'),
        onError: (error) => reported.push(error),
      });
      const error = await endpoints.ready.then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).to.match(
        /chat\/endpoint\.ts serves WebSockets, and .*chat\/middleware\.ts around it uses expressMiddleware\(\)/,
      );
      expect(reported).to.deep.equal([error]);
      await endpoints.close();
    });
  });

  (onNode ? describe : describe.skip)('in a folder, on every Node host', () => {
    for (const host of hosts) {
      describe(host.name, () => {
        let app: RunningHost;
        const reported: { error: unknown; info: EndpointErrorInfo }[] = [];
        before(async () => {
          app = await host.start({
            dir: DIR,
            onError: (error, info) => reported.push({ error, info }),
            mount: { locals: ({ req }) => ({ user: req.user }) },
          });
        });
        after(() => app.close());
        beforeEach(() => {
          reported.length = 0;
          state.seen.length = 0;
        });

        it('a rate limit counted in Redis: its headers go out on the answers it lets through, its 429 is the answer', async function () {
          if (!redis) this.skip();
          const client = { 'x-client': `${host.name}-${Date.now()}` };
          const first = await app.request('/limited', { headers: client });
          expect(first.status, first.text).to.equal(200);
          expect(first.text).to.equal('{"ok":true}');
          expect(first.headers['ratelimit-policy']).to.equal('2;w=60');
          expect(first.headers.ratelimit).to.match(/^limit=2, remaining=1, reset=\d+$/);
          expect((await app.request('/limited', { headers: client })).status).to.equal(200);
          const limited = await app.request('/limited', { headers: client });
          expect(limited.status).to.equal(429);
          expect(limited.text).to.equal('slow down');
          expect(limited.headers.ratelimit).to.match(/remaining=0/);
          // Counted in Redis, where every process of the app would count.
          const keys = (await state.sendCommand!(['KEYS', 'efe-test:*'])) as string[];
          expect(keys).to.include(`efe-test:${client['x-client']}`);
        });

        it("passport's JWT strategy: the handler sees req.user, and through the locals mapping", async () => {
          const reply = await app.request('/auth/me', {
            headers: { authorization: `Bearer ${token('Grace')}` },
          });
          expect(reply.status, reply.text).to.equal(200);
          expect(JSON.parse(reply.text)).to.deep.equal({
            user: { id: 'grace', name: 'Grace' },
            fromLocals: { id: 'grace', name: 'Grace' },
          });
        });

        it("passport's 401 is the answer, with its WWW-Authenticate", async () => {
          const missing = await app.request('/auth/me');
          expect(missing.status).to.equal(401);
          const forged = await app.request('/auth/me', {
            headers: { authorization: `Bearer ${jwt.sign({ sub: 'x' }, 'another secret')}` },
          });
          expect(forged.status).to.equal(401);
          expect(reported).to.deep.equal([]);
        });

        it("a JSON body express.json() read inside the folder is the handler's request.json() and jsonBody, after passport's local strategy read it", async () => {
          const body = JSON.stringify({ username: 'ada', password: 'secret' });
          const reply = await app.request('/login', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          expect(reply.status, reply.text).to.equal(200);
          const parsed = JSON.parse(reply.text) as Record<string, unknown>;
          expect(parsed.user).to.deep.equal({ id: 'ada', name: 'ada' });
          expect(parsed.body).to.deep.equal({ username: 'ada', password: 'secret' });
          expect(parsed.again).to.deep.equal(parsed.body);
          const refused = await app.request('/login', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'ada', password: 'guess' }),
          });
          expect(refused.status).to.equal(401);
        });

        it('a body too large for express.json() inside the folder reaches the app error handler with its 413', async () => {
          const reply = await app.request('/login', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'a'.repeat(200_000) }),
          });
          expect(reply.status).to.equal(413);
          expect(JSON.parse(reply.text)).to.have.property('caught');
        });

        it('an express-validator chain (an array) answers 422 for a bad body, and lets a good one through', async () => {
          const bad = await app.request('/validated', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'nope', age: 'old' }),
          });
          expect(bad.status).to.equal(422);
          expect(JSON.parse(bad.text)).to.deep.equal({ errors: ['email', 'age'] });
          const good = await app.request('/validated', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'ada@example.com', age: 36 }),
          });
          expect(good.status, good.text).to.equal(200);
          expect(JSON.parse(good.text)).to.deep.equal({
            matched: { email: 'ada@example.com', age: 36 },
            body: { email: 'ada@example.com', age: 36 },
          });
        });

        it("the route's params are req.params, as in an Express route: express-validator's param() and a guard read them", async () => {
          const good = await app.request('/params/12');
          expect(good.status, good.text).to.equal(200);
          expect(JSON.parse(good.text)).to.deep.equal({ id: '12' });
          expect(JSON.parse(good.headers['x-seen-params'] as string)).to.deep.equal({ id: '12' });
          const bad = await app.request('/params/twelve');
          expect(bad.status).to.equal(422);
          expect(JSON.parse(bad.text)).to.deep.equal({ invalid: 'twelve' });
          // Below the folder, every param of the route; a catch-all is its segments, as Express 5's *name.
          const deep = await app.request('/params/7/files/a/b%20c');
          expect(deep.status, deep.text).to.equal(200);
          expect(JSON.parse(deep.headers['x-seen-params'] as string)).to.deep.equal({
            id: '7',
            path: ['a', 'b c'],
          });
        });

        it("multer for one route: the handler reads req.file and the fields; the body itself is multer's", async () => {
          const reply = await app.request('/upload', { method: 'POST', ...multipart('file contents') });
          expect(reply.status, reply.text).to.equal(200);
          expect(JSON.parse(reply.text)).to.deep.equal({
            name: 'note.txt',
            size: 13,
            text: 'file contents',
            fields: { title: 'hello' },
            read: 'BodyUnavailableError',
          });
        });

        it("multer's own error (a file over its limit) reaches the app's error handler", async () => {
          const reply = await app.request('/upload', { method: 'POST', ...multipart('x'.repeat(100)) });
          expect(reply.status).to.equal(500);
          expect(JSON.parse(reply.text)).to.deep.equal({ caught: 'File too large' });
        });

        it("helmet's and cors' headers go out with the handler's answer; the handler's own win where both set one", async () => {
          const reply = await app.request('/secured', { headers: { origin: 'https://app.example' } });
          expect(reply.status).to.equal(200);
          expect(reply.text).to.equal('secured');
          expect(reply.headers['access-control-allow-origin']).to.equal('https://app.example');
          expect(reply.headers['access-control-expose-headers']).to.equal('x-total');
          expect(reply.headers['x-content-type-options']).to.equal('nosniff');
          expect(reply.headers['referrer-policy']).to.equal('no-referrer');
        });

        it('cors answers a preflight itself, when the endpoint serves OPTIONS', async () => {
          const reply = await app.request('/secured', {
            method: 'OPTIONS',
            headers: { origin: 'https://app.example', 'access-control-request-method': 'PUT' },
          });
          expect(reply.status).to.equal(204);
          expect(reply.headers['access-control-allow-methods']).to.include('PUT');
        });

        it("a guard's next() runs the handler; headers it set on res go out, and the outer Web middleware's too", async () => {
          const reply = await app.request('/outer/guarded', { headers: { 'x-key': 'open' } });
          expect(reply.status).to.equal(200);
          expect(reply.text).to.equal('inside');
          expect(reply.headers['x-guard']).to.equal('passed');
          expect(reply.headers['x-outer']).to.equal('seen');
          expect(state.seen).to.deep.equal([{ status: 200, guard: null, body: 'inside' }]);
        });

        it("an answer of its own is the route's; the Web middleware outside gets its status and headers, and no body", async () => {
          const refused = await app.request('/outer/guarded');
          expect(refused.status).to.equal(403);
          expect(refused.text).to.equal('no key');
          const away = await app.request('/outer/guarded', { headers: { 'x-key': 'away' } });
          expect(away.status).to.equal(302);
          expect(away.headers.location).to.equal('/login');
          expect(state.seen).to.deep.equal([
            { status: 403, guard: 'passed', body: null },
            { status: 302, guard: 'passed', body: null },
          ]);
          // What the outer middleware set after the answer was out does not reach the client.
          expect(refused.headers['x-outer']).to.equal(undefined);
          expect(reported).to.deep.equal([]);
        });

        it('a parser inside a Web middleware that built the Request reads the body, and the handler gets what it parsed', async () => {
          const reply = await app.request('/outer/parsed', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ big: 'y'.repeat(100_000) }),
          });
          expect(reply.status, reply.text).to.equal(200);
          expect(JSON.parse(reply.text)).to.deep.equal({ echoed: { big: 'y'.repeat(100_000) } });
        });

        it('a POST whose guard calls next() still hands the handler the whole body', async () => {
          const reply = await app.request('/outer/guarded', {
            method: 'POST',
            headers: { 'x-key': 'open', 'content-type': 'text/plain' },
            body: 'x'.repeat(100_000),
          });
          expect(reply.status).to.equal(200);
          expect(reply.text).to.equal(`inside: ${'x'.repeat(100_000)}`);
        });

        for (const [how, status, message] of [
          ['next', 409, 'passed on'],
          ['throw', 422, 'thrown'],
          ['reject', 503, 'rejected'],
        ] as const) {
          it(`next(err), or the error it ${how === 'next' ? 'passes' : how === 'throw' ? 'throws' : 'rejects with'}, reaches the app's error handler with its status`, async () => {
            const reply = await app.request('/failing', { headers: { 'x-fail': how } });
            expect(reply.status).to.equal(status);
            expect(JSON.parse(reply.text)).to.deep.equal({ caught: message });
            expect(reported.map((r) => [r.info.export, r.info.passedToNext])).to.deep.equal([
              [path.join(path.relative(process.cwd(), DIR), 'failing/middleware.ts'), true],
            ]);
          });
        }

        it('a Response a Web middleware outside returns in place of the answer already sent is dropped, and onError told', async () => {
          const reply = await app.request('/replaced/inner');
          expect(reply.status).to.equal(403);
          expect(reply.text).to.equal('refused inside');
          expect(reported.map((r) => (r.error as Error).name)).to.deep.equal(['AnswerAlreadySentError']);
        });

        it('a body a Web middleware outside read first is gone for the parser inside and the handler, as in any chain: no hang', async () => {
          const reply = await app.request('/read-first/parsed', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"a":1}',
          });
          expect(reply.status).to.equal(500);
          expect(JSON.parse(reply.text).caught).to.match(/^Body is unusable/);
        });

        it("next('route') is an error that says why, for the app's error handler", async () => {
          const reply = await app.request('/skipping');
          expect(reply.status).to.equal(500);
          expect(JSON.parse(reply.text).caught).to.match(/next\('route'\).*has none to skip to/);
        });
      });
    }
  });

  /**
   * The same Express middleware, made afresh from the same factory, in front of a native Express route
   * and in a folder of the tree (diff/[case]): for random sequences of requests, both answer alike, status,
   * headers and body, but for Date.
   */
  (onNode ? describe : describe.skip)('answers as in front of a native route', () => {
    const VERSIONS: [string, typeof express5][] = [
      ['Express 5', express5],
      ['Express 4', require('express4') as typeof express5],
    ];
    const IGNORED = new Set(['date', 'connection', 'keep-alive']);

    for (const [name, express] of VERSIONS) {
      describe(name, () => {
        let server: Server;
        let url: string;
        before(async () => {
          const app = express();
          for (const [caseName, make] of Object.entries(CASES)) {
            app.all(`/native/${caseName}`, ...(make() as express5.RequestHandler[]), (req, res) => {
              res.json({ ok: true, user: (req as { user?: unknown }).user ?? null });
            });
          }
          await mountEndpoints(app, { dir: DIR });
          app.use(((error: { status?: number; message: string }, _req, res, _next) => {
            res.status(error.status ?? 500).json({ caught: error.message });
          }) as express5.ErrorRequestHandler);
          server = http.createServer(app);
          ({ url } = await listen(server));
        });
        after(() => new Promise((resolve) => server.close(resolve)));

        const requestFor = fc.record({
          case: fc.constantFrom(...Object.keys(CASES)),
          key: fc.constantFrom('open', 'teapot', 'away', 'none'),
          auth: fc.constantFrom('good', 'forged', 'none'),
          origin: fc.constantFrom('https://app.example', 'https://elsewhere.example', ''),
          body: fc.constantFrom(
            '{"email":"ada@example.com","age":36}',
            '{"email":"nope","age":"old"}',
            '{"email":',
            '',
          ),
        });

        type Sent = typeof requestFor extends fc.Arbitrary<infer R> ? R : never;
        const plain: Sent = { case: 'guard', key: 'open', auth: 'none', origin: '', body: '' };
        const r = (changes: Partial<Sent>): Sent => ({ ...plain, ...changes });
        // The table first, reaching every kind of answer; then random sequences.
        const TABLE: Sent[][] = [
          [r({ case: 'rate-limit' }), r({ case: 'rate-limit' })],
          [r({}), r({ key: 'none' }), r({ key: 'away' }), r({ key: 'teapot' })],
          [r({ case: 'jwt', auth: 'good' }), r({ case: 'jwt', auth: 'forged' }), r({ case: 'jwt' })],
          [
            r({ case: 'validator', body: '{"email":"nope","age":"old"}' }),
            r({ case: 'validator', body: '{"email":' }),
          ],
          [r({ case: 'cors', origin: 'https://app.example' }), r({ case: 'helmet' })],
        ];

        it('for any sequence of requests, status, headers and body are the same', async () => {
          let run = 0;
          const statuses = new Set<number>();
          await fc.assert(
            fc.asyncProperty(fc.array(requestFor, { minLength: 1, maxLength: 8 }), async (requests) => {
              const client = `${name}-${run++}`;
              for (const r of requests) {
                const headers: Record<string, string> = { 'x-client': client, 'x-key': r.key };
                if (r.auth !== 'none') {
                  const signed = r.auth === 'good' ? token('Ada') : jwt.sign({ sub: 'x' }, 'not the secret');
                  headers.authorization = `Bearer ${signed}`;
                }
                if (r.origin) headers.origin = r.origin;
                const init = r.body
                  ? {
                      method: 'POST',
                      headers: { ...headers, 'content-type': 'application/json' },
                      body: r.body,
                    }
                  : { headers };
                const native = await requestOver(url, `/native/${r.case}`, init);
                const tree = await requestOver(url, `/diff/${r.case}`, init);
                const shown = (reply: typeof native) => ({
                  status: reply.status,
                  text: reply.text,
                  headers: Object.fromEntries(Object.entries(reply.headers).filter(([h]) => !IGNORED.has(h))),
                });
                expect(shown(tree), JSON.stringify(r)).to.deep.equal(shown(native));
                statuses.add(native.status);
              }
            }),
            { numRuns: 25, examples: TABLE.map((sequence) => [sequence]) },
          );
          // The sequences reached every kind of answer: passed on, refused, limited, redirected, failed.
          expect([...statuses].sort()).to.include.members([200, 302, 400, 401, 403, 418, 422, 429]);
        });
      });
    }
  });

  /** docs/middleware.md's examples, each file of a block written where its first line says, served by Express 5. */
  (onNode ? describe : describe.skip)("docs/middleware.md's examples", () => {
    const SCRATCH = path.join(__dirname, '.scratch', `docs-${process.pid}`);
    const SOURCE = path.join(__dirname, '../../src');
    let server: Server;
    let url: string;
    before(async () => {
      for (const name of ['express-middleware-signup', 'express-middleware-avatars']) {
        for (const file of snippet(name).code.split(/^(?=\/\/ app\/)/m)) {
          const target = path.join(SCRATCH, /^\/\/ (app\/[^\s:]+)/.exec(file)![1]!);
          mkdirSync(path.dirname(target), { recursive: true });
          const source = path.relative(path.dirname(target), SOURCE).split(path.sep).join('/');
          writeFileSync(target, file.replaceAll("'express-file-endpoints'", `'${source}'`));
        }
      }
      const app = express5();
      await mountEndpoints(app, { dir: path.join(SCRATCH, 'app') });
      server = http.createServer(app);
      ({ url } = await listen(server));
    });
    after(async () => {
      await new Promise((resolve) => server?.close(resolve));
      rmSync(SCRATCH, { recursive: true, force: true });
    });

    it('the express-validator chain answers 422, and lets the handler read a good body', async () => {
      const post = (body: unknown) =>
        requestOver(url, '/signup', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const bad = await post({ email: 'nope', age: 'old' });
      expect(bad.status).to.equal(422);
      expect((JSON.parse(bad.text) as { errors: unknown[] }).errors).to.have.length(2);
      const good = await post({ email: 'ada@example.com', age: 36 });
      expect([good.status, good.text]).to.deep.equal([201, '{"email":"ada@example.com"}']);
    });

    it("multer, helmet and cors: the upload is multer's, the headers are theirs", async () => {
      const reply = await requestOver(url, '/avatars', {
        method: 'POST',
        ...(({ headers, body }) => ({
          headers: { ...headers, origin: 'https://app.example' },
          body: body.replaceAll('name="file"', 'name="avatar"'),
        }))(multipart('a tiny avatar', 'me.png')),
      });
      expect(reply.status, reply.text).to.equal(201);
      expect(JSON.parse(reply.text)).to.deep.equal({ name: 'me.png', size: 13 });
      expect(reply.headers['access-control-allow-origin']).to.equal('https://app.example');
      expect(reply.headers['x-content-type-options']).to.equal('nosniff');
    });
  });
});
