/**
 * Ports https://github.com/h3js/srvx/blob/main/test/node-max-body-size.test.ts (and
 * https://github.com/h3js/srvx/blob/main/test/_max-body-size.ts) onto endpoints mounted by this library:
 * srvx's `maxRequestBodySize: 8` and `limitRequestBody(req, n)` are the endpoint's own `bodyLimit`
 * (test/fixtures/peers-app/srvx-limited, `config.bodyLimit = 8`), on Express 5 and a bare node:http server.
 *
 * A Content-Length over the limit is answered 413 before the handler runs (through the app's error
 * handler when there is one). A body sent chunked is counted as it is read: the read rejects with a
 * BodyLimitError (`status: 413`), which the handler answers, as srvx's do, with its status.
 * srvx's `_request` escape hatch is its own API; `new Request(req)` and `clone()` stand for it.
 */
import { expect } from 'chai';
import { requestOver } from '../support/net';
import { eachHost } from './hosts';

const OVER = '0123456789';

describe('peers: srvx node-max-body-size.test', function () {
  this.timeout(10_000);

  eachHost('node maxRequestBodySize', (app, host) => {
    const limited = (read: string) => `/srvx-limited?read=${read}`;
    const chunked = (path: string, text: string) =>
      requestOver(app().url, path, {
        method: 'POST',
        body: [Buffer.from(text.slice(0, 4)), Buffer.from(text.slice(4))],
      });

    it('srvx node-max-body-size.test: rejects a buffered body larger than the limit with a 413-style error', async () => {
      const res = await fetch(`${app().url}${limited('text')}`, { method: 'POST', body: OVER });
      expect(res.status).to.equal(413);
      const text = await res.text();
      if (host.appErrorHandler) expect(text).to.equal('error: Request body too large: the limit is 8 bytes');
      else expect(text).to.equal('Payload Too Large');
    });

    it('srvx node-max-body-size.test: accepts a buffered body within the limit', async () => {
      const res = await fetch(`${app().url}${limited('text')}`, { method: 'POST', body: 'hello' });
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal('hello');
    });

    for (const read of ['arrayBuffer', 'bytes', 'blob', 'stream']) {
      it(`srvx node-max-body-size.test: rejects an oversized body read via ${read}${read === 'stream' ? '' : '()'}`, async () => {
        // Chunked: no Content-Length, so only the count as the body is read stops it.
        const res = await chunked(limited(read), OVER);
        expect(res.status).to.equal(413);
        expect(res.text).to.match(/^BodyLimitError:/);
      });
    }

    it('srvx node-max-body-size.test: rejects an oversized multipart body via formData()', async () => {
      const form = new FormData();
      form.set('field', 'a value long enough to exceed the limit');
      const res = await fetch(`${app().url}${limited('formData')}`, { method: 'POST', body: form });
      expect(res.status).to.equal(413);
      await res.text();
    });

    it('srvx node-max-body-size.test: rejects an oversized multipart body via formData() (chunked)', async () => {
      const encoded = new Response(
        (() => {
          const form = new FormData();
          form.set('field', 'a value long enough to exceed the limit');
          return form;
        })(),
      );
      const type = encoded.headers.get('content-type')!;
      const bytes = Buffer.from(await encoded.arrayBuffer());
      const res = await requestOver(app().url, limited('formData'), {
        method: 'POST',
        headers: { 'content-type': type },
        body: [bytes.subarray(0, 20), bytes.subarray(20)],
      });
      expect(res.status).to.equal(413);
      expect(res.text).to.match(/^BodyLimitError:/);
    });

    it('srvx node-max-body-size.test: accepts a body within the limit read via arrayBuffer()', async () => {
      const res = await fetch(`${app().url}${limited('arrayBuffer')}`, { method: 'POST', body: 'hello' });
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal('5');
    });

    it('srvx node-max-body-size.test: has no limit by default (backward compatible: 1 MiB here)', async () => {
      const body = 'x'.repeat(100_000);
      const res = await fetch(`${app().url}/srvx/body/text`, { method: 'POST', body });
      expect(res.status).to.equal(200);
      expect((await res.text()).length).to.equal(100_000);
    });

    for (const read of ['new-request', 'clone', 'body-stream-text']) {
      const via = {
        'new-request': 'new Request(req).text()',
        clone: 'req.clone().text()',
        'body-stream-text': 'the req.body stream',
      }[read];
      it(`srvx node-max-body-size.test: limitRequestBody - rejects an oversized chunked body read via ${via}`, async () => {
        const res = await chunked(limited(read), OVER);
        expect(res.status).to.equal(413);
        expect(res.text).to.match(/^BodyLimitError:/);
      });

      it(`srvx node-max-body-size.test: limitRequestBody - passes a chunked body within the limit through ${via}`, async () => {
        const res = await chunked(limited(read), '0123456');
        expect(res.status).to.equal(200);
        expect(res.text).to.equal('0123456');
      });
    }
  });
});
