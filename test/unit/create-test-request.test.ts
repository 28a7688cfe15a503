/**
 * createTestRequest (`express-file-endpoints/testing`): each thing it promises — the leading `/`, the
 * fixed origin, GET by default, upper-cased methods, headers, no body for GET and HEAD, JSON for a
 * body starting with `{` — and the edges around them (hostile paths, header-name case). What
 * `Request` itself does with bodies (content types it derives, streams) is fetch's, not ours.
 */
import { expect } from 'chai';
import { createTestRequest, type TestRequestOptions } from '../../src/testing';

const ORIGIN = 'http://localhost';

/** The Content-Type `Request` itself gives a string body: what createTestRequest leaves alone. */
function fetchsOwnType(body: string): string | null {
  return new Request(ORIGIN, { method: 'POST', body }).headers.get('content-type');
}

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
  describe('a leading / is added when missing', () => {
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

  describe('resolved against http://localhost', () => {
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
    });

    it('keeps percent-encoded segments as they are', () => {
      expect(createTestRequest('/files/a%2Fb').url).to.equal('http://localhost/files/a%2Fb');
    });
  });

  describe('the method defaults to GET', () => {
    it('without options', () => {
      expect(createTestRequest('/').method).to.equal('GET');
    });

    it('with options but no method', () => {
      expect(createTestRequest('/', {}).method).to.equal('GET');
      expect(createTestRequest('/', { method: undefined }).method).to.equal('GET');
    });
  });

  describe('the method is upper-cased', () => {
    // `Request` alone upper-cases only DELETE/GET/HEAD/OPTIONS/POST/PUT: `patch` would miss a PATCH export.
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
  });

  describe('headers are set on the request', () => {
    it('from a record', () => {
      const req = createTestRequest('/', { headers: { Authorization: 'Bearer t', 'X-Trace': '1' } });
      expect(req.headers.get('authorization')).to.equal('Bearer t');
      expect(req.headers.get('x-trace')).to.equal('1');
    });

    it('from a Headers', () => {
      const req = createTestRequest('/', { headers: new Headers({ accept: 'application/json' }) });
      expect(req.headers.get('accept')).to.equal('application/json');
    });

    it('from [name, value] pairs', () => {
      const req = createTestRequest('/', { headers: [['accept', 'text/html']] });
      expect(req.headers.get('accept')).to.equal('text/html');
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

  describe('the body is sent only for methods other than GET and HEAD', () => {
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

    it('sends an empty string body as empty, its type left to fetch', async () => {
      const req = createTestRequest('/', { method: 'POST', body: '' });
      expect(req.headers.get('content-type')).to.equal(fetchsOwnType(''));
      expect(await req.text()).to.equal('');
    });
  });

  describe('application/json for a body starting with { and no Content-Type', () => {
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
      it(`leaves the type of ${JSON.stringify(body)} to fetch`, () => {
        const req = createTestRequest('/', { method: 'POST', body });
        expect(req.headers.get('content-type')).to.equal(fetchsOwnType(body));
      });
    }
  });

  describe('non-string bodies: passed to Request as they are, dropped for GET and HEAD', () => {
    it('sends a Uint8Array byte for byte, with no content type', async () => {
      const bytes = new Uint8Array([0x7b, 0x00, 0xff, 0x7d]); // starts with `{`: still not JSON
      const req = createTestRequest('/', { method: 'PUT', body: bytes });
      expect(req.headers.has('content-type')).to.equal(false);
      expect(new Uint8Array(await req.arrayBuffer())).to.deep.equal(bytes);
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

  describe('the return value is a standard Request', () => {
    it('is an instance of the global Request, unread', () => {
      const req = createTestRequest('/');
      expect(req).to.be.instanceOf(Request);
      expect(req.bodyUsed).to.equal(false);
    });
  });
});
