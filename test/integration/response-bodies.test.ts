/**
 * How each kind of Response body reaches the client, on every host: a body whose bytes are all
 * there goes out in one write with Content-Length (never chunked), HEAD carries the same length
 * and no body, and a real stream still streams: its first event arrives long before its end.
 * Nothing here may depend on undici's internals; these tests run on every supported Node.
 */
import path from 'node:path';
import { expect } from 'chai';
import { mountEndpoints } from '../../src';
import { createTestRequest } from '../../src/testing';
import { GET as bodyOf } from '../fixtures/bodies-app/body/[kind]/endpoint';
import { hosts, type RunningHost } from './hosts';
import { httpRequest } from '../support/net';

const dir = path.join(__dirname, '../fixtures/bodies-app');

const KINDS = [
  'string',
  'empty',
  'bytes',
  'arraybuffer',
  'json',
  'params',
  'blob',
  'big-blob',
  'formdata',
  'one-chunk-stream',
  'big-string',
];

/** What the handler's own Response holds, read directly. */
async function expectedBody(kind: string) {
  const response = bodyOf(createTestRequest(`/body/${kind}`), { params: { kind } });
  return { bytes: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type') };
}

describe('integration: response bodies on every host', function () {
  this.timeout(10_000);

  for (const host of hosts) {
    describe(host.name, () => {
      let app: RunningHost;
      before(async () => {
        app = await host.start({ dir });
      });
      after(() => app.close());

      for (const kind of KINDS) {
        it(`${kind}: one write with Content-Length, and HEAD with the same length`, async () => {
          const expected = await expectedBody(kind);
          const reply = await httpRequest(`${app.url}/body/${kind}`);
          expect(reply.status).to.equal(200);
          expect(reply.headers['transfer-encoding'], 'chunked').to.equal(undefined);
          expect(reply.headers['content-length']).to.equal(String(reply.body.length));
          if (kind === 'formdata') {
            // The multipart boundary is random per Response: compare shape and length.
            expect(reply.headers['content-type']).to.match(/^multipart\/form-data; boundary=/);
            expect(reply.body.length).to.equal(expected.bytes.length);
          } else {
            expect(reply.body.equals(expected.bytes)).to.equal(true);
            if (expected.type) expect(reply.headers['content-type']).to.equal(expected.type);
          }

          const head = await httpRequest(`${app.url}/body/${kind}`, { method: 'HEAD' });
          expect(head.status).to.equal(200);
          expect(head.headers['content-length']).to.equal(reply.headers['content-length']);
          expect(head.headers['transfer-encoding']).to.equal(undefined);
          expect(head.body.length).to.equal(0);
        });
      }

      it('a stream streams: chunked, the first event long before the end', async () => {
        const reply = await httpRequest(`${app.url}/sse`);
        expect(reply.headers['transfer-encoding']).to.equal('chunked');
        expect(reply.headers['content-length']).to.equal(undefined);
        expect(reply.body.toString()).to.equal('data: first\n\ndata: second\n\n');
        expect(reply.firstChunkAt).to.be.a('number');
        expect(reply.endAt - reply.firstChunkAt!).to.be.greaterThan(200);
      });

      it('a stream that yields 1 MiB at once is streamed, not collected into one buffer', async () => {
        const expected = await expectedBody('big-stream');
        const reply = await httpRequest(`${app.url}/body/big-stream`);
        expect(reply.headers['transfer-encoding']).to.equal('chunked');
        expect(reply.body.equals(expected.bytes)).to.equal(true);
      });

      it('HEAD of a stream: headers only, the stream cancelled', async () => {
        const head = await httpRequest(`${app.url}/sse`, { method: 'HEAD' });
        expect(head.status).to.equal(200);
        expect(head.headers['content-type']).to.equal('text/event-stream');
        expect(head.body.length).to.equal(0);
        expect(head.endAt).to.be.lessThan(250);
      });
    });
  }

  describe('.fetch', () => {
    const endpoints = mountEndpoints({ dir });
    for (const kind of KINDS.filter((k) => k !== 'formdata')) {
      it(`${kind}: the handler's bytes, and HEAD without a body`, async () => {
        const expected = await expectedBody(kind);
        const response = await endpoints.fetch(createTestRequest(`/body/${kind}`));
        expect(Buffer.from(await response.arrayBuffer()).equals(expected.bytes)).to.equal(true);
        const head = await endpoints.fetch(createTestRequest(`/body/${kind}`, { method: 'HEAD' }));
        expect(head.status).to.equal(200);
        expect(head.body).to.equal(null);
      });
    }
  });
});
