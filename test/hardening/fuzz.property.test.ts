/**
 * Property tests with fast-check:
 *   - random bytes, headers and query strings through the bridge on a real server arrive exactly
 *     as sent (the handler sees them; the client gets the same bytes back), with Content-Length
 *     or chunked in random pieces;
 *   - random `createTestRequest` inputs: never throws for valid method tokens, the origin is
 *     always http://localhost, the method is upper-cased, and the body rules hold.
 * (The router has its own property test against a reference matcher: test/unit/router.property.test.ts.)
 */
import http from 'node:http';
import { expect } from 'chai';
import fc from 'fast-check';
import { createTestRequest } from '../../src/testing';
import { startServer, unhandledRejectionTripwire, type TestServer } from './helpers';

// --- arbitraries ----------------------------------------------------------------------------

const TCHAR = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const token = fc.string({ unit: fc.constantFrom(...TCHAR), minLength: 1, maxLength: 12 });

/** Every byte a header value may hold (HTAB, SP, VCHAR, obs-text), with no blank at either end. */
const headerValue = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0x21, max: 0x7e }) },
      { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
      { weight: 1, arbitrary: fc.constantFrom(0x20, 0x09) },
    ),
    { maxLength: 40 },
  )
  .map((codes) => String.fromCharCode(...codes).trim());

/** Query strings: what a client may put in a request target, `%` escapes good and bad included. */
const queryString = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)) },
      {
        weight: 2,
        arbitrary: fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).padStart(2, '0')}`),
      },
      { weight: 1, arbitrary: fc.constantFrom('=', '&', '%', '%zz', '+', '?', '/', '__proto__', '[]') },
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join('').replace(/#/g, '%23'));

const echoHeaders = fc.uniqueArray(fc.tuple(token, headerValue), {
  maxLength: 6,
  selector: ([name]) => name.toLowerCase(),
});

const echoCase = fc.record({
  method: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND'),
  query: queryString,
  headers: echoHeaders,
  body: fc.oneof(
    { weight: 4, arbitrary: fc.uint8Array({ maxLength: 2048 }) },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 16 * 1024, maxLength: 100 * 1024 }) },
  ),
  /** `null`: Content-Length; otherwise chunked, cut at these fractions of the body. */
  cuts: fc.option(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 })),
});

type EchoCase = typeof echoCase extends fc.Arbitrary<infer T> ? T : never;

// --- the round trip -------------------------------------------------------------------------

interface Echoed {
  status: number;
  body: Buffer;
  meta: { method: string; url: string; search: string; headers: [string, string][] };
}

function echo(server: TestServer, agent: http.Agent, c: EchoCase): Promise<Echoed> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: 'fuzz.test' };
    for (const [name, value] of c.headers) headers[`x-echo-${name}`] = value;
    // Explicit framing: Node's client sends no chunked framing for DELETE unless told to.
    if (c.cuts === null) headers['content-length'] = String(c.body.length);
    else headers['transfer-encoding'] = 'chunked';
    const target = c.query === '' ? '/echo' : `/echo?${c.query}`;
    // `path`, not a URL string: a URL would be normalised (`'` -> `%27`) before it is sent.
    const req = http.request({
      host: '127.0.0.1',
      port: server.port,
      path: target,
      method: c.method,
      headers,
      agent,
    });
    req.setTimeout(5000, () => req.destroy(new Error(`no answer in 5 s to ${JSON.stringify(c)}`)));
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const raw = res.headers['x-echo-meta'];
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
          meta: raw ? JSON.parse(Buffer.from(String(raw), 'base64').toString()) : undefined,
        });
      });
    });
    if (c.cuts === null) {
      req.end(c.body);
      return;
    }
    const points = [...new Set(c.cuts.map((f) => Math.floor(f * c.body.length)))].sort((a, b) => a - b);
    let from = 0;
    for (const at of points) {
      if (at > from) req.write(c.body.subarray(from, at));
      from = Math.max(from, at);
    }
    req.end(c.body.subarray(from));
  });
}

describe('hardening: property tests', function () {
  this.timeout(20_000);
  unhandledRejectionTripwire();

  describe('through the bridge on a real server', () => {
    let server: TestServer;
    let agent: http.Agent;
    before(async () => {
      server = await startServer();
      agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    });
    after(async () => {
      agent.destroy();
      await server.close();
    });

    it('bodies, headers and query strings arrive exactly as sent, and the body comes back byte for byte', async () => {
      await fc.assert(
        fc.asyncProperty(echoCase, async (c) => {
          const got = await echo(server, agent, c);
          expect(got.status).to.equal(200);
          expect(got.meta.method).to.equal(c.method);
          const target = c.query === '' ? '/echo' : `/echo?${c.query}`;
          // A Request's url is the parsed URL, serialized: what a native Request built from it shows.
          expect(got.meta.url).to.equal(new Request(`http://fuzz.test${target}`).url);
          expect(got.meta.search).to.equal(new URL(`http://fuzz.test${target}`).search);
          const sent = c.headers.map(([name, value]) => [`x-echo-${name.toLowerCase()}`, value]);
          expect(got.meta.headers).to.deep.equal(sent.sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0)));
          expect(got.body.equals(Buffer.from(c.body))).to.equal(true);
        }),
        { numRuns: 150 },
      );
    });
  });

  describe('createTestRequest', () => {
    const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);
    const path = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.constantFrom(
        '//evil.test/x',
        'http://evil.test/x',
        '\\\\evil.test',
        '@evil.test',
        '?a=1',
        '#h',
        '',
        '/',
      ),
      fc
        .array(fc.constantFrom('a', '..', '.', '%2e', '%zz', ':', '@', '\\', ' ', '\t'), { maxLength: 6 })
        .map((p) => p.join('/')),
    );
    const body = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ maxLength: 20 }).map((s) => `{${s}`),
      fc.uint8Array({ maxLength: 64 }),
    );
    const headers = fc.uniqueArray(fc.tuple(token, headerValue), {
      maxLength: 4,
      selector: ([n]) => n.toLowerCase(),
    });
    const method = fc.option(
      fc.oneof(
        token,
        fc.constantFrom('get', 'head', 'post', 'Patch', 'delete', 'options', 'put', 'HEAD', 'GET'),
      ),
      { nil: undefined },
    );

    it('never throws for valid method tokens; origin, method and body rules hold', async () => {
      await fc.assert(
        fc.asyncProperty(path, method, headers, body, async (p, m, h, b) => {
          const upper = (m ?? 'GET').toUpperCase();
          fc.pre(!FORBIDDEN.has(upper));
          const request = createTestRequest(p, { method: m, headers: h, body: b });
          const url = new URL(request.url);
          expect(url.origin).to.equal('http://localhost');
          expect(request.method).to.equal(upper);
          for (const [name, value] of h) expect(request.headers.get(name)).to.equal(value);

          const given = new Headers(h).get('content-type');
          if (b == null || upper === 'GET' || upper === 'HEAD') {
            expect(request.body).to.equal(null);
            expect(request.headers.get('content-type')).to.equal(given);
            return;
          }
          if (typeof b === 'string') {
            expect(await request.text()).to.equal(b);
            const expected = given ?? (b.startsWith('{') ? 'application/json' : 'text/plain;charset=UTF-8');
            expect(request.headers.get('content-type')).to.equal(expected);
          } else {
            expect(Buffer.from(await request.arrayBuffer()).equals(Buffer.from(b))).to.equal(true);
            expect(request.headers.get('content-type')).to.equal(given);
          }
        }),
        { numRuns: 300 },
      );
    });

    it('methods fetch forbids and methods that are not tokens throw TypeError, like fetch', () => {
      const bad = fc.oneof(
        fc.constantFrom('connect', 'CONNECT', 'Trace', 'track'),
        fc
          .tuple(token, fc.constantFrom(' ', '(', '"', '/', '\u00e9', ''), token)
          .map(([a, c, z]) => a + c + z),
      );
      fc.assert(
        fc.property(bad, (m) => {
          fc.pre(/[^!#$%&'*+\-.^_`|~0-9A-Za-z]/.test(m) || FORBIDDEN.has(m.toUpperCase()));
          expect(() => createTestRequest('/', { method: m })).to.throw(TypeError);
        }),
        { numRuns: 100 },
      );
    });
  });
});
