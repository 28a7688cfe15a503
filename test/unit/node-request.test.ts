/**
 * NodeRequest must pass for a standard Request wherever user code takes one: instanceof,
 * `new Request(req)`, `new Request(url, req)`, clone(), and the body-used rules, including
 * after its body was read straight from the Node stream and the real Request was built later.
 */
import { expect } from 'chai';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { NodeRequest } from '../../src/bridge/node-request';
import { httpRequest, listen, type Listening } from '../support/net';

type Probe = (req: Request) => Promise<unknown>;

describe('NodeRequest: a standard Request as far as user code can tell', () => {
  let server: Listening;
  let probe: Probe;

  before(async () => {
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      const request = new NodeRequest(req, res, req.method!, `http://localhost${req.url}`, false);
      probe(request as unknown as Request).then(
        (value) => res.end(JSON.stringify({ value })),
        (error: Error) => res.end(JSON.stringify({ error: `${error.name}: ${error.message}` })),
      );
    };
    server = await listen(http.createServer(handle));
  });
  after(() => server.close());

  async function run(fn: Probe, options: Parameters<typeof httpRequest>[1] = {}) {
    probe = fn;
    const reply = await httpRequest(`${server.url}/probe?q=1`, options);
    return JSON.parse(reply.body.toString()) as { value?: unknown; error?: string };
  }

  const post = { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' };

  it('is an instance of Request with method, URL and headers (repeats kept)', async () => {
    const outcome = await run(
      async (req) => [req instanceof Request, req.method, req.url, req.headers.get('x-a')],
      { headers: { 'x-a': ['1', '2'] as unknown as string } },
    );
    expect(outcome.value).to.deep.equal([true, 'GET', 'http://localhost/probe?q=1', '1, 2']);
  });

  it('new Request(req) takes over method, URL, headers and body', async () => {
    const outcome = await run(async (req) => {
      const copy = new Request(req);
      return [copy.method, copy.url, copy.headers.get('content-type'), await copy.text()];
    }, post);
    expect(outcome.value).to.deep.equal(['POST', 'http://localhost/probe?q=1', 'text/plain', 'hello']);
  });

  it('new Request(otherUrl, req) uses it as the init (the proxy pattern)', async () => {
    const outcome = await run(async (req) => {
      const forwarded = new Request('http://upstream.test/x', req);
      return [forwarded.method, forwarded.url, await forwarded.text()];
    }, post);
    expect(outcome.value).to.deep.equal(['POST', 'http://upstream.test/x', 'hello']);
  });

  it('clone() leaves the body readable on both', async () => {
    const outcome = await run(async (req) => [await req.clone().text(), await req.text()], post);
    expect(outcome.value).to.deep.equal(['hello', 'hello']);
  });

  describe('once the body was read straight from the Node stream', () => {
    it('bodyUsed stays true after the real Request is built', async () => {
      const outcome = await run(async (req) => {
        await req.text();
        void req.cache; // any member we do not answer ourselves builds the real Request
        return req.bodyUsed;
      }, post);
      expect(outcome.value).to.equal(true);
    });

    it('clone() refuses, as on any used Request, instead of handing over an empty body', async () => {
      const outcome = await run(async (req) => {
        await req.text();
        return req.clone().text();
      }, post);
      expect(outcome.error).to.match(/^TypeError/);
    });

    it('new Request(req) refuses too', async () => {
      const outcome = await run(async (req) => {
        await req.arrayBuffer();
        return new Request(req).text();
      }, post);
      expect(outcome.error).to.match(/^TypeError/);
    });

    it('a partly read body stream counts as used', async () => {
      const outcome = await run(async (req) => {
        await req.body!.getReader().read();
        return [
          req.bodyUsed,
          await req.formData().then(
            () => 'read',
            (e: Error) => e.name,
          ),
        ];
      }, post);
      expect(outcome.value).to.deep.equal([true, 'TypeError']);
    });
  });
});
