/**
 * `jsonBody(request)` answers as `express.json()` did, request for request: a route whose handler read
 * `req.body` behind the parser, moved into the tree, gives the same status and body for well-formed
 * JSON, JSON text sent as another type, an empty body, malformed and non-strict JSON, another charset
 * and a body over the limit, with the errors the app's error handler already answers.
 */
import http from 'node:http';
import path from 'node:path';
import express from 'express';
import { expect } from 'chai';
import { mountEndpoints } from '../../src';
import { listen, requestText, type Listening } from '../support/net';

const DIR = path.join(__dirname, '../fixtures/json-body-app');

interface Case {
  what: string;
  type?: string;
  body?: string;
  query?: string;
}

const CASES: Case[] = [
  { what: 'an object', type: 'application/json', body: '{"a":[1,"é"]}' },
  { what: 'an array, with white space first', type: 'application/json; charset=utf-8', body: ' \n[1,2]' },
  { what: 'JSON text sent as text/plain', type: 'text/plain', body: '{"saved":true}' },
  { what: 'JSON text with no Content-Type', body: '{"saved":true}' },
  { what: 'a JSON type of a suffix', type: 'application/ld+json', body: '{"a":1}' },
  { what: 'an empty body', type: 'application/json', body: '' },
  { what: 'malformed JSON', type: 'application/json', body: '{"a":' },
  { what: 'a number, which strict refuses', type: 'application/json', body: '42' },
  { what: 'a number, not strict', type: 'application/json', body: '42', query: '?strict=false' },
  { what: 'a string, not strict', type: 'application/json', body: '"x"', query: '?strict=false' },
  { what: 'another charset', type: 'application/json; charset=latin1', body: '{"a":1}' },
  {
    what: 'a body over 100kb',
    type: 'application/json',
    body: JSON.stringify({ a: 'x'.repeat(110 * 1024) }),
  },
  {
    what: 'a body just under 100kb',
    type: 'application/json',
    body: JSON.stringify({ a: 'x'.repeat(100 * 1024 - 20) }),
  },
];

describe('jsonBody() answers as express.json() did (Express 5)', () => {
  let server: Listening;
  before(async () => {
    const app = express();
    await mountEndpoints(app, { dir: DIR });
    app.post('/native', (req, res, next) =>
      express.json({ strict: req.query.strict !== 'false' })(req, res, (error?: unknown) => {
        if (error) next(error);
        else res.json({ body: (req.body as unknown) ?? null });
      }),
    );
    app.use(
      (
        error: { status?: number; type?: string; expose?: boolean },
        _req: express.Request,
        res: express.Response,
        _next: express.NextFunction,
      ) => {
        res
          .status(error.status ?? 500)
          .json({ error: { status: error.status, type: error.type, expose: error.expose } });
      },
    );
    server = await listen(http.createServer(app));
  });
  after(() => server.close());

  const send = (route: string, { type, body, query = '' }: Case) =>
    requestText(`${server.url}/${route}${query}`, {
      method: 'POST',
      headers: type === undefined ? {} : { 'content-type': type },
      body: body ?? '',
    });

  for (const sent of CASES) {
    it(`${sent.what}: the same status and body`, async () => {
      const [native, moved] = await Promise.all([send('native', sent), send('moved', sent)]);
      expect([moved.status, JSON.parse(moved.body)]).to.deep.equal([native.status, JSON.parse(native.body)]);
    });
  }
});

describe('jsonBody() behind an express.json() that already read the body', () => {
  let server: Listening;
  before(async () => {
    const app = express();
    app.use(express.json());
    await mountEndpoints(app, { dir: DIR });
    server = await listen(http.createServer(app));
  });
  after(() => server.close());

  const send = (type: string, body: string) =>
    requestText(`${server.url}/moved`, { method: 'POST', headers: { 'content-type': type }, body });

  it('gets the body the parser read, and none for a type the parser left alone', async () => {
    const parsed = await send('application/json', '{"a":[1,"é"]}');
    expect([parsed.status, JSON.parse(parsed.body)]).to.deep.equal([200, { body: { a: [1, 'é'] } }]);
    const other = await send('text/plain', '{"saved":true}');
    expect([other.status, JSON.parse(other.body)]).to.deep.equal([200, { body: null }]);
  });
});
