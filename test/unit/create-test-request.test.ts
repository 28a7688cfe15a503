/**
 * createTestRequest (`express-endpoints/testing`): every rule of the spec's "Test helper"
 * section, the edges around them (hostile paths, method case, header-name case, non-string
 * bodies), and the spec's typical use: a handler module and a `(req, next)` middleware.
 */
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { createTestRequest, type TestRequestOptions } from '../../src/testing';
import type { EndpointHandler, WebMiddleware } from '../../src/types';

const ORIGIN = 'http://localhost';

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('createTestRequest', () => {
  describe('rule 1: a leading / is added when missing', () => {
    it('adds it to a bare path', () => {
      expect(createTestRequest('api/users').url).to.equal('http://localhost/api/users');
    });

    it('keeps a path that already has one', () => {
      expect(createTestRequest('/api/users').url).to.equal('http://localhost/api/users');
    });

    it('turns the empty string into /', () => {
      expect(createTestRequest('').url).to.equal('http://localhost/');
    });

    it('adds it before a bare query string', () => {
      expect(createTestRequest('?q=1').url).to.equal('http://localhost/?q=1');
    });
  });

  describe('rule 2: resolved against http://localhost', () => {
    it('uses scheme http, host localhost and no port', () => {
      const url = new URL(createTestRequest('/api/users').url);
      expect(url.protocol).to.equal('http:');
      expect(url.hostname).to.equal('localhost');
      expect(url.port).to.equal('');
      expect(url.origin).to.equal(ORIGIN);
    });

    const hostile = [
      '//evil.test/x',
      '///evil.test/x',
      'http://other/x',
      'https://other:8443/x',
      '\\\\evil',
      '/\\evil',
      '\\/evil',
      '@host',
      '@evil.test/x',
      'user:pass@evil.test/x',
      ':8080/x',
      '\t//evil.test/x',
      '\n//evil.test/x',
      '/\t/evil.test/x',
    ];
    for (const path of hostile) {
      it(`keeps the origin for ${JSON.stringify(path)}`, () => {
        const url = new URL(createTestRequest(path).url);
        expect(url.origin).to.equal(ORIGIN);
        expect(url.username).to.equal('');
        expect(url.password).to.equal('');
      });
    }

    it('makes an absolute URL a path on localhost', () => {
      expect(new URL(createTestRequest('http://other/x').url).pathname).to.equal('/http://other/x');
    });

    it('keeps query strings and hashes', () => {
      const req = createTestRequest('/search?q=a%20b&tag=x&tag=y#results');
      expect(req.url).to.equal('http://localhost/search?q=a%20b&tag=x&tag=y#results');
      const url = new URL(req.url);
      expect(url.pathname).to.equal('/search');
      expect(url.searchParams.get('q')).to.equal('a b');
      expect(url.searchParams.getAll('tag')).to.deep.equal(['x', 'y']);
      expect(url.hash).to.equal('#results');
    });

    it('keeps percent-encoded segments as they are', () => {
      expect(createTestRequest('/files/a%2Fb').url).to.equal('http://localhost/files/a%2Fb');
    });
  });

  describe('rule 3: the method defaults to GET', () => {
    it('without options', () => {
      expect(createTestRequest('/').method).to.equal('GET');
    });

    it('with options but no method', () => {
      expect(createTestRequest('/', {}).method).to.equal('GET');
      expect(createTestRequest('/', { method: undefined }).method).to.equal('GET');
    });
  });

  describe('the method is upper-cased', () => {
    const cases: Array<[string, string]> = [
      ['patch', 'PATCH'],
      ['Patch', 'PATCH'],
      ['post', 'POST'],
      ['pUt', 'PUT'],
      ['delete', 'DELETE'],
      ['options', 'OPTIONS'],
      ['get', 'GET'],
      ['head', 'HEAD'],
      ['purge', 'PURGE'],
    ];
    for (const [given, expected] of cases) {
      it(`${given} -> ${expected}`, () => {
        expect(createTestRequest('/', { method: given }).method).to.equal(expected);
      });
    }

    it('where fetch itself keeps the case of methods outside its normalised six', () => {
      // The control: `Request` upper-cases only DELETE/GET/HEAD/OPTIONS/POST/PUT; `patch` and
      // custom methods stay as written (and `patch` would then miss a `PATCH` export).
      expect(new Request(ORIGIN, { method: 'purge' }).method).to.equal('purge');
      expect(createTestRequest('/', { method: 'purge' }).method).to.equal('PURGE');
    });

    it('rejects methods fetch forbids, as fetch does', () => {
      expect(() => createTestRequest('/', { method: 'connect' })).to.throw(TypeError);
    });
  });

  describe('rule 4: headers are set on the request', () => {
    it('from a record', () => {
      const req = createTestRequest('/', { headers: { Authorization: 'Bearer t', 'X-Trace': '1' } });
      expect(req.headers.get('authorization')).to.equal('Bearer t');
      expect(req.headers.get('x-trace')).to.equal('1');
    });

    it('from a Headers', () => {
      const headers = new Headers({ accept: 'application/json' });
      headers.append('x-multi', 'a');
      headers.append('x-multi', 'b');
      const req = createTestRequest('/', { headers });
      expect(req.headers.get('accept')).to.equal('application/json');
      expect(req.headers.get('x-multi')).to.equal('a, b');
    });

    it('from [name, value] pairs', () => {
      const req = createTestRequest('/', {
        headers: [
          ['set-cookie', 'a=1'],
          ['set-cookie', 'b=2'],
        ],
      });
      expect(req.headers.getSetCookie()).to.deep.equal(['a=1', 'b=2']);
    });

    it("does not change the caller's Headers when it adds the JSON type", () => {
      const headers = new Headers({ 'x-a': '1' });
      const req = createTestRequest('/', { method: 'POST', headers, body: '{}' });
      expect(req.headers.get('content-type')).to.equal('application/json');
      expect(headers.has('content-type')).to.equal(false);
    });

    it('keeps headers on GET and HEAD requests', () => {
      for (const method of ['GET', 'HEAD']) {
        const req = createTestRequest('/', { method, headers: { 'if-none-match': '"v1"' } });
        expect(req.headers.get('if-none-match')).to.equal('"v1"');
      }
    });
  });

  describe('rule 5: the body is sent only for methods other than GET and HEAD', () => {
    for (const method of ['POST', 'put', 'Patch', 'delete', 'OPTIONS', 'report']) {
      it(`sends it for ${method}`, async () => {
        const req = createTestRequest('/', { method, body: 'hello' });
        expect(await req.text()).to.equal('hello');
      });
    }

    for (const method of [undefined, 'GET', 'get', 'Get', 'HEAD', 'head', 'Head']) {
      it(`drops it, without throwing, for ${method ?? 'the default method'}`, async () => {
        const req = createTestRequest('/', { method, body: '{"a":1}' });
        expect(req.body).to.equal(null);
        expect(req.headers.has('content-type')).to.equal(false);
        expect(await req.text()).to.equal('');
      });
    }

    it('sends no body when the body is null or absent', () => {
      expect(createTestRequest('/', { method: 'POST', body: null }).body).to.equal(null);
      expect(createTestRequest('/', { method: 'POST' }).body).to.equal(null);
    });

    it('sends an empty string body as empty, with fetch’s text type', async () => {
      const req = createTestRequest('/', { method: 'POST', body: '' });
      expect(req.headers.get('content-type')).to.equal('text/plain;charset=UTF-8');
      expect(await req.text()).to.equal('');
    });
  });

  describe('rule 6: application/json for a body starting with { and no Content-Type', () => {
    it('sets it, and the body parses as JSON', async () => {
      const req = createTestRequest('/api/users', { method: 'POST', body: '{"name":"Ada"}' });
      expect(req.headers.get('content-type')).to.equal('application/json');
      expect(await req.json()).to.deep.equal({ name: 'Ada' });
    });

    it('looks only at the first character, not at whether the body is valid JSON', () => {
      const req = createTestRequest('/', { method: 'POST', body: '{not json' });
      expect(req.headers.get('content-type')).to.equal('application/json');
    });

    for (const name of ['content-type', 'Content-Type', 'CONTENT-TYPE']) {
      it(`keeps a given ${name} header (record)`, () => {
        const req = createTestRequest('/', {
          method: 'POST',
          headers: { [name]: 'application/merge-patch+json' },
          body: '{"a":1}',
        });
        expect(req.headers.get('content-type')).to.equal('application/merge-patch+json');
        expect([...req.headers.keys()].filter((key) => key === 'content-type')).to.have.length(1);
      });
    }

    it('keeps a given Content-Type header (Headers)', () => {
      const headers = new Headers({ 'Content-Type': 'text/plain' });
      const req = createTestRequest('/', { method: 'POST', headers, body: '{"a":1}' });
      expect(req.headers.get('content-type')).to.equal('text/plain');
    });

    it('keeps an empty Content-Type header as given', () => {
      const req = createTestRequest('/', { method: 'POST', headers: { 'content-type': '' }, body: '{}' });
      expect(req.headers.get('content-type')).to.equal('');
    });

    const notJsonStart = ['[1,2]', ' {"a":1}', '\n{"a":1}', '"text"', 'a=1'];
    for (const body of notJsonStart) {
      it(`leaves ${JSON.stringify(body)} with fetch’s text type`, () => {
        const req = createTestRequest('/', { method: 'POST', body });
        expect(req.headers.get('content-type')).to.equal('text/plain;charset=UTF-8');
      });
    }
  });

  describe('non-string bodies', () => {
    it('sends a Uint8Array byte for byte, with no content type', async () => {
      const bytes = new Uint8Array([0x7b, 0x00, 0xff, 0x7d]); // starts with `{`: still not JSON
      const req = createTestRequest('/', { method: 'PUT', body: bytes });
      expect(req.headers.has('content-type')).to.equal(false);
      expect(new Uint8Array(await req.arrayBuffer())).to.deep.equal(bytes);
    });

    it('sends an ArrayBuffer', async () => {
      const req = createTestRequest('/', { method: 'PUT', body: new TextEncoder().encode('abc').buffer });
      expect(await req.text()).to.equal('abc');
    });

    it('gives URLSearchParams the urlencoded type', async () => {
      const req = createTestRequest('/', { method: 'POST', body: new URLSearchParams({ a: '1', b: 'x y' }) });
      expect(req.headers.get('content-type')).to.equal('application/x-www-form-urlencoded;charset=UTF-8');
      expect(await req.text()).to.equal('a=1&b=x+y');
    });

    it('gives FormData a multipart type with a boundary', async () => {
      const form = new FormData();
      form.set('name', 'Ada');
      form.set('file', new Blob(['hi'], { type: 'text/plain' }), 'hi.txt');
      const req = createTestRequest('/', { method: 'POST', body: form });
      expect(req.headers.get('content-type')).to.match(/^multipart\/form-data; boundary=.+/);
      const parsed = await req.formData();
      expect(parsed.get('name')).to.equal('Ada');
      expect(await (parsed.get('file') as File).text()).to.equal('hi');
    });

    it("gives a Blob its own type, and a typeless Blob none (even one that starts with '{')", async () => {
      const typed = createTestRequest('/', {
        method: 'POST',
        body: new Blob(['<a/>'], { type: 'text/xml' }),
      });
      expect(typed.headers.get('content-type')).to.equal('text/xml');
      const untyped = createTestRequest('/', { method: 'POST', body: new Blob(['{"a":1}']) });
      expect(untyped.headers.has('content-type')).to.equal(false);
      expect(await untyped.text()).to.equal('{"a":1}');
    });

    it('lets a given Content-Type win over the one fetch derives', () => {
      const req = createTestRequest('/', {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: new URLSearchParams({ a: '1' }),
      });
      expect(req.headers.get('content-type')).to.equal('text/plain');
    });

    it('streams a ReadableStream body', async () => {
      const req = createTestRequest('/upload', { method: 'POST', body: streamOf('a', 'b', 'c') });
      expect(req.headers.has('content-type')).to.equal(false);
      expect(await req.text()).to.equal('abc');
    });

    it('streams a Node Readable too (fetch accepts async iterables at runtime)', async () => {
      const body = Readable.from([Buffer.from('x'), Buffer.from('y')]) as unknown as ReadableStream;
      const req = createTestRequest('/upload', { method: 'POST', body });
      expect(await req.text()).to.equal('xy');
    });

    const nonStringBodies: Array<[string, () => TestRequestOptions['body']]> = [
      ['Uint8Array', () => new Uint8Array([1, 2, 3])],
      ['URLSearchParams', () => new URLSearchParams({ a: '1' })],
      ['FormData', () => new FormData()],
      ['Blob', () => new Blob(['x'], { type: 'text/plain' })],
      ['ReadableStream', () => streamOf('x')],
    ];
    for (const [kind, make] of nonStringBodies) {
      for (const method of ['get', 'Head']) {
        it(`drops a ${kind} body for ${method}, with no derived content type`, () => {
          const req = createTestRequest('/', { method, body: make() });
          expect(req.body).to.equal(null);
          expect(req.headers.has('content-type')).to.equal(false);
        });
      }
    }
  });

  describe('rule 7: the return value is a standard Request', () => {
    it('is an instance of the global Request, unread', () => {
      const req = createTestRequest('/');
      expect(req).to.be.instanceOf(Request);
      expect(req.bodyUsed).to.equal(false);
    });

    it('can be cloned and re-wrapped like any Request', async () => {
      const req = createTestRequest('/a', { method: 'POST', body: '{"a":1}' });
      expect(await req.clone().json()).to.deep.equal({ a: 1 });
      const copy = new Request(req, { headers: { 'x-copy': '1' } }); // takes over req's body
      expect(copy.url).to.equal('http://localhost/a');
      expect(copy.method).to.equal('POST');
      expect(await copy.json()).to.deep.equal({ a: 1 });
    });
  });

  describe('rule 8: typical use with a handler module and a middleware', () => {
    // app/api/users/endpoint.ts and app/api/users/[id]/endpoint.ts, as a user would write them.
    type User = { id: string; name: string };
    function userStore() {
      return new Map<string, User>([['1', { id: '1', name: 'Ada' }]]);
    }
    let users = userStore();
    beforeEach(() => {
      users = userStore();
    });

    const usersEndpoint: Record<'GET' | 'POST', EndpointHandler> = {
      GET: () => Response.json([...users.values()]),
      POST: async (req) => {
        const { name } = (await req.json()) as { name: string };
        const user = { id: String(users.size + 1), name };
        users.set(user.id, user);
        return Response.json(user, { status: 201 });
      },
    };

    const userEndpoint: Record<'GET' | 'DELETE', EndpointHandler<'[id]'>> = {
      GET: (_req, { params }) => {
        const user = users.get(params.id);
        return user ? Response.json(user) : new Response(null, { status: 404 });
      },
      DELETE: (_req, { params }) => {
        if (!users.delete(params.id)) return new Response(null, { status: 404 });
        return new Response(null, { status: 204 });
      },
    };

    it('GET returns 200 and the JSON body', async () => {
      const res = await userEndpoint.GET(createTestRequest('/api/users/1'), { params: { id: '1' } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/json');
      expect(await res.json()).to.deep.equal({ id: '1', name: 'Ada' });
    });

    it('GET returns 404 with a null body for an absent user', async () => {
      const res = await userEndpoint.GET(createTestRequest('/api/users/9'), { params: { id: '9' } });
      expect(res.status).to.equal(404);
      expect(res.body).to.equal(null);
    });

    it('POST with a JSON body returns 201 and the created resource', async () => {
      const req = createTestRequest('/api/users', {
        method: 'post',
        body: JSON.stringify({ name: 'Grace' }),
      });
      const res = await usersEndpoint.POST(req, { params: {} });
      expect(res.status).to.equal(201);
      expect(await res.json()).to.deep.equal({ id: '2', name: 'Grace' });

      const list = await usersEndpoint.GET(createTestRequest('/api/users'), { params: {} });
      expect(await list.json()).to.have.length(2);
    });

    it('DELETE returns 204 with a null body, then 404', async () => {
      const req = () => createTestRequest('/api/users/1', { method: 'DELETE' });
      const res = await userEndpoint.DELETE(req(), { params: { id: '1' } });
      expect(res.status).to.equal(204);
      expect(res.body).to.equal(null);
      expect((await userEndpoint.DELETE(req(), { params: { id: '1' } })).status).to.equal(404);
    });

    // A `(req, next)` middleware: 401 without credentials, otherwise whatever `next()` answers.
    const requireAuth: WebMiddleware = async (req, next) => {
      if (!req.headers.has('authorization')) {
        return new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer' } });
      }
      return next();
    };

    function stubNext(response = Response.json({ ok: true })) {
      const next = async () => {
        next.calls += 1;
        return response;
      };
      next.calls = 0;
      return next;
    }

    it('middleware answers 401 without an Authorization header, and does not call next', async () => {
      const next = stubNext();
      const res = await requireAuth(createTestRequest('/api/users'), next);
      expect(res.status).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.equal('Bearer');
      expect(next.calls).to.equal(0);
    });

    it('middleware calls next once with an Authorization header and returns its Response', async () => {
      const downstream = Response.json({ ok: true });
      const next = stubNext(downstream);
      const req = createTestRequest('/api/users', { headers: { Authorization: 'Bearer token' } });
      const res = await requireAuth(req, next);
      expect(next.calls).to.equal(1);
      expect(res).to.equal(downstream);
      expect(await res.json()).to.deep.equal({ ok: true });
    });

    it('middleware and handler compose as they would in the app', async () => {
      const req = createTestRequest('/api/users/1', { headers: { authorization: 'Bearer token' } });
      const res = await requireAuth(req, async () => userEndpoint.GET(req, { params: { id: '1' } }));
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ id: '1', name: 'Ada' });
    });
  });
});
