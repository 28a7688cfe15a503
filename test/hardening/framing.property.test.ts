/**
 * Response framing as a property: whatever body a Response carries and whatever length it
 * declares (shorter, equal, longer, none), streamed or whole, from an endpoint or through a
 * bridged middleware, a second request on the same keep-alive connection gets exactly its own
 * answer, or the connection is closed. The first answer, when it completes, is the body byte for
 * byte; a matching or absent length never costs the connection.
 *
 * Runs with a fixed seed, then a fresh one; fast-check names the seed of a failing run.
 */
import http from 'node:http';
import { expect } from 'chai';
import express from 'express';
import fc from 'fast-check';
import { bridgeMiddleware, mountEndpoints } from '../../src';
import type { WebMiddleware } from '../../src/types';
import { framedResponse } from '../fixtures/hardening-app/app/_lib/framing';
import { state, type FramingCase } from '../fixtures/hardening-app/app/_lib/state';
import { listen, type Listening } from '../support/net';
import { converse, expectOwnAnswers } from './framing';
import { FIXTURE_DIR, unhandledRejectionTripwire } from './helpers';

const FIXED_SEED = 30_2;
const RUNS_PER_SEED = 150;

/** Who answers: the endpoint, or a bridged middleware (its own Response, a transform of the app's, a copy of it). */
const VIAS = ['endpoint', 'own', 'transform', 'copy'] as const;

const framingCase = fc.record({
  body: fc.oneof(
    { weight: 4, arbitrary: fc.uint8Array({ maxLength: 64 }) },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 1000, maxLength: 70_000 }) },
  ),
  cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
  declared: fc.constantFrom('absent', 'equal', 'shorter', 'longer'),
  by: fc.integer({ min: 1, max: 100 }),
  shape: fc.constantFrom('start', 'pull', 'timer'),
  nullBody: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  via: fc.constantFrom(...VIAS),
});
type Case = typeof framingCase extends fc.Arbitrary<infer T> ? T : never;

function toFraming(c: Case): FramingCase {
  const body = c.nullBody ? new Uint8Array(0) : c.body;
  const points = [...new Set(c.cuts.map((f) => Math.floor(f * body.length)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const at of [...points, body.length]) {
    if (at > from) chunks.push(body.subarray(from, at));
    from = Math.max(from, at);
  }
  const declared = {
    absent: undefined,
    equal: body.length,
    shorter: Math.max(0, body.length - c.by),
    longer: body.length + c.by,
  }[c.declared];
  return { chunks, declared: declared?.toString(), shape: c.shape, nullBody: c.nullBody };
}

/** The app writes the case's chunks under its declared length, the way the shape says. */
function appRoute(req: express.Request, res: express.Response): void {
  const c = state.framing[String(req.query.case)]!;
  res.setHeader('content-type', 'application/octet-stream');
  if (c.declared !== undefined) res.setHeader('content-length', c.declared);
  if (c.nullBody || c.shape === 'start') {
    res.end(c.nullBody ? undefined : Buffer.concat(c.chunks));
    return;
  }
  const chunks = [...c.chunks];
  const step = () => {
    const chunk = chunks.shift();
    if (!chunk) return void res.end();
    res.write(chunk);
    if (c.shape === 'timer') setTimeout(step, 1);
    else step();
  };
  step();
}

const middleware: WebMiddleware = async (req, next) => {
  const url = new URL(req.url);
  const via = url.searchParams.get('via');
  if (via === 'own') return framedResponse(state.framing[url.searchParams.get('case')!]!);
  const response = await next();
  if (via === 'transform' && response.body) {
    return new Response(response.body.pipeThrough(new TransformStream()), response);
  }
  if (via === 'copy') return new Response(response.body, response);
  return response;
};

describe('hardening: response framing, as a property', function () {
  this.timeout(30_000);
  unhandledRejectionTripwire();

  let server: Listening;
  before(async () => {
    const app = express();
    app.use(bridgeMiddleware(middleware));
    app.get('/app', appRoute);
    // Mismatches are reported through onError; the property is about the wire.
    await mountEndpoints(app, { dir: FIXTURE_DIR, onError: () => {} });
    server = await listen(http.createServer(app));
  });
  after(() => server.close());

  let next = 0;
  const property = fc.asyncProperty(framingCase, async (c) => {
    const framing = toFraming(c);
    const id = `p${next++}`;
    state.framing[id] = framing;
    const path = c.via === 'endpoint' ? `/framing?case=${id}` : `/app?case=${id}&via=${c.via}`;
    try {
      const conversation = await converse(server.port, [{ path }, { path: '/methods/get-only' }]);
      const body = Buffer.concat(framing.chunks);
      expectOwnAnswers(conversation, body, 'get');
      if (framing.declared === undefined || Number(framing.declared) === body.length) {
        expect(conversation.responses, 'a body that matches keeps the connection').to.have.length(2);
      }
    } finally {
      delete state.framing[id];
    }
  });

  it('a second request on the connection gets its own answer, or the connection closes', async () => {
    const randomSeed = Math.floor(Math.random() * 2 ** 31);
    await fc.assert(property, { seed: FIXED_SEED, numRuns: RUNS_PER_SEED });
    await fc.assert(property, { seed: randomSeed, numRuns: RUNS_PER_SEED });
  });
});
