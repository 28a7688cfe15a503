/**
 * The handler's request must be a standard Request wherever user code or undici takes one:
 * each operation is run on the bridged request and on a native Request built from the same
 * method, URL, headers and body, and the outcomes must be the same, bodies included.
 */
import { expect } from 'chai';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { toWebRequest } from '../../src/bridge/web-request';
import { httpRequest, listen, type Listening } from '../support/net';

type Probe = (req: Request) => Promise<unknown>;
interface Outcome {
  value?: unknown;
  error?: string;
}

describe('toWebRequest: a standard Request as far as user code and undici can tell', () => {
  let server: Listening;
  let upstream: Listening;
  let probe: Probe;

  before(async () => {
    // What fetch() sends upstream, echoed back: method, path, content-type, body.
    upstream = await listen(
      http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () =>
          res.end(
            `${req.method} ${req.url} ${req.headers['x-a'] ?? '-'} ${Buffer.concat(chunks).toString()}`,
          ),
        );
      }),
    );
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      const request = toWebRequest(req, res, `http://localhost${req.url}`, { bodyLimit: false });
      settle(probe(request)).then((outcome) => res.end(JSON.stringify(outcome)));
    };
    server = await listen(http.createServer(handle));
  });
  after(async () => {
    await server.close();
    await upstream.close();
  });

  async function settle(promise: Promise<unknown>): Promise<Outcome> {
    try {
      return { value: await promise };
    } catch (error) {
      return { error: (error as Error).name };
    }
  }

  const post = { method: 'POST', headers: { 'content-type': 'text/plain', 'x-a': '1' }, body: 'hello' };

  /** The probe on the bridged request and on a native Request with the same contents. */
  async function both(fn: Probe, options: typeof post | { headers: Record<string, string> } = post) {
    probe = fn;
    const bridged = JSON.parse(
      (await httpRequest(`${server.url}/probe?q=1`, options)).body.toString(),
    ) as Outcome;
    const method = 'method' in options ? options.method : 'GET';
    const body = 'body' in options ? options.body : undefined;
    const native = await settle(
      fn(new Request('http://localhost/probe?q=1', { method, headers: options.headers, body })),
    );
    return { bridged, native };
  }

  const cases: Array<[string, Probe]> = [
    [
      'instanceof Request, method, URL, header',
      async (r) => [r instanceof Request, r.method, r.url, r.headers.get('x-a')],
    ],
    [
      'new Request(req)',
      async (r) => {
        const copy = new Request(r);
        return [copy.method, copy.url, copy.headers.get('content-type'), await copy.text(), r.bodyUsed];
      },
    ],
    [
      'new Request(url, req) (the proxy pattern)',
      async (r) => {
        const forwarded = new Request('http://upstream.test/x', r);
        return [forwarded.method, forwarded.url, await forwarded.text()];
      },
    ],
    ['clone() leaves both readable', async (r) => [await r.clone().text(), await r.text()]],
    ['Request.prototype.text.call(req)', async (r) => Request.prototype.text.call(r)],
    [
      'arrayBuffer(), then bodyUsed',
      async (r) => [new TextDecoder().decode(await r.arrayBuffer()), r.bodyUsed],
    ],
    [
      'a second read fails',
      async (r) => {
        await r.text();
        return r.text();
      },
    ],
    [
      'clone() of a used request fails',
      async (r) => {
        await r.text();
        return r.clone();
      },
    ],
    [
      'new Request(req) of a used request fails',
      async (r) => {
        await r.text();
        return new Request(r).text();
      },
    ],
    [
      'a partly read body stream counts as used',
      async (r) => {
        await r.body!.getReader().read();
        return [
          r.bodyUsed,
          await r.formData().then(
            () => 'read',
            (e: Error) => e.name,
          ),
        ];
      },
    ],
    ['util.inspect(req) works', async (r) => inspect(r).includes('Request')],
    [
      'signal is an AbortSignal, not aborted',
      async (r) => [r.signal instanceof AbortSignal, r.signal.aborted],
    ],
  ];

  for (const [name, fn] of cases) {
    it(`${name}: as a native Request`, async () => {
      const { bridged, native } = await both(fn);
      expect(bridged).to.deep.equal(native);
    });
  }

  it('fetch(req) sends method, headers and body upstream', async () => {
    const fn: Probe = async (r) => (await fetch(new Request(`${upstream.url}/up`, r))).text();
    const { bridged, native } = await both(fn);
    expect(bridged).to.deep.equal(native);
    expect(bridged.value).to.equal('POST /up 1 hello');
  });

  it('fetch(url, { body: req.body, duplex: "half" }) streams the body upstream', async () => {
    const fn: Probe = async (r) => {
      const init = { method: 'PUT', body: r.body, duplex: 'half' } as RequestInit;
      return (await fetch(`${upstream.url}/stream`, init)).text();
    };
    const { bridged, native } = await both(fn);
    expect(bridged).to.deep.equal(native);
    expect(bridged.value).to.equal('PUT /stream - hello');
  });

  it('GET: no body, and the same answers', async () => {
    const fn: Probe = async (r) => [r.body, r.bodyUsed, await r.text(), r.headers.get('x-a')];
    const { bridged, native } = await both(fn, { headers: { 'x-a': '2' } });
    expect(bridged).to.deep.equal(native);
    expect(bridged.value).to.deep.equal([null, false, '', '2']);
  });

  it('repeated request headers are kept, joined as a Request joins them', async () => {
    probe = async (r) => r.headers.get('x-a');
    const reply = await httpRequest(`${server.url}/`, {
      headers: { 'x-a': ['1', '2'] as unknown as string },
    });
    expect(JSON.parse(reply.body.toString())).to.deep.equal({ value: '1, 2' });
  });

  it('repeated Cookie headers are joined with "; ", as Node joins them in req.headers', async () => {
    probe = async (r) => r.headers.get('cookie');
    const reply = await httpRequest(`${server.url}/`, {
      headers: ['Host', 'localhost', 'Cookie', 'a=1', 'Cookie', 'b=2'] as unknown as Record<string, string>,
    });
    expect(JSON.parse(reply.body.toString())).to.deep.equal({ value: 'a=1; b=2' });
  });

  it('headers differing only in case, and one named __proto__, all arrive', async () => {
    probe = async (r) => [r.headers.get('x-a'), r.headers.get('__proto__')];
    const reply = await httpRequest(`${server.url}/`, {
      // A flat array goes out as written: both spellings, and __proto__, as header lines.
      headers: ['Host', 'localhost', 'X-A', '1', 'x-a', '2', '__proto__', 'p'] as unknown as Record<
        string,
        string
      >,
    });
    expect(JSON.parse(reply.body.toString())).to.deep.equal({ value: ['1, 2', 'p'] });
  });

  it('req.signal, and a copy made with new Request(url, req), abort when the client goes away', async () => {
    let seen: boolean[] | undefined;
    probe = (r) =>
      new Promise((resolve) => {
        const copy = new Request('http://upstream.test/', r);
        r.signal.addEventListener('abort', () => {
          seen = [r.signal.aborted, copy.signal.aborted];
          resolve(seen);
        });
      });
    const client = http.request(`${server.url}/wait`, {
      method: 'POST',
      headers: { 'content-length': '10' },
    });
    client.on('error', () => {});
    client.write('12345');
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.destroy();
    const deadline = Date.now() + 3000;
    while (!seen && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).to.deep.equal([true, true]);
  });
});
