/**
 * Unit tests of the auth middleware in its Web form, `(request, next) => Response`: no Express,
 * no server; `next` is a stub standing for "the rest of the app".
 */
import { expect } from 'chai';
import type { WebMiddleware } from '../../../src';
import { createTestRequest } from './support';

// auth.js is plain CommonJS, like the rest of the legacy app.
const { requireTokenForWrites } = require('../auth.js') as {
  requireTokenForWrites(token: string): WebMiddleware;
};

describe('example auth middleware (unit, createTestRequest)', () => {
  const middleware = requireTokenForWrites('s3cret');
  let nextCalls: number;
  const next = async () => {
    nextCalls += 1;
    return Response.json({ from: 'next' });
  };
  beforeEach(() => (nextCalls = 0));

  it('lets reads through without a token', async () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      const res = await middleware(createTestRequest('/api/users', { method }), next);
      expect(res.status, method).to.equal(200);
    }
    expect(nextCalls).to.equal(3);
  });

  it('answers 401 JSON to a write without credentials, without calling next', async () => {
    const res = await middleware(
      createTestRequest('/api/users', { method: 'POST', body: '{"name":"x"}' }),
      next,
    );
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.match(/^Bearer/);
    expect(await res.json()).to.include({ error: 'Unauthorized' });
    expect(nextCalls).to.equal(0);
  });

  it('answers 401 to a wrong token or another scheme', async () => {
    for (const authorization of ['Bearer nope', 'Bearer s3cret2', 'Basic czNjcmV0', 's3cret', 'Bearer ']) {
      const req = createTestRequest('/api/users/1', {
        method: 'DELETE',
        headers: { Authorization: authorization },
      });
      expect((await middleware(req, next)).status, authorization).to.equal(401);
    }
    expect(nextCalls).to.equal(0);
  });

  it('passes a write with the right token on, and returns what next() answered', async () => {
    const req = createTestRequest('/api/users', {
      method: 'POST',
      headers: { Authorization: 'bearer s3cret' },
      body: '{"name":"x"}',
    });
    const res = await middleware(req, next);
    expect(await res.json()).to.deep.equal({ from: 'next' });
    expect(nextCalls).to.equal(1);
  });

  it('refuses to start without a token', () => {
    expect(() => requireTokenForWrites('')).to.throw(/token is required/);
  });
});
