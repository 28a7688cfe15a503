/**
 * A Web-standard middleware, `(request, next) => Response`: the shape the library's endpoints
 * use, so it can be unit-tested with `createTestRequest` and no server. server.js turns it into
 * Express middleware with `bridgeMiddleware`.
 *
 * It guards writes: GET, HEAD and OPTIONS pass; every other method needs
 * `Authorization: Bearer <token>`, or gets a 401 JSON answer.
 */
'use strict';
/* global Response -- a Node 18+ global, missing from the lint config's list */

const { createHash, timingSafeEqual } = require('node:crypto');

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * @param {string} token the expected bearer token
 * @returns {import('express-file-endpoints').WebMiddleware}
 */
function requireTokenForWrites(token) {
  if (!token) throw new Error('requireTokenForWrites: a token is required');
  const expected = digest(token);

  return async function tokenForWrites(request, next) {
    if (SAFE_METHODS.has(request.method)) return next();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
    // Compare digests in constant time, so the answer's timing reveals nothing about the token.
    if (match && timingSafeEqual(digest(match[1]), expected)) return next();
    return Response.json(
      { error: 'Unauthorized', message: 'Send Authorization: Bearer <API_TOKEN> to change data' },
      { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="api"' } },
    );
  };
}

function digest(text) {
  return createHash('sha256').update(text).digest();
}

module.exports = { requireTokenForWrites };
