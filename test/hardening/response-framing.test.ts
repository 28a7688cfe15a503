/**
 * What follows a response head is exactly the length that head declares. A
 * Response whose Content-Length does not match its body — from an endpoint, or from a bridged
 * middleware that transforms the app's body and keeps its headers — must not leave bytes on a
 * keep-alive connection for the next response to be read from, nor hold back the next response.
 * A body of known size goes out with its own length; a stream that ends short or runs long
 * closes the connection, so the truncation shows.
 */
import { expect } from 'chai';
import { bridgeMiddleware } from '../../src';
import type { WebMiddleware } from '../../src/types';
import { framedResponse, framedStream } from '../fixtures/hardening-app/app/_lib/framing';
import { state, type FramingCase } from '../fixtures/hardening-app/app/_lib/state';
import { hosts } from '../integration/hosts';
import type { Layer, Res } from '../middleware/chain-hosts';
import { bridgeHosts } from './bridge-hosts';
import { converse, expectCut, expectOwnAnswers, headerValues } from './framing';
import { delay, FIXTURE_DIR, unhandledRejectionTripwire, waitFor } from './helpers';

const BODY = Buffer.from('hello world and more'); // 20 bytes
const SECOND = { path: '/methods/get-only' };
const pieces = (bytes: Buffer) => [bytes.subarray(0, 11), bytes.subarray(11)];

let next = 0;
/** Registers a case for `/framing?case=<id>` and returns its path. */
function framing(c: FramingCase): string {
  const id = String(next++);
  state.framing[id] = c;
  return `/framing?case=${id}`;
}

describe('hardening: response framing', function () {
  this.timeout(10_000);
  unhandledRejectionTripwire();

  for (const host of hosts) {
    describe(`endpoints on ${host.name}`, () => {
      let server: Awaited<ReturnType<typeof host.start>>;
      const reported: string[] = [];
      before(async () => {
        server = await host.start({ dir: FIXTURE_DIR, onError: (error) => reported.push(String(error)) });
      });
      after(() => server.close());
      beforeEach(() => (reported.length = 0));
      /** The developer learns why the connection was closed, through onError. */
      const expectReported = (how: RegExp) =>
        waitFor(() => reported.length > 0, 1000, 'onError').then(() =>
          expect(reported).to.satisfy((r: string[]) => r.length === 1 && how.test(r[0]!)),
        );

      it('a stream longer than its Content-Length is cut and the connection closed', async () => {
        const path = framing({ chunks: pieces(BODY), declared: '2', shape: 'timer' });
        const c = await converse(server.port, [{ path }, SECOND]);
        expectOwnAnswers(c, BODY, 'get');
        expect(headerValues(c.responses[0]!, 'content-length')).to.deep.equal(['2']);
        expectCut(c);
        await expectReported(/ContentLengthMismatchError: .*more than the 2 bytes/);
      });

      it('a stream that fills its Content-Length and then runs on is cut before the last bytes', async () => {
        const path = framing({
          chunks: [BODY.subarray(0, 2), BODY.subarray(2)],
          declared: '2',
          shape: 'timer',
        });
        const c = await converse(server.port, [{ path }, SECOND]);
        expectOwnAnswers(c, BODY, 'get');
        expectCut(c);
      });

      it('a stream shorter than its Content-Length closes the connection instead of holding the next answer', async () => {
        const path = framing({ chunks: pieces(BODY), declared: '40', shape: 'timer' });
        const c = await converse(server.port, [{ path }, SECOND]);
        expectOwnAnswers(c, BODY, 'get');
        expectCut(c);
        await expectReported(/only 20 of the 40 bytes/);
      });

      it('a stream that matches its Content-Length keeps the connection for the next request', async () => {
        const path = framing({ chunks: pieces(BODY), declared: '20', shape: 'timer' });
        const c = await converse(server.port, [{ path }, SECOND]);
        expectOwnAnswers(c, BODY, 'get');
        expect(c.responses).to.have.length(2);
        expect(headerValues(c.responses[0]!, 'content-length')).to.deep.equal(['20']);
      });

      it('a body of known size goes out with its own length, whatever it declared', async () => {
        for (const declared of ['2', '40']) {
          const path = framing({ chunks: pieces(BODY), declared, shape: 'start' });
          const c = await converse(server.port, [{ path }, SECOND]);
          expectOwnAnswers(c, BODY, 'get');
          expect(c.responses).to.have.length(2);
          expect(headerValues(c.responses[0]!, 'content-length')).to.deep.equal(['20']);
        }
      });

      it('a null body that declares a length goes out as an empty body', async () => {
        const path = framing({ chunks: [], declared: '5', shape: 'start', nullBody: true });
        const c = await converse(server.port, [{ path }, SECOND]);
        expectOwnAnswers(c, Buffer.alloc(0), 'get');
        expect(c.responses).to.have.length(2);
        expect(headerValues(c.responses[0]!, 'content-length')).to.deep.equal(['0']);
      });

      it('HEAD keeps the declared length of the body it leaves out', async () => {
        const path = framing({ chunks: pieces(BODY), declared: '20', shape: 'timer' });
        const c = await converse(server.port, [{ method: 'HEAD', path }, SECOND]);
        expectOwnAnswers(c, Buffer.alloc(0), 'get');
        expect(c.responses).to.have.length(2);
        expect(headerValues(c.responses[0]!, 'content-length')).to.deep.equal(['20']);
      });
    });
  }

  for (const host of bridgeHosts) {
    describe(`bridgeMiddleware on ${host.name}`, () => {
      /** Doubles every chunk: the body grows, the chain's Content-Length stays. */
      const doubled = () =>
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            controller.enqueue(chunk);
            controller.enqueue(chunk);
          },
        });
      /** Keeps the first half of every chunk: the body shrinks. */
      const halved = () =>
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            controller.enqueue(chunk.subarray(0, chunk.length >> 1));
          },
        });
      const transforms: Record<string, () => TransformStream<Uint8Array, Uint8Array>> = { doubled, halved };

      const middleware: WebMiddleware = async (req, next) => {
        const url = new URL(req.url);
        const response = await next();
        const transform = transforms[url.searchParams.get('transform') ?? ''];
        // The natural way to write a body transform: the chain's headers, Content-Length included, kept.
        if (transform) return new Response(response.body!.pipeThrough(transform()), response);
        const length = url.searchParams.get('length');
        if (length !== null) {
          const headers = new Headers(response.headers);
          headers.set('content-length', length);
          return new Response(response.body, { status: response.status, headers });
        }
        const own = url.searchParams.get('own');
        if (own !== null) return framedResponse({ chunks: pieces(BODY), declared: own, shape: 'timer' });
        return response;
      };

      /** Streams BODY in two writes a few ms apart, under its true Content-Length. */
      const streamed = async (_req: unknown, res: Res) => {
        res.setHeader('content-type', 'application/octet-stream');
        res.setHeader('content-length', BODY.length);
        for (const piece of pieces(BODY)) {
          res.write(piece);
          await delay(5);
        }
        res.end();
      };
      const whole = (_req: unknown, res: Res) => {
        res.setHeader('content-type', 'application/octet-stream');
        res.setHeader('content-length', BODY.length);
        res.end(BODY);
      };
      const layers: Layer[] = [
        { use: bridgeMiddleware(middleware) },
        { route: '/streamed', handle: streamed },
        { route: '/whole', handle: whole },
        { route: '/second', handle: (_req, res) => void res.end('second') },
      ];

      let server: Awaited<ReturnType<typeof host.start>>;
      before(async () => {
        server = await host.start(layers);
      });
      after(() => server.close());

      const twice = (bytes: Buffer) => Buffer.concat(pieces(bytes).flatMap((p) => [p, p]));
      const half = (bytes: Buffer) => Buffer.concat(pieces(bytes).map((p) => p.subarray(0, p.length >> 1)));

      it("a transform that lengthens the app's streamed body under its Content-Length: cut, closed", async () => {
        const c = await converse(server.port, [{ path: '/streamed?transform=doubled' }, { path: '/second' }]);
        expectOwnAnswers(c, twice(BODY), 'second');
        expectCut(c);
      });

      it("a transform that shortens the app's streamed body: closed, not waited on", async () => {
        const c = await converse(server.port, [{ path: '/streamed?transform=halved' }, { path: '/second' }]);
        expectOwnAnswers(c, half(BODY), 'second');
        expectCut(c);
      });

      it("the app's body sent whole, returned under another Content-Length: sent with its own", async () => {
        for (const length of ['2', '40']) {
          const c = await converse(server.port, [{ path: `/whole?length=${length}` }, { path: '/second' }]);
          expectOwnAnswers(c, BODY, 'second');
          expect(c.responses).to.have.length(2);
          expect(headerValues(c.responses[0]!, 'content-length')).to.deep.equal(['20']);
        }
      });

      it('its own streamed Response under a wrong Content-Length: cut, closed', async () => {
        for (const own of ['2', '40']) {
          const c = await converse(server.port, [{ path: `/whole?own=${own}` }, { path: '/second' }]);
          expectOwnAnswers(c, BODY, 'second');
          expectCut(c);
        }
      });

      it('an unchanged streamed body keeps the connection', async () => {
        const c = await converse(server.port, [{ path: '/streamed' }, { path: '/second' }]);
        expectOwnAnswers(c, BODY, 'second');
        expect(c.responses).to.have.length(2);
      });
    });
  }

  // Keeps the imports honest: framedStream is what the fixture endpoint streams.
  it('the fixture streams the registered chunks', async () => {
    const text = await new Response(framedStream({ chunks: pieces(BODY), shape: 'timer' })).text();
    expect(text).to.equal(BODY.toString());
  });
});
