/**
 * A body that Express's parsers already read: handed over from req.rawBody byte for byte, or
 * rebuilt from req.body by content type; an error, never a silent empty body, when neither can be.
 */
import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { encodeFormBody } from '../../src/bridge/encode-form-body';
import type { ExpressRequest } from '../../src/bridge/express-request';
import { bodyFromParsedRequest, BodyUnavailableError } from '../../src/bridge/node-body';

/** What a body parser leaves behind: the stream read to its end, `_body` set, `body` filled. */
function parsed(fields: Partial<ExpressRequest>, contentType = 'application/json'): ExpressRequest {
  return {
    headers: { 'content-type': contentType },
    readableDidRead: true,
    readableEnded: true,
    _body: true,
    ...fields,
  } as unknown as ExpressRequest;
}

const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes!).toString();

describe('bodyFromParsedRequest', () => {
  it('leaves an unread stream alone (undefined: stream it)', () => {
    const fresh = { headers: {}, readableDidRead: false, readableEnded: false } as unknown as IncomingMessage;
    expect(bodyFromParsedRequest(fresh)).to.equal(undefined);
  });

  it('prefers req.rawBody, byte for byte, over a parsed body', () => {
    const raw = Buffer.from('{ "a" : 1 }');
    expect(bodyFromParsedRequest(parsed({ rawBody: raw, body: { a: 1 } }))).to.equal(raw);
  });

  it('re-encodes JSON (express.json())', () => {
    expect(text(bodyFromParsedRequest(parsed({ body: { a: [1, 'x'] } })))).to.equal('{"a":[1,"x"]}');
  });

  it('hands over text as it was parsed (express.text())', () => {
    expect(text(bodyFromParsedRequest(parsed({ body: 'héllo' }, 'text/plain')))).to.equal('héllo');
  });

  it('hands over raw bytes as they were (express.raw())', () => {
    const bytes = Buffer.from([0, 255, 1]);
    expect(bodyFromParsedRequest(parsed({ body: bytes }, 'application/octet-stream'))).to.equal(bytes);
  });

  it('re-encodes urlencoded, nested qs objects included (express.urlencoded({ extended: true }))', () => {
    const body = { name: 'Ada', tags: ['a', 'b'], address: { city: 'London', zip: '1' } };
    const encoded = text(
      bodyFromParsedRequest(parsed({ body }, 'application/x-www-form-urlencoded; charset=utf-8')),
    );
    expect([...new URLSearchParams(encoded)]).to.deep.equal([
      ['name', 'Ada'],
      ['tags', 'a'],
      ['tags', 'b'],
      ['address[city]', 'London'],
      ['address[zip]', '1'],
    ]);
  });

  it('refuses a multipart body it cannot rebuild, saying what to do', () => {
    expect(() => bodyFromParsedRequest(parsed({ body: { a: '1' } }, 'multipart/form-data; boundary=x')))
      .to.throw(BodyUnavailableError)
      .with.property('message')
      .that.includes('mount the endpoints before');
  });

  it('refuses a stream consumed without leaving req.body or req.rawBody', () => {
    expect(() => bodyFromParsedRequest(parsed({ _body: false, body: undefined }))).to.throw(
      BodyUnavailableError,
    );
  });
});

describe('encodeFormBody', () => {
  it('indexes arrays of objects and writes empty values for null', () => {
    const encoded = encodeFormBody({ items: [{ id: 1 }, { id: 2 }], empty: null });
    expect([...new URLSearchParams(encoded)]).to.deep.equal([
      ['items[0][id]', '1'],
      ['items[1][id]', '2'],
      ['empty', ''],
    ]);
  });
});
