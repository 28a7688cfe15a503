/**
 * The whole example app over HTTP with supertest: endpoints, the bridged auth middleware,
 * the legacy routes beside them, and the 404 and error handlers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { createApp, createClient, DEFAULT_TOKEN, endpointsOf, silentLogger } from './support';

describe('example app (supertest)', () => {
  let server: http.Server;
  let api: ReturnType<typeof request>;
  let logger: ReturnType<typeof silentLogger>;
  const savedUpstream = process.env.UPSTREAM_URL;
  const auth = { Authorization: `Bearer ${DEFAULT_TOKEN}` };

  before(async () => {
    logger = silentLogger();
    const app = await createApp({ token: DEFAULT_TOKEN, logger });
    // A real listening server (not supertest's throwaway one), so the proxy can reach our own /legacy.
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.env.UPSTREAM_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/legacy`;
    api = request(server);
  });

  after(async () => {
    if (savedUpstream === undefined) delete process.env.UPSTREAM_URL;
    else process.env.UPSTREAM_URL = savedUpstream;
    await new Promise((resolve) => server.close(resolve));
  });

  describe('route table', () => {
    it('lists every endpoint with its methods', async () => {
      const app = await createApp({ logger });
      const table = Object.fromEntries(endpointsOf(app).routes.map((r) => [r.pattern, r.methods]));
      expect(Object.keys(table).sort()).to.deep.equal([
        '/api/users',
        '/api/users/[id]',
        '/contact',
        '/counter',
        '/events',
        '/feed',
        '/proxy/[[...path]]',
        '/uploads',
        '/uploads/[id]',
      ]);
      expect(endpointsOf(app).routes.find((r) => r.pattern === '/counter')?.websocket).to.equal(true);
      expect(table['/api/users']).to.include.members(['GET', 'POST']);
      expect(table['/contact']).to.include('POST').and.not.include('GET');
    });
  });

  describe('/counter', () => {
    it('POST raises the count, and a socket open on /counter hears it (a topic)', async () => {
      const app = await createApp({ logger });
      const counting = http.createServer(app);
      endpointsOf(app).attach(counting);
      await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(counting.address() as AddressInfo).port}`;
      try {
        const socket = new WebSocket(`${base.replace('http', 'ws')}/counter`);
        const messages: { count: number }[] = [];
        const heard = (n: number) =>
          new Promise<void>((resolve) => {
            const check = () => (messages.length >= n ? resolve() : setTimeout(check, 10));
            check();
          });
        socket.addEventListener('message', (event) => messages.push(JSON.parse(String(event.data)) as never));
        await heard(1);
        const raised = (await (await fetch(`${base}/counter`, { method: 'POST' })).json()) as {
          count: number;
        };
        expect(raised.count).to.equal(messages[0]!.count + 1);
        await heard(2);
        expect(messages[1]).to.deep.equal(raised);
        socket.close();
      } finally {
        counting.closeAllConnections();
        await new Promise((resolve) => counting.close(resolve));
      }
    });
  });

  describe('/api/users', () => {
    it('GET lists the users', async () => {
      const res = await api.get('/api/users').expect(200).expect('Content-Type', /json/);
      expect(res.body).to.be.an('array');
      expect(res.body[0]).to.deep.equal({ id: '1', name: 'Ada Lovelace', email: 'ada@example.com' });
    });

    it('POST creates a user: 201 with the user as JSON', async () => {
      const res = await api
        .post('/api/users')
        .set(auth)
        .send({ name: 'Katherine Johnson', email: 'kj@example.com' })
        .expect(201)
        .expect('Content-Type', /json/);
      expect(res.body).to.include({ name: 'Katherine Johnson', email: 'kj@example.com' });
      expect(res.headers.location).to.equal(`/api/users/${res.body.id}`);
      await api.get(`/api/users/${res.body.id}`).expect(200, res.body);
    });

    it('POST with invalid fields: 400 problem details listing every issue (the contract)', async () => {
      const res = await api
        .post('/api/users')
        .set(auth)
        .send({ name: '  ', email: 'not-an-email' })
        .expect(400)
        .expect('Content-Type', 'application/problem+json');
      expect(res.body).to.deep.equal({
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: '2 issues with the request: body.name, body.email',
        issues: [
          { location: 'body', path: 'body.name', pointer: '/name', message: 'Enter a name' },
          { location: 'body', path: 'body.email', pointer: '/email', message: 'Enter an email address' },
        ],
      });
    });

    it("POST trims the name before it is stored: the handler gets the schema's output", async () => {
      const res = await api.post('/api/users').set(auth).send({ name: '  Mary  ', email: 'm@example.com' });
      expect(res.status).to.equal(201);
      expect(res.body.name).to.equal('Mary');
    });

    it('POST with malformed JSON: express.json() rejects it, the error handler answers 400 JSON', async () => {
      const res = await api
        .post('/api/users')
        .set(auth)
        .set('Content-Type', 'application/json')
        .send('{"name":')
        .expect(400);
      expect(res.body.error).to.equal('Bad Request');
    });

    it('POST without a token: 401 JSON, and nothing is created', async () => {
      const before = (await api.get('/api/users')).body.length;
      const res = await api.post('/api/users').send({ name: 'Mallory', email: 'm@example.com' }).expect(401);
      expect(res.body.error).to.equal('Unauthorized');
      expect(res.headers['www-authenticate']).to.match(/^Bearer/);
      expect((await api.get('/api/users')).body).to.have.length(before);
    });

    it('POST with a wrong token: 401', async () => {
      await api
        .post('/api/users')
        .set('Authorization', 'Bearer nope')
        .send({ name: 'Mallory', email: 'm@example.com' })
        .expect(401);
    });

    it('HEAD answers like GET without a body; OPTIONS lists the methods', async () => {
      const head = await api.head('/api/users').expect(200);
      expect(head.text).to.equal(undefined);
      const options = await api.options('/api/users').expect(204);
      expect(options.headers.allow).to.include('POST');
    });
  });

  describe('/api/users/[id]', () => {
    let id: string;
    beforeEach(async () => {
      id = (await api.post('/api/users').set(auth).send({ name: 'Temp', email: 't@example.com' }).expect(201))
        .body.id;
    });

    it('GET an existing user: 200 JSON', async () => {
      await api.get(`/api/users/${id}`).expect(200, { id, name: 'Temp', email: 't@example.com' });
    });

    it('GET an absent user: 404 with an empty body', async () => {
      const res = await api.get('/api/users/999999').expect(404);
      expect(res.text).to.equal('');
    });

    it('PUT replaces the user', async () => {
      await api
        .put(`/api/users/${id}`)
        .set(auth)
        .send({ name: 'New', email: 'new@example.com' })
        .expect(200, { id, name: 'New', email: 'new@example.com' });
      const missing = await api.put(`/api/users/${id}`).set(auth).send({ name: 'Only name' }).expect(400);
      expect(missing.body.issues).to.deep.equal([
        {
          location: 'body',
          path: 'body.email',
          pointer: '/email',
          message: 'Enter an email address',
        },
      ]);
    });

    it('PATCH changes only the fields sent', async () => {
      await api
        .patch(`/api/users/${id}`)
        .set(auth)
        .send({ email: 'patched@example.com' })
        .expect(200, { id, name: 'Temp', email: 'patched@example.com' });
      await api.patch('/api/users/999999').set(auth).send({ name: 'x' }).expect(404);
    });

    it('DELETE: 204 with an empty body, then the user is gone', async () => {
      const res = await api.delete(`/api/users/${id}`).set(auth).expect(204);
      expect(res.text).to.equal('');
      await api.get(`/api/users/${id}`).expect(404);
      await api.delete(`/api/users/${id}`).set(auth).expect(404);
    });

    it('PUT, PATCH and DELETE without a token: 401', async () => {
      await api.put(`/api/users/${id}`).send({ name: 'x', email: 'y' }).expect(401);
      await api.patch(`/api/users/${id}`).send({ name: 'x' }).expect(401);
      await api.delete(`/api/users/${id}`).expect(401);
      await api.get(`/api/users/${id}`).expect(200);
    });

    it("a method the file does not export goes on to the app: its 404, as Express's router answers it", async () => {
      const res = await api.post(`/api/users/${id}`).set(auth).send({}).expect(404);
      expect(res.body).to.deep.equal({ error: 'Not Found', path: `/api/users/${id}` });
    });
  });

  describe('/proxy/[[...path]] (ANY)', () => {
    it('forwards GET to the upstream (by default our own /legacy routes)', async () => {
      const res = await api.get('/proxy/health').expect(200);
      expect(res.body).to.include({ status: 'ok' });
    });

    it('forwards method, path, query, headers and body', async () => {
      const res = await api
        .post('/proxy/echo?page=2')
        .set('X-Demo', 'yes')
        .send({ hello: 'upstream' })
        .expect(200);
      expect(res.body).to.include({ method: 'POST', url: '/legacy/echo?page=2' });
      expect(res.body.body).to.deep.equal({ hello: 'upstream' });
      expect(res.body.headers['x-demo']).to.equal('yes');
      // The Host header names the upstream, not this server's public name.
      expect(res.body.headers.host).to.equal(new URL(process.env.UPSTREAM_URL!).host);
      const del = await api.delete('/proxy/echo').expect(200);
      expect(del.body.method).to.equal('DELETE');
    });

    it("passes the upstream's errors through", async () => {
      const res = await api.get('/proxy/no/such/page').expect(404);
      expect(res.body).to.deep.equal({ error: 'Not Found', path: '/legacy/no/such/page' });
    });

    it('answers 502 when the upstream is unreachable', async () => {
      const saved = process.env.UPSTREAM_URL;
      process.env.UPSTREAM_URL = 'http://127.0.0.1:1/nowhere';
      try {
        await api.get('/proxy/health').expect(502, { error: 'Bad Gateway' });
      } finally {
        process.env.UPSTREAM_URL = saved;
      }
    });
  });

  describe('/contact (legacy page + POST-only endpoint)', () => {
    it('GET is the legacy HTML form page', async () => {
      const res = await api.get('/contact').expect(200).expect('Content-Type', /html/);
      expect(res.text).to.match(/<form method="post" action="\/contact">/);
      await api.head('/contact').expect(200);
    });

    it('POST (urlencoded form) reaches the endpoint, which thanks the sender, escaped', async () => {
      const res = await api
        .post('/contact')
        .type('form')
        .send({ name: '<Ann & "Bob">', message: 'Hello' })
        .expect(200)
        .expect('Content-Type', /html/);
      expect(res.text).to.include('Thanks, &lt;Ann &amp; &quot;Bob&quot;&gt;');
      expect(res.text).not.to.include('<Ann');
    });

    it('POST without a name: 400', async () => {
      await api.post('/contact').type('form').send({ message: 'anonymous' }).expect(400);
    });
  });

  describe('/events (server-sent events)', () => {
    it('streams the ticks as they happen, then closes', async () => {
      const { port } = server.address() as AddressInfo;
      const chunks: { at: number; text: string }[] = [];
      const started = Date.now();
      const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http.get({ port, host: '127.0.0.1', path: '/events' }, resolve).on('error', reject),
      );
      expect(res.statusCode).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/event-stream/);
      res.setEncoding('utf8');
      for await (const text of res) chunks.push({ at: Date.now() - started, text: text as string });

      const body = chunks.map((c) => c.text).join('');
      expect(body.match(/^event: tick$/gm)).to.have.length(5);
      expect(body).to.match(/event: done\ndata: \{\}\n\n$/);
      // Streamed, not buffered: the first bytes came long before the last.
      expect(chunks[chunks.length - 1]!.at - chunks[0]!.at).to.be.greaterThan(500);
    });
  });

  describe('/feed (live activity over server-sent events)', () => {
    it('sends what happens to users as it happens, read with the typed client', async () => {
      const { port } = server.address() as AddressInfo;
      const client = createClient({ baseUrl: `http://127.0.0.1:${port}` });
      const stop = new AbortController();
      const watched = (async () => {
        for await (const event of client.events('/feed', { signal: stop.signal })) {
          const { action, user } = event.data as { action: string; user: { name: string } };
          if (user.name === 'Feed Watcher') return { event: event.event, action, id: event.id };
        }
      })();
      await api
        .post('/api/users')
        .set(auth)
        .send({ name: 'Feed Watcher', email: 'feed@example.com' })
        .expect(201);
      const seen = await watched;
      stop.abort();
      expect(seen).to.include({ event: 'activity', action: 'created' });
      expect(seen!.id).to.match(/^\d+$/);
    });
  });

  describe('legacy routes, 404 and errors', () => {
    it('GET / is the HTML home page with links', async () => {
      const res = await api.get('/').expect(200).expect('Content-Type', /html/);
      for (const href of ['/api/users', '/proxy/health', '/contact', '/events', '/legacy/health']) {
        expect(res.text).to.include(`href="${href}"`);
      }
    });

    it('GET /legacy/health answers JSON', async () => {
      const res = await api.get('/legacy/health').expect(200).expect('Content-Type', /json/);
      expect(res.body.status).to.equal('ok');
    });

    it('an unknown path: the 404 handler answers JSON', async () => {
      await api.get('/no/such/thing').expect(404, { error: 'Not Found', path: '/no/such/thing' });
    });

    it('a thrown error: the error handler answers 500 JSON without a stack trace, and logs it', async () => {
      const res = await api.get('/legacy/error').expect(500).expect('Content-Type', /json/);
      expect(res.body).to.deep.equal({ error: 'Internal Server Error' });
      expect(res.text).not.to.match(/at |Something broke/);
      expect(logger.errors.some((e) => e instanceof Error && /Something broke/.test(e.message))).to.equal(
        true,
      );
    });
  });
});
