/**
 * The same requests, the tree served without Express: on a bare node:http server
 * (`http.createServer(endpoints)`) and through `endpoints.fetch(request)`. A file's answers are the
 * native route's, header for header and byte for byte (no app gives bodies sent whole an ETag here,
 * so the Express-only differences do not arise). Where the native route passes an error to
 * `next(err)`, there is no error handler: a bare server and `.fetch` answer the FileError's status in plain
 * text, with its headers (a 416's Content-Range), and `onError` is not told of it: it is the client's.
 */
import http from 'node:http';
import { expect } from 'chai';
import { mountEndpoints, type EndpointsMiddleware } from '../../src';
import { FileError } from '../../src/files';
import { listen, type HttpReply, type Listening } from '../support/net';
import { ask, COMPARED, startFilesApp, summary, TREE, type Compared } from './apps';
import { CASES, type Case } from './cases';

function fetchSummary(response: Response, body: Buffer) {
  const headers: Partial<Record<Compared, string | undefined>> = {};
  for (const name of COMPARED) headers[name] = response.headers.get(name) ?? undefined;
  if (headers.location) headers.location = headers.location.replace('/ported/', '/SIDE/');
  return { status: response.status, headers, body: body.toString('latin1').replaceAll('/ported/', '/SIDE/') };
}

const titleOf = (sent: Case) =>
  `${sent.method ?? 'GET'} ${sent.path}${sent.headers ? ` ${JSON.stringify(sent.headers)}` : ''}`;

describe('sendFile and serveStatic without Express: bare node:http and .fetch', () => {
  let native: Listening;
  let bare: Listening;
  let endpoints: EndpointsMiddleware;
  const told: unknown[] = [];
  const answers = new Map<Case, Promise<HttpReply>>();
  const nativeAnswer = (sent: Case) => {
    let answer = answers.get(sent);
    if (!answer) {
      answer = ask(native, `/native${sent.path}`, { method: sent.method, headers: sent.headers });
      answers.set(sent, answer);
    }
    return answer;
  };

  before(async () => {
    native = await startFilesApp();
    endpoints = mountEndpoints({ dir: TREE, onError: (error) => void told.push(error) });
    await endpoints.ready;
    bare = await listen(http.createServer(endpoints));
  });
  after(async () => {
    await Promise.all([native.close(), bare.close()]);
    await endpoints.close();
  });

  describe('on a bare node:http server', () => {
    for (const sent of CASES) {
      it(titleOf(sent), async () => {
        const expected = summary(await nativeAnswer(sent), 'native');
        const reply = await ask(bare, `/ported${sent.path}`, { method: sent.method, headers: sent.headers });
        const actual = summary(reply, 'ported');
        if (sent.differs?.status) {
          expect(actual.status).to.equal(sent.differs.status[1]);
          return;
        }
        if (sent.method === 'POST' || sent.method === 'DELETE') {
          // No app behind the tree to pass to: a method the file does not serve is a 405 (docs/migrating.md).
          expect([actual.status, reply.headers.allow]).to.deep.equal([405, 'GET, HEAD, OPTIONS']);
          return;
        }
        if (expected.status >= 400) {
          // No error handler: the status, in the library's plain text.
          expect(actual.status).to.equal(expected.status);
          expect(actual.headers['content-type']).to.equal('text/plain; charset=utf-8');
          expect(actual.body).to.equal(http.STATUS_CODES[expected.status]);
          return;
        }
        expect(actual).to.deep.equal(expected);
      });
    }
  });

  describe('through endpoints.fetch()', () => {
    for (const sent of CASES) {
      const title = titleOf(sent);
      it(title, async () => {
        const expected = summary(await nativeAnswer(sent), 'native');
        const unserved = sent.method === 'POST' || sent.method === 'DELETE';
        const toldBefore = told.length;
        const response = await endpoints.fetch(
          new Request(`http://localhost/ported${sent.path}`, { method: sent.method, headers: sent.headers }),
        );
        const actual = fetchSummary(response, Buffer.from(await response.arrayBuffer()));
        if (sent.differs?.status) {
          // The URL parser resolves the dot segment: another path, whose answer is its own.
          expect(actual.body).to.not.include('never sent');
          return;
        }
        if (unserved) {
          expect([actual.status, response.headers.get('allow')]).to.deep.equal([405, 'GET, HEAD, OPTIONS']);
          return;
        }
        if (expected.status >= 400) {
          // No error handler: the FileError's own status and headers, and nothing told to onError.
          expect(actual.status).to.equal(expected.status);
          if (expected.headers['content-range']) {
            expect(actual.headers['content-range']).to.equal(expected.headers['content-range']);
          }
          expect(told.slice(toldBefore).filter((error) => error instanceof FileError)).to.deep.equal([]);
          return;
        }
        expect(actual).to.deep.equal(expected);
      });
    }
  });
});
