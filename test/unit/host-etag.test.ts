/**
 * The ETag an endpoint sends in an Express app is the one the app's `etag fn` gives the same bytes,
 * on Express 4 and 5, for each setting that selects Express's own generator; a function the app set
 * itself is still the one called.
 */
import { expect } from 'chai';
import express5 from 'express';
import { sendsNotModified } from '../../src/bridge/express-etag';
import type { ResponseWriter } from '../../src/bridge/response-writer';

const express4 = require('express4') as typeof express5;

type App = ReturnType<typeof express5>;
type Tagger = (body: Buffer, encoding?: BufferEncoding) => string;

const BODIES = [
  '',
  'a',
  '{"message":"Hello, World!"}',
  'héllo wörld, ☃, 😀 and 日本語'.repeat(40),
  'x'.repeat(70_000),
].map((text) => Buffer.from(text));

/** The ETag sendsNotModified sets on a response to a plain GET of `app`. */
function tagFor(app: App, body: Buffer): string | undefined {
  const headers = new Map<string, number | string | readonly string[]>();
  const res = {
    req: { app, headers: {}, method: 'GET' },
    statusCode: 200,
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    setHeader: (name: string, value: number | string | readonly string[]) =>
      headers.set(name.toLowerCase(), value),
  } as unknown as ResponseWriter;
  expect(sendsNotModified(res, new Uint8Array(body), 'host')).to.equal(false);
  return headers.get('etag') as string | undefined;
}

describe("ETags in an Express app: the same tag as the app's etag fn", () => {
  for (const [name, express] of [
    ['Express 5', express5],
    ['Express 4', express4],
  ] as const) {
    for (const setting of [true, 'weak', 'strong'] as const) {
      it(`${name}, app.set('etag', ${JSON.stringify(setting)}): empty, ASCII, multi-byte UTF-8 and large bodies`, () => {
        const app = express();
        app.set('etag', setting);
        const generate = app.get('etag fn') as Tagger;
        for (const body of BODIES) expect(tagFor(app, body)).to.equal(generate(body));
      });
    }

    it(`${name}: a function of the app's own is called, whatever its name`, () => {
      const calls: number[] = [];
      const own = (body: Buffer) => {
        calls.push(body.length);
        return `"own-${body.length}"`;
      };
      // Named like Express's generator: the setting, not the name, tells whose it is.
      const generateETag = (body: Buffer) => {
        calls.push(-body.length);
        return `"named-${body.length}"`;
      };
      const app = express();
      app.set('etag', own);
      expect(tagFor(app, BODIES[2]!)).to.equal(`"own-${BODIES[2]!.length}"`);
      app.set('etag', generateETag);
      expect(tagFor(app, BODIES[2]!)).to.equal(`"named-${BODIES[2]!.length}"`);
      expect(calls).to.deep.equal([BODIES[2]!.length, -BODIES[2]!.length]);
    });

    it(`${name}, app.set('etag', false): no ETag`, () => {
      const app = express();
      app.set('etag', false);
      expect(tagFor(app, BODIES[2]!)).to.equal(undefined);
    });
  }
});
