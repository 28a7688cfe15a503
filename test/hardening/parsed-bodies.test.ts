/**
 * A body that Express's parsers already read is handed to the handler as other
 * bytes than the client sent (inflated from gzip, or re-encoded from `req.body`), so the Request's
 * `content-encoding` and `content-length` must describe those bytes, not the client's. A handler
 * that forwards the request (the proxy case) then sends a request its upstream can read. A parsed
 * body too deeply nested to re-encode is answered `400`, not a 500.
 *
 * Run with the real parsers (Express 5's and 4's, and body-parser under Connect) and gzip bodies,
 * which body-parser inflates.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import bodyParser from 'body-parser';
import connect from 'connect';
import express5 from 'express';
import { expect } from 'chai';
import { bridgeMiddleware, mountEndpoints, type ErrorReporter } from '../../src';
import { httpRequest, listen, type Listening } from '../support/net';
import { startCheckingUpstream } from '../support/upstreams';
import { deepJson, reencodesDeepJson } from '../support/deep-json';
import { upstream } from '../fixtures/parsed-app/app/_lib/upstream';
import { rawBody, rawExchange, unhandledRejectionTripwire } from './helpers';

// The npm alias `express4` has no types of its own; the API used here is the same as 5's.
const express4 = require('express4') as typeof express5;

const DIR = path.join(__dirname, '../fixtures/parsed-app/app');

type Req = IncomingMessage & { rawBody?: Buffer; headers: IncomingMessage['headers'] };
type Middleware = (req: Req, res: ServerResponse, next: (error?: unknown) => void) => void;

/** The parsers as each host has them: `express.json()` and friends, or body-parser itself. */
interface Parsers {
  json(options?: { verify?: Verify }): Middleware;
  urlencoded(options: { extended: boolean }): Middleware;
  text(): Middleware;
  raw(options: { type: string }): Middleware;
}
type Verify = (req: Req, res: ServerResponse, buf: Buffer) => void;

/** `verify` keeps the bytes the parser read as `req.rawBody` when the client asks (`x-keep-raw`). */
const keepRaw: Verify = (req, _res, buf) => {
  if (req.headers['x-keep-raw']) req.rawBody = Buffer.from(buf);
};

interface HostApp {
  use(middleware: Middleware): unknown;
}

const hosts: { name: string; app: () => HostApp; parsers: Parsers }[] = [
  { name: 'Express 5', app: () => express5() as HostApp, parsers: express5 as unknown as Parsers },
  { name: 'Express 4', app: () => express4() as HostApp, parsers: express4 as unknown as Parsers },
  { name: 'Connect', app: () => connect() as HostApp, parsers: bodyParser as unknown as Parsers },
];

const JSON_BODY = { hello: 'world' };
const JSON_TEXT = JSON.stringify(JSON_BODY); // 17 bytes

interface Described {
  contentLength: string | null;
  contentEncoding: string | null;
  length: number;
  text: string;
}

for (const host of hosts) {
  describe(`hardening: bodies Express's parsers already read (${host.name})`, function () {
    this.timeout(10_000);
    unhandledRejectionTripwire();

    let server: Listening;
    let checking: Listening;
    const reported: unknown[] = [];
    before(async () => {
      checking = await startCheckingUpstream();
      const app = host.app();
      const { json, urlencoded, text, raw } = host.parsers;
      // A bridged middleware in front of the parsers keeps what it reads as req.rawBody, as sent.
      app.use(
        bridgeMiddleware(async (request, next) => {
          if (request.headers.has('x-bridge-reads')) await request.arrayBuffer();
          return next();
        }),
      );
      app.use(json({ verify: keepRaw }));
      app.use(urlencoded({ extended: true }));
      app.use(text());
      app.use(raw({ type: 'application/octet-stream' }));
      // A bridged middleware behind the parsers reads the parsed body as endpoints do.
      app.use(
        bridgeMiddleware(async (request, next) => {
          if (request.headers.has('x-bridge-reads-parsed')) await request.arrayBuffer();
          return next();
        }),
      );
      const onError: ErrorReporter = (error) => reported.push(error);
      const endpoints = mountEndpoints({ dir: DIR, onError });
      await endpoints.ready;
      app.use(endpoints);
      server = await listen(http.createServer(app as unknown as http.RequestListener));
    });
    after(async () => {
      await server.close();
      await checking.close();
    });
    beforeEach(() => {
      reported.length = 0;
      upstream.url = checking.url;
    });

    async function post(target: string, body: Buffer | string, headers: http.OutgoingHttpHeaders) {
      const bytes = Buffer.from(body);
      return httpRequest(`${server.url}${target}`, {
        method: 'POST',
        headers: { 'content-length': bytes.length, ...headers },
        body: bytes,
      });
    }

    async function describeBody(
      body: Buffer | string,
      headers: http.OutgoingHttpHeaders,
    ): Promise<Described> {
      const reply = await post('/describe', body, headers);
      expect(reply.status, reply.body.toString()).to.equal(200);
      return JSON.parse(reply.body.toString()) as Described;
    }

    const gzip = (text: string) => zlib.gzipSync(text);

    describe('the Request describes the bytes it carries', () => {
      it('express.json() inflated a gzip body: no content-encoding, the inflated length', async () => {
        const seen = await describeBody(gzip(JSON_TEXT), {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
        });
        expect(seen).to.deep.equal({
          contentLength: '17',
          contentEncoding: null,
          length: 17,
          text: JSON_TEXT,
        });
      });

      it('JSON sent with spaces is re-encoded: content-length is the re-encoded length', async () => {
        const seen = await describeBody('{ "hello" : "world" }', { 'content-type': 'application/json' });
        expect(seen).to.deep.equal({
          contentLength: '17',
          contentEncoding: null,
          length: 17,
          text: JSON_TEXT,
        });
      });

      it('req.rawBody from a verify callback after inflating: byte for byte, no content-encoding', async () => {
        const sent = '{ "hello" : "world" }';
        const seen = await describeBody(gzip(sent), {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'x-keep-raw': '1',
        });
        expect(seen).to.deep.equal({ contentLength: '21', contentEncoding: null, length: 21, text: sent });
      });

      it('express.urlencoded() inflated a gzip form', async () => {
        const seen = await describeBody(gzip('name=Ada+Lovelace&tags=a&tags=b'), {
          'content-type': 'application/x-www-form-urlencoded',
          'content-encoding': 'gzip',
        });
        expect(seen.contentEncoding).to.equal(null);
        expect(seen.contentLength).to.equal(String(seen.length));
        expect(new URLSearchParams(seen.text).getAll('tags')).to.deep.equal(['a', 'b']);
        expect(new URLSearchParams(seen.text).get('name')).to.equal('Ada Lovelace');
      });

      it('express.text() inflated a gzip text', async () => {
        const sent = 'héllo wörld, '.repeat(20);
        const seen = await describeBody(gzip(sent), {
          'content-type': 'text/plain; charset=utf-8',
          'content-encoding': 'gzip',
        });
        expect(seen).to.deep.equal({
          contentLength: String(Buffer.byteLength(sent)),
          contentEncoding: null,
          length: Buffer.byteLength(sent),
          text: sent,
        });
      });

      it('express.text() decoded ISO-8859-1: the handler gets UTF-8, and a Content-Type that says so', async () => {
        const sent = 'crème brûlée à la carte';
        const reply = await post('/describe', Buffer.from(sent, 'latin1'), {
          'content-type': 'text/plain; charset=ISO-8859-1',
          'x-content-type': '1',
        });
        const seen = JSON.parse(reply.body.toString()) as Described & { contentType: string };
        expect(seen.text).to.equal(sent);
        expect(seen.contentType).to.equal('text/plain; charset=utf-8');
        expect(seen.length).to.equal(Buffer.byteLength(sent));
      });

      it('UTF-8 text and a charset-less JSON type keep their Content-Type as sent', async () => {
        for (const type of ['text/plain; charset=UTF-8', 'application/json']) {
          const body = type === 'application/json' ? '{"a":"é"}' : 'é';
          const reply = await post('/describe', body, { 'content-type': type, 'x-content-type': '1' });
          expect((JSON.parse(reply.body.toString()) as { contentType: string }).contentType).to.equal(type);
        }
      });

      it('express.raw() inflated gzip bytes', async () => {
        const sent = 'raw bytes '.repeat(50);
        const seen = await describeBody(gzip(sent), {
          'content-type': 'application/octet-stream',
          'content-encoding': 'gzip',
        });
        expect(seen).to.deep.equal({ contentLength: '500', contentEncoding: null, length: 500, text: sent });
      });

      it('the bytes a bridged middleware kept as sent keep their content-encoding (guard)', async () => {
        const sent = gzip(JSON_TEXT);
        const reply = await post('/describe', sent, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'x-bridge-reads': '1',
        });
        const seen = JSON.parse(reply.body.toString()) as Described;
        expect(seen.contentEncoding).to.equal('gzip');
        expect(seen.contentLength).to.equal(String(sent.length));
        expect(seen.length).to.equal(sent.length);
      });
    });

    describe('a handler that forwards the request (the proxy case)', () => {
      for (const [what, body, headers] of [
        [
          'a gzip JSON body',
          gzip(JSON_TEXT),
          { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        ],
        ['JSON sent with spaces', '{ "hello" : "world" }', { 'content-type': 'application/json' }],
        [
          'a gzip JSON body kept as req.rawBody',
          gzip(JSON_TEXT),
          { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-keep-raw': '1' },
        ],
        [
          'a gzip form',
          gzip('a=1&b=2'),
          { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
        ],
      ] as const) {
        it(`${what}: the upstream gets bytes its headers describe`, async () => {
          const reply = await post('/forward', body, headers);
          expect(reply.status, reply.body.toString()).to.equal(200);
          const text = reply.body.toString();
          if (headers['content-type'] === 'application/json')
            expect(JSON.parse(text)).to.deep.equal(JSON_BODY);
          else expect(text).to.equal('a=1&b=2');
          expect(reported).to.deep.equal([]);
        });
      }
    });

    describe('a parsed body too deeply nested to re-encode', () => {
      const request = (target: string) =>
        `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${deepJson.length}\r\nConnection: close\r\n\r\n${deepJson}`;

      it('on a Node that can re-encode it, the handler gets it byte for byte', async function () {
        if (!reencodesDeepJson) this.skip();
        const reply = await rawExchange(server.port, request('/describe'));
        expect(reply.text).to.match(/^HTTP\/1\.1 200 OK\r\n/);
        const seen = JSON.parse(rawBody(reply)) as { length: number; contentLength: string };
        expect([seen.length, seen.contentLength]).to.deep.equal([deepJson.length, String(deepJson.length)]);
      });

      it('is answered 400 with a clear message, not a 500', async function () {
        if (reencodesDeepJson) this.skip();
        const reply = await rawExchange(server.port, request('/describe'));
        expect(reply.text).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/);
        expect(rawBody(reply)).to.match(/nested too deeply/);
        // A client's body, not a fault of the app.
        expect(reported).to.deep.equal([]);
      });

      it('is answered 400 to a bridged middleware that reads it', async function () {
        if (reencodesDeepJson) this.skip();
        const reply = await rawExchange(
          server.port,
          request('/describe').replace('Host: x\r\n', 'Host: x\r\nX-Bridge-Reads-Parsed: 1\r\n'),
        );
        expect(reply.text).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/);
        expect(rawBody(reply)).to.match(/nested too deeply/);
      });
    });
  });
}
