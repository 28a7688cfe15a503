/**
 * Ports https://github.com/honojs/node-server/blob/main/test/request-client-disconnect.test.ts onto
 * endpoints mounted by this library (test/fixtures/peers-app, `/hono/disconnect/read`), on Express 5 and
 * a bare node:http server: a body that had fully arrived before the client hung up is still the
 * handler's to read, however it reads it.
 */
import http, { type OutgoingHttpHeaders } from 'node:http';
import { expect } from 'chai';
import { outcome, type ErrorInfo } from '../fixtures/peers-app/_lib/state';
import { eachHost, newId, within } from './hosts';

type ReadResult = { body?: unknown; raw?: string; error?: ErrorInfo; aborted: boolean };

describe('peers: hono request-client-disconnect.test', function () {
  this.timeout(10_000);

  eachHost('body reads after client disconnect', (app) => {
    /** Sends `body`, waits until the handler has all of it, hangs up, and returns what the handler's read gave. */
    async function readBodyAfterDisconnect(
      mode: string,
      body: string,
      headers: OutgoingHttpHeaders,
      send: (request: http.ClientRequest, body: string) => void,
    ): Promise<ReadResult> {
      const id = newId(`disconnect-${mode}`);
      const request = http.request(`${app().url}/hono/disconnect/read?mode=${mode}&id=${id}`, {
        method: 'POST',
        headers,
        agent: false,
      });
      request.on('error', () => {});
      send(request, body);
      try {
        await within(outcome(`${id}:complete`), 2000, 'the server to receive the request body');
        request.destroy();
        return await within(outcome<ReadResult>(`${id}:result`), 4000, 'the body read result');
      } finally {
        request.destroy();
      }
    }

    const body = JSON.stringify({ hello: 'world' });
    const fixedLength = (request: http.ClientRequest, value: string) => request.end(value);
    const chunked = (request: http.ClientRequest, value: string) => {
      request.write(value);
      request.end();
    };

    it('hono request-client-disconnect.test: reads a complete content-length body', async () => {
      const result = await readBodyAfterDisconnect(
        'text',
        body,
        { 'content-length': Buffer.byteLength(body) },
        fixedLength,
      );
      expect(result.error).to.equal(undefined);
      expect(result.body).to.equal(body);
    });

    it('hono request-client-disconnect.test: reads a complete chunked body', async () => {
      const result = await readBodyAfterDisconnect('text', body, {}, chunked);
      expect(result.error).to.equal(undefined);
      expect(result.body).to.equal(body);
    });

    it('hono request-client-disconnect.test: rejects a body read after the raw stream consumed the disconnected body', async () => {
      // The handler reads the Node stream itself (`context.node.req.read()`), then the Request. hono
      // leaves the bytes in the stream, so the raw read takes them and the Request's read rejects. The
      // library has already taken a body that arrived before the hang-up, to keep it for the handler:
      // the raw read finds nothing and the Request has it. What both must hold: the bytes go to exactly
      // one reader, never to none (a silently empty body) and never to both.
      const result = await readBodyAfterDisconnect('raw-read', body, {}, chunked);
      if (result.raw === undefined) {
        expect(result.error).to.equal(undefined);
        expect(result.body).to.equal(body);
      } else {
        expect(result.raw).to.equal(body);
        expect(result.body, 'no body read twice').to.equal(undefined);
        expect(result.error?.isError).to.equal(true);
      }
    });

    it('hono request-client-disconnect.test: reads a complete body via formData()', async () => {
      const form = 'hello=world&foo=bar';
      const result = await readBodyAfterDisconnect(
        'formData',
        form,
        { 'content-length': Buffer.byteLength(form), 'content-type': 'application/x-www-form-urlencoded' },
        fixedLength,
      );
      expect(result.error).to.equal(undefined);
      expect(result.body).to.deep.equal({ hello: 'world', foo: 'bar' });
    });

    it('hono request-client-disconnect.test: reads a complete body through the raw body stream', async () => {
      const result = await readBodyAfterDisconnect(
        'stream',
        body,
        { 'content-length': Buffer.byteLength(body) },
        fixedLength,
      );
      expect(result.error).to.equal(undefined);
      expect(result.body).to.equal(body);
    });

    it('hono request-client-disconnect.test: reads a complete body even when request properties were accessed after disconnect', async () => {
      const result = await readBodyAfterDisconnect(
        'properties',
        body,
        { 'content-length': Buffer.byteLength(body) },
        fixedLength,
      );
      expect(result.error).to.equal(undefined);
      expect(result.body).to.equal(body);
      expect(result.aborted, 'request.signal tells that the client left').to.equal(true);
    });

    it('hono request.test: should allow json() read even after signal is accessed first and then aborted', async () => {
      const result = await readBodyAfterDisconnect(
        'json',
        body,
        { 'content-length': Buffer.byteLength(body) },
        fixedLength,
      );
      expect(result.error).to.equal(undefined);
      expect(result.body).to.deep.equal({ hello: 'world' });
    });

    it('hono request.test: should allow clone() and formData() after abort like native Request', async () => {
      const result = await readBodyAfterDisconnect(
        'clone',
        body,
        { 'content-length': Buffer.byteLength(body) },
        fixedLength,
      );
      expect(result.error).to.equal(undefined);
      expect(result.body).to.equal(body);
    });
  });
});
