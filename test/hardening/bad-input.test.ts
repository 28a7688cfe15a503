/**
 * Bad input, each with its defined answer — a clear 4xx (or the app's own 404 for what is not
 * ours), never a crash, a hang or an unhandled rejection. Exact bytes go out over raw sockets,
 * so nothing on the client side fixes them up first.
 */
import http from 'node:http';
import path from 'node:path';
import express from 'express';
import { expect } from 'chai';
import { mountEndpoints, type EndpointErrorInfo } from '../../src';
import {
  FIXTURE_DIR,
  rawBody,
  rawExchange,
  httpRequest,
  startServer,
  unhandledRejectionTripwire,
  type TestServer,
} from './helpers';

const get = (target: string, headers = 'Host: example.test\r\n', method = 'GET', version = '1.1') =>
  `${method} ${target} HTTP/${version}\r\n${headers}Connection: close\r\n\r\n`;
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;
const fixtureFile = (route: string) =>
  path.posix.join('test/fixtures/hardening-app/app', route, 'endpoint.ts');

describe('hardening: bad input', function () {
  this.timeout(10_000);
  unhandledRejectionTripwire();

  let app: TestServer;
  /** Room for very long request lines, so the router — not Node's header limit — meets them. */
  let roomy: TestServer;
  before(async () => {
    [app, roomy] = await Promise.all([startServer(), startServer({}, { maxHeaderSize: 256 * 1024 })]);
  });
  after(() => Promise.all([app, roomy].map((s) => s.close())));
  afterEach(() => {
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  /** The server still answers a normal request after whatever the test sent. */
  async function stillServing(server: TestServer = app) {
    const reply = await httpRequest(`${server.url}/methods/get-only`);
    expect([reply.status, reply.body.toString()]).to.deep.equal([200, 'get']);
  }

  describe('percent-encoding', () => {
    for (const target of [
      '/segments/%zz',
      '/segments/a/%',
      '/segments/%E0%A4%A',
      '/segments/%C3%28',
      '/params/p1/%ff',
    ]) {
      it(`malformed in a path a route takes (${target}): 400`, async () => {
        const reply = await rawExchange(app.port, get(target));
        expect(reply.status).to.equal(400);
        expect(rawBody(reply)).to.match(/malformed percent-encoding/);
      });
    }

    it('malformed in a path no route takes: left to the app (its 404)', async () => {
      const reply = await rawExchange(app.port, get('/nowhere/%zz'));
      expect(reply.status).to.equal(404);
      expect(rawBody(reply)).to.equal('app 404');
    });

    it('malformed in the query: the handler gets the query as sent', async () => {
      const reply = await rawExchange(app.port, get('/echo?a=%zz&%=1&b=%E0%A4'));
      expect(reply.status).to.equal(200);
      const meta = json(Buffer.from(/x-echo-meta: (\S+)/i.exec(reply.text)![1]!, 'base64').toString());
      expect(meta.search).to.equal('?a=%zz&%=1&b=%E0%A4');
    });
  });

  describe('Host header', () => {
    it('missing on HTTP/1.1: Node answers 400 before any middleware', async () => {
      const reply = await rawExchange(app.port, get('/headers', ''));
      expect(reply.status).to.equal(400);
      await stillServing();
    });

    it('missing on HTTP/1.0: the handler sees http://localhost', async () => {
      const reply = await rawExchange(app.port, `GET /headers HTTP/1.0\r\n\r\n`);
      expect(reply.status).to.equal(200);
      expect(json(rawBody(reply)).url).to.equal('http://localhost/headers');
    });

    it('empty: the handler sees http://localhost', async () => {
      const reply = await rawExchange(app.port, get('/headers', 'Host: \r\n'));
      expect(reply.status).to.equal(200);
      expect(json(rawBody(reply)).url).to.equal('http://localhost/headers');
    });

    const garbage = [
      'a b',
      'evil.test/path',
      'user@evil.test',
      '[::1',
      '[1:2]',
      'x:port',
      'x:99999',
      'foo.123',
    ];
    for (const host of [...garbage, '999.1.1.1', 'caf\xe9.test', 'a\x01b', '%', 'a%zzb', 'a%00b']) {
      it(`garbage (${JSON.stringify(host)}): 400, the handler never runs`, async () => {
        const reply = await rawExchange(
          app.port,
          Buffer.from(get('/headers', `Host: ${host}\r\n`), 'latin1'),
        );
        expect(reply.status).to.equal(400);
        await stillServing();
      });
    }

    it('a valid one with a port, and an IPv6 literal, are kept', async () => {
      const named = await rawExchange(app.port, get('/headers', 'Host: example.test:8080\r\n'));
      expect(json(rawBody(named)).url).to.equal('http://example.test:8080/headers');
      const ipv6 = await rawExchange(app.port, get('/headers', 'Host: [::1]:8080\r\n'));
      expect(json(rawBody(ipv6)).url).to.equal('http://[::1]:8080/headers');
    });
  });

  describe('request targets', () => {
    it('absolute-form: routed by its path, the handler sees its URL', async () => {
      const reply = await rawExchange(app.port, get('http://example.test/headers?x=1'));
      expect(reply.status).to.equal(200);
      expect(json(rawBody(reply)).url).to.equal('http://example.test/headers?x=1');
    });

    it('absolute-form naming another host than Host: 400, nothing told to onError', async () => {
      const reply = await rawExchange(app.port, get('http://other.test/headers?x=1'));
      expect(reply.status).to.equal(400);
      expect(app.reported).to.deep.equal([]);
    });

    it('absolute-form over HTTP/1.0 with no Host: the target names the host', async () => {
      const reply = await rawExchange(app.port, `GET http://other.test/headers HTTP/1.0\r\n\r\n`);
      expect(reply.status).to.equal(200);
      expect(json(rawBody(reply)).url).to.equal('http://other.test/headers');
    });

    it('absolute-form that is not a URL: 400', async () => {
      const reply = await rawExchange(app.port, get('http://other.test:99999/headers'));
      expect(reply.status).to.equal(400);
      await stillServing();
    });

    it('absolute-form with no route: left to the app', async () => {
      const reply = await rawExchange(app.port, get('http://other.test/nowhere'));
      expect(reply.status).to.equal(404);
      expect(rawBody(reply)).to.equal('app 404');
    });

    it('OPTIONS *: not a path of ours, left to the app (no crash)', async () => {
      const reply = await rawExchange(app.port, get('*', undefined, 'OPTIONS'));
      expect(reply.status).to.equal(404);
      await stillServing();
    });

    it('a 64 KiB URL: Node answers 431 itself, the server lives on', async () => {
      const reply = await rawExchange(app.port, get(`/segments/${'a'.repeat(64 * 1024)}`));
      expect(reply.status).to.equal(431);
      await stillServing();
    });

    it('a 64 KiB URL under a larger maxHeaderSize reaches the route', async () => {
      const reply = await rawExchange(roomy.port, get(`/segments/${'a'.repeat(64 * 1024)}`));
      expect(reply.status).to.equal(200);
      expect(json(rawBody(reply))).to.deep.equal({ count: 1 });
    });

    it('10,000 segments: matched by the catch-all, quickly', async () => {
      const started = Date.now();
      const reply = await rawExchange(roomy.port, get(`/segments${'/a'.repeat(10_000)}`));
      expect(reply.status).to.equal(200);
      expect(json(rawBody(reply))).to.deep.equal({ count: 10_000 });
      const missed = await rawExchange(roomy.port, get(`/methods${'/a'.repeat(10_000)}`));
      expect(missed.status).to.equal(404);
      expect(Date.now() - started).to.be.lessThan(2000);
    });

    it('10,000 empty segments and 10,000 malformed ones: defined answers', async () => {
      const empty = await rawExchange(roomy.port, get(`/segments${'/'.repeat(10_000)}a`));
      expect(empty.status).to.equal(404);
      const malformed = await rawExchange(roomy.port, get(`/segments${'/%zz'.repeat(10_000)}`));
      expect(malformed.status).to.equal(400);
    });
  });

  describe('methods', () => {
    it("PROPFIND on an endpoint without ANY: the app's 404", async () => {
      const reply = await rawExchange(app.port, get('/methods/get-only', undefined, 'PROPFIND'));
      expect([reply.status, rawBody(reply)]).to.deep.equal([404, 'app 404']);
    });

    it("PROPFIND on an endpoint without ANY, with unservedMethods: '405': 405 with Allow", async () => {
      const strict = await startServer({ unservedMethods: '405' });
      try {
        const reply = await rawExchange(strict.port, get('/methods/get-only', undefined, 'PROPFIND'));
        expect(reply.status).to.equal(405);
        expect(reply.text).to.match(/\r\nAllow: GET, HEAD, OPTIONS\r\n/i);
      } finally {
        await strict.close();
      }
    });

    it('PROPFIND on an endpoint with ANY: the handler gets it', async () => {
      const reply = await rawExchange(app.port, get('/methods/any', undefined, 'PROPFIND'));
      expect(reply.status).to.equal(200);
      expect(json(rawBody(reply))).to.deep.equal({ method: 'PROPFIND' });
    });

    it('FOO: Node rejects it with 400, the server lives on', async () => {
      const reply = await rawExchange(app.port, get('/methods/any', undefined, 'FOO'));
      expect(reply.status).to.equal(400);
      await stillServing();
    });

    it('a lower-case method (get) is not GET: Node rejects it', async () => {
      const reply = await rawExchange(app.port, get('/methods/get-only', undefined, 'get'));
      expect(reply.status).to.equal(400);
      await stillServing();
    });
  });

  describe('header values', () => {
    it('latin1 bytes reach the handler as those code points', async () => {
      const bytes = Buffer.concat([
        Buffer.from('GET /headers HTTP/1.1\r\nHost: x\r\nX-Latin1: caf'),
        Buffer.from([0xe9, 0xff, 0x80]),
        Buffer.from('\r\nConnection: close\r\n\r\n'),
      ]);
      const reply = await rawExchange(app.port, bytes);
      expect(reply.status).to.equal(200);
      expect(json(rawBody(reply)).codes).to.deep.equal([0x63, 0x61, 0x66, 0xe9, 0xff, 0x80]);
    });

    it('UTF-8 bytes reach the handler byte for byte (one code point per byte, as fetch does)', async () => {
      const bytes = Buffer.concat([
        Buffer.from('GET /headers HTTP/1.1\r\nHost: x\r\nX-Latin1: '),
        Buffer.from('é✓', 'utf8'),
        Buffer.from('\r\nConnection: close\r\n\r\n'),
      ]);
      const reply = await rawExchange(app.port, bytes);
      expect(json(rawBody(reply)).codes).to.deep.equal([...Buffer.from('é✓', 'utf8')]);
    });

    it('a NUL byte in a header value: Node rejects it with 400', async () => {
      const reply = await rawExchange(
        app.port,
        Buffer.from(get('/headers', 'Host: x\r\nX-Latin1: a\x00b\r\n'), 'latin1'),
      );
      expect(reply.status).to.equal(400);
      await stillServing();
    });
  });

  describe('__proto__ and constructor', () => {
    it('a folder named __proto__ is private (leading underscore): not a route', async () => {
      const reply = await rawExchange(app.port, get('/proto/__proto__'));
      expect([reply.status, rawBody(reply)]).to.deep.equal([404, 'app 404']);
    });

    it('a folder named constructor is an ordinary route', async () => {
      const reply = await rawExchange(app.port, get('/proto/constructor'));
      expect([reply.status, rawBody(reply)]).to.deep.equal([200, 'static constructor']);
    });

    it('a [__proto__] param is an own key of a prototype-less params object', async () => {
      for (const value of ['__proto__', 'polluted', 'constructor', '%5F%5Fproto%5F%5F']) {
        const reply = await rawExchange(app.port, get(`/params/p1/${value}`));
        expect(json(rawBody(reply))).to.deep.equal({
          own: ['__proto__'],
          value: decodeURIComponent(value),
          proto: null,
        });
      }
    });

    it('[constructor] and [...prototype] params are own keys too', async () => {
      const reply = await rawExchange(app.port, get('/params/p2/__proto__/__proto__/polluted'));
      expect(json(rawBody(reply))).to.deep.equal({
        own: ['constructor', 'prototype'],
        constructor: '__proto__',
        prototype: ['__proto__', 'polluted'],
      });
    });

    it('__proto__ in query strings and header names pollutes nothing', async () => {
      const reply = await rawExchange(
        app.port,
        get(
          '/echo?__proto__[polluted]=1&constructor[prototype][polluted]=1',
          'Host: x\r\n__proto__: x\r\nX-Echo-__proto__: y\r\n',
        ),
      );
      expect(reply.status).to.equal(200);
    });
  });

  describe('handlers that return something else than a Response', () => {
    // The export, what it returned, and the fix for that (the words: messages.test.ts).
    const cases = [
      ['bad-return/undefined', 'GET', /\bexport GET\b.*\bundefined\b.*\breturn\b.*\bmissing\b/],
      ['bad-return/object', 'GET', /\bexport GET\b.*\bobject\b.*\bResponse\.json\(/],
      ['bad-return/promise-object', 'POST', /\bexport POST\b.*\bobject\b.*\bResponse\.json\(/],
    ] as const;
    for (const [route, method, message] of cases) {
      it(`${route}: an error naming file and export reaches next(err); no details to the client`, async () => {
        app.appErrors.length = 0;
        const reply = await httpRequest(`${app.url}/${route}`, { method });
        expect([reply.status, reply.body.toString()]).to.deep.equal([500, 'app error']);
        expect(app.appErrors).to.have.length(1);
        expect(app.appErrors[0]!.startsWith(`${fixtureFile(route)}: `)).to.equal(true);
        expect(app.appErrors[0]).to.match(message);
      });
    }

    it('on a bare node:http server the answer is a plain 500 without details', async () => {
      const reported: unknown[] = [];
      const endpoints = mountEndpoints({ dir: FIXTURE_DIR, onError: (error) => reported.push(error) });
      await endpoints.ready;
      const server = http.createServer((req, res) => endpoints(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as { port: number };
        const reply = await httpRequest(`http://127.0.0.1:${port}/bad-return/undefined`);
        expect(reply.status).to.equal(500);
        expect(reply.body.toString())
          .to.match(/server error/i)
          .and.not.include('undefined');
        expect(reported).to.have.length(1);
        expect(
          (reported[0] as Error).message.startsWith(`${fixtureFile('bad-return/undefined')}: `),
        ).to.equal(true);
        expect((reported[0] as Error).message).to.match(/\bexport GET\b.*\bundefined\b/);
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });

    it('through .fetch() the answer is a 500, and onError gets the error naming file and export', async () => {
      const seen: Array<[unknown, EndpointErrorInfo]> = [];
      const endpoints = mountEndpoints({ dir: FIXTURE_DIR, onError: (e, info) => seen.push([e, info]) });
      const res = await endpoints.fetch(new Request('http://localhost/bad-return/object'));
      expect(res.status).to.equal(500);
      expect(await res.text()).to.match(/server error/i);
      expect(seen).to.have.length(1);
      const [error, info] = seen[0]!;
      expect(error).to.be.instanceOf(TypeError);
      expect((error as Error).message).to.include(fixtureFile('bad-return/object'));
      expect([info.file, info.export, info.route, info.passedToNext]).to.deep.equal([
        fixtureFile('bad-return/object'),
        'GET',
        '/bad-return/object',
        false,
      ]);
    });
  });

  describe('bodies read twice or never', () => {
    it('a second read rejects with TypeError', async () => {
      const reply = await httpRequest(`${app.url}/read-twice`, { method: 'POST', body: 'abc' });
      expect(json(reply.body.toString())).to.deep.equal({ first: 'abc', second: 'TypeError' });
    });

    it('a body never read leaves the connection usable (see body-limits: unread bodies)', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const first = await httpRequest(`${app.url}/ignore-body`, {
          method: 'POST',
          body: 'x'.repeat(5000),
          agent,
        });
        const second = await httpRequest(`${app.url}/ignore-body`, {
          method: 'POST',
          body: 'y'.repeat(5000),
          agent,
        });
        expect([first.status, second.status]).to.deep.equal([200, 200]);
        expect(second.localPort).to.equal(first.localPort);
      } finally {
        agent.destroy();
      }
    });
  });

  describe('a Response body stream that errors midway', () => {
    it('the client gets the first chunk, then a broken connection; no details leak', async () => {
      app.reported.length = 0;
      const reply = await rawExchange(app.port, get('/stream-error'));
      expect(reply.status).to.equal(200);
      expect(reply.text).to.include('first chunk');
      // Chunked encoding never finished: no terminating zero-length chunk.
      expect(reply.text.endsWith('0\r\n\r\n')).to.equal(false);
      expect(reply.text).not.to.include('database');
      expect(reply.ended).to.not.equal('timeout');
      // The error is told to onError, which the app's error handler can no longer see.
      expect(app.reported).to.deep.equal(['the database went away (stack must not reach the client)']);
      await stillServing();
    });

    it('through http.get the response emits an error (aborted), not a clean end', async () => {
      const outcome = await new Promise<string>((resolve) => {
        http
          .get(`${app.url}/stream-error`, { agent: false }, (res) => {
            res.on('data', () => {});
            res.on('end', () => resolve('end'));
            res.on('error', (e) => resolve(`error: ${e.message}`));
          })
          .on('error', (e) => resolve(`request error: ${e.message}`));
      });
      expect(outcome).to.match(/^error|^request error/);
    });
  });

  describe('trust proxy', () => {
    let proxied: { url: string; close(): void };
    before(async () => {
      const expressApp = express();
      expressApp.set('trust proxy', true);
      await mountEndpoints(expressApp, { dir: FIXTURE_DIR });
      const server = http.createServer(expressApp);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      proxied = {
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      };
    });
    after(() => proxied.close());

    it('X-Forwarded-Proto: https is followed', async () => {
      const reply = await httpRequest(`${proxied.url}/headers`, {
        headers: { 'x-forwarded-proto': 'https', host: 'a.test' },
      });
      expect(json(reply.body.toString()).url).to.equal('https://a.test/headers');
    });

    for (const proto of ['javascript', 'a b', 'http://evil', '']) {
      it(`X-Forwarded-Proto ${JSON.stringify(proto)}: 400, never a URL the handler cannot parse`, async () => {
        const reply = await httpRequest(`${proxied.url}/headers`, {
          headers: { 'x-forwarded-proto': proto, host: 'a.test' },
        });
        if (proto === '') {
          // An empty header is no header: the connection's own protocol.
          expect(json(reply.body.toString()).url).to.equal('http://a.test/headers');
        } else {
          expect(reply.status).to.equal(400);
        }
      });
    }
  });
});
