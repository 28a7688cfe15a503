/**
 * The request cases of the transparency suite. Each is sent, in this order, to every variant of
 * its app (apps with state — sessions, counters — get the same sequence everywhere). A case is
 * one connection: usually one request, sometimes several on a kept-alive connection to check
 * that each response's framing ends where it should.
 */
import type { RawRequest } from './raw-client';
import { SESSION_SECRET } from './corpus-packages';
import { FILE_CASES } from './cases-files';
import { get, head, host, one, type Case } from './case-helpers';

// express-session's own signer (no types of its own).
const { sign } = require('cookie-signature') as { sign(value: string, secret: string): string };

const core = (request: RawRequest, extra?: Partial<Case>) => one('core', request, extra);

const CORE_CASES: Case[] = [
  ...['/json', '/text', '/html', '/buffer', '/empty', '/end-only', '/jsonp', '/jsonp?cb=handle'].map((p) =>
    core(get(p)),
  ),
  ...['/json', '/text', '/end-only'].map((p) => core(head(p))),
  core(get('/json', [['If-None-Match', 'W/"18-v9v8NSVVmGzY4+GSg5zkhAs0jY0"']])),
  core(get('/json?x=%20y&z[]=1')),
  ...['text/plain', 'application/json', 'image/png', '*/*'].map((accept) =>
    core(get('/format', [['Accept', accept]])),
  ),
  ...[200, 201, 204, 301, 304, 400, 404, 418, 500, 503, 599, 101, 700, 800, 900].map((code) =>
    core(get(`/status/${code}`)),
  ),
  ...[101, 205, 700, 999].map((code) => core(get(`/status-code/${code}`))),
  ...['undefined', 'null', 'n99', 'n1000', 'neg'].map((kind) => core(get(`/invalid-status/${kind}`))),
  ...[200, 204, 404, 700].map((code) => core(get(`/send-status/${code}`))),
  core(get('/status-message')),
  core(get('/redirect')),
  core(get('/redirect', [['Accept', 'text/html']])),
  core(head('/redirect')),
  core(get('/redirect-301')),
  core(get('/redirect-absolute')),
  core(host('http://example.com', '/redirect-absolute')),
  core(host('http://example.com', '/whoami')),
  core(host('exa mple.com', '/whoami')),
  core(host('', '/whoami')),
  core(host('[::1]:8080', '/whoami')),
  core(host('example.com:99999', '/location')),
  core(host('user@example.com', '/redirect')),
  core({ path: '/whoami', version: 'HTTP/1.0', headers: [] }),
  core({ path: '/whoami', version: 'HTTP/1.0', headers: [['Host', 'old.example']] }),
  ...['/cookies', '/multi-header', '/write-head', '/write-head-array', '/write-head-only'].map((p) =>
    core(get(p)),
  ),
  core(get('/headers-sent')),
  core(get('/set-after-write')),
  core(get('/stream')),
  core(head('/stream')),
  core({ path: '/stream', version: 'HTTP/1.0', headers: [] }),
  core(get('/stream-length')),
  core(get('/te-chunked')),
  core(head('/te-chunked')),
  core(get('/connection-close')),
  core(get('/trailers')),
  core(get('/trailers', [['TE', 'trailers']])),
  core(get('/flush')),
  core(get('/early-hints')),
  core(get('/write-continue')),
  core({
    method: 'POST',
    path: '/upload-text',
    headers: [['Expect', '100-continue']],
    body: 'x'.repeat(2000),
  }),
  {
    ...core(get('/end-callback')),
    requests: [get('/end-callback'), get('/end-callbacks')],
    name: 'res.end(cb): the callback ran by the next request',
  },
  core(get('/cork')),
  core(get('/head-writes-body')),
  core(head('/head-writes-body')),
  core(get('/poll'), { leaveAfter: 'waiting\n' }),
  core(get('/poll-silent'), { leaveAfterMs: 100 }),
  core(get('/polls-closed'), { delayBefore: 50 }),
  ...['/throw', '/next-error', '/error-after-header', '/default-error', '/error-mid-stream'].map((p) =>
    core(get(p)),
  ),
  core(get('/nowhere')),
  core({ method: 'POST', path: '/json', body: '{}', headers: [['Content-Type', 'application/json']] }),
  core({ method: 'OPTIONS', path: '/json' }),
  core({ method: 'OPTIONS', path: '/nowhere' }),
  core({ method: 'DELETE', path: '/text' }),
  core(get('/inner/hello')),
  core(get('/inner/stream')),
  core(get('/inner/nowhere')),
  core(head('/inner/hello')),
  {
    ...core(get('/json')),
    name: 'keep-alive: json, stream, text',
    requests: [get('/json'), get('/stream'), get('/text')],
  },
  { ...core(get('/json')), name: 'keep-alive: HEAD stream, json', requests: [head('/stream'), get('/json')] },
  {
    ...core(get('/json')),
    name: 'keep-alive: Transfer-Encoding set by the app, then text',
    requests: [get('/te-chunked'), get('/text')],
  },
  {
    ...core(get('/json')),
    name: 'keep-alive: trailers, 204, redirect',
    requests: [get('/trailers'), get('/status/204'), get('/redirect')],
  },
];

const SESSION_COOKIE = (sid: string) => `connect.sid=${encodeURIComponent(`s:${sign(sid, SESSION_SECRET)}`)}`;
const session = (request: RawRequest, name?: string) => ({
  ...one('session', request),
  ...(name ? { name } : {}),
});

const SESSION_CASES: Case[] = [
  session(get('/visit'), 'a new session: Set-Cookie with sid-1, saved on end'),
  session(get('/visit', [['Cookie', SESSION_COOKIE('sid-1')]]), 'sid-1 again: views 2'),
  session(get('/peek', [['Cookie', SESSION_COOKIE('sid-1')]]), 'sid-1 read, no Set-Cookie'),
  session(get('/stream'), 'a session saved while the route streams'),
  session(get('/json'), 'a session saved behind res.json (write before end)'),
  session(get('/signed')),
  session(
    get('/peek', [['Cookie', `s=${encodeURIComponent(`s:${sign('value', SESSION_SECRET)}`)}; plain=1`]]),
    'signed and plain cookies parsed',
  ),
  session(
    get('/visit', [['Cookie', 'connect.sid=s%3Asid-1.forged']]),
    'a forged session cookie: a new session',
  ),
  session(head('/visit')),
  session(get('/logout', [['Cookie', SESSION_COOKIE('sid-1')]])),
  session(get('/peek', [['Cookie', SESSION_COOKIE('sid-1')]]), 'sid-1 after logout: empty'),
];

const security = (request: RawRequest) => one('security', request);
const SECURITY_CASES: Case[] = [
  security(get('/data')),
  security(get('/data', [['Origin', 'http://client.test']])),
  security(get('/data', [['Origin', 'http://elsewhere.test']])),
  security({
    method: 'OPTIONS',
    path: '/data',
    headers: [
      ['Origin', 'http://client.test'],
      ['Access-Control-Request-Method', 'POST'],
      ['Access-Control-Request-Headers', 'content-type, x-custom'],
    ],
  }),
  security({ method: 'POST', path: '/data', headers: [['Origin', 'http://client.test']], body: 'a=1' }),
  security(get('/page')),
  security(head('/page')),
  security(get('/nowhere')),
];

const vhost = (request: RawRequest) => one('vhost', request);
const VHOST_CASES: Case[] = [
  vhost(host('api.example.test')),
  vhost(host('api.example.test', '/stream')),
  vhost(host('acme.tenants.example.test')),
  vhost(host('API.EXAMPLE.TEST')),
  vhost(host('api.example.test:8080')),
  vhost(host('example.test')),
  vhost(host('api.example.test', '/missing')),
];

const compressed = (request: RawRequest) => one('compressed', request);
const COMPRESSED_CASES: Case[] = [
  ...['gzip', 'deflate', 'br', 'identity'].map((coding) =>
    compressed(get('/json', [['Accept-Encoding', coding]])),
  ),
  compressed(get('/json')),
  compressed(head('/json', [['Accept-Encoding', 'gzip']])),
  compressed(get('/small', [['Accept-Encoding', 'gzip']])),
  compressed(get('/stream', [['Accept-Encoding', 'gzip']])),
  compressed(get('/stream')),
  compressed(get('/file', [['Accept-Encoding', 'gzip']])),
  compressed(get('/file')),
  compressed(
    get('/file', [
      ['Accept-Encoding', 'gzip'],
      ['Range', 'bytes=0-99'],
    ]),
  ),
  compressed(get('/no-transform', [['Accept-Encoding', 'gzip']])),
];

export const CASES: Case[] = [
  ...CORE_CASES,
  ...SESSION_CASES,
  ...FILE_CASES,
  ...SECURITY_CASES,
  ...VHOST_CASES,
  ...COMPRESSED_CASES,
];
