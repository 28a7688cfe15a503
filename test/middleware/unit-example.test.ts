/**
 * docs/testing.md's example: unit-testing a `(req, next)` middleware with `createTestRequest` and a
 * stub `next` — no server, no app (spec: "Middleware call shape").
 */
import { expect } from 'chai';
import type { WebMiddleware } from '../../src';
import { createTestRequest } from '../../src/testing';

const requireAuth: WebMiddleware = (req, next) =>
  req.headers.get('authorization') ? next() : new Response(null, { status: 401 });

describe('unit-testing a middleware', () => {
  it('answers 401 without credentials, and calls next() with them', async () => {
    let calls = 0;
    const next = async () => {
      calls++;
      return Response.json({ ok: true });
    };

    const denied = await requireAuth(createTestRequest('/api/users'), next);
    expect(denied.status).to.equal(401);
    expect(calls).to.equal(0);

    const request = createTestRequest('/api/users', { headers: { Authorization: 'Bearer token' } });
    const allowed = await requireAuth(request, next);
    expect(allowed.status).to.equal(200);
    expect(await allowed.json()).to.deep.equal({ ok: true });
    expect(calls).to.equal(1);
  });
});
