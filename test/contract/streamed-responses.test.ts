/**
 * A response contract never holds a streamed body back: on every host, with responses checked (as
 * under NODE_ENV=test), a text stream's first line reaches the client while the stream is still
 * open, framed as a stream (chunked, no Content-Length) on Node; the body is checked once it has
 * ended, and a mismatch goes to `onError`. A stream that never ends answers too, and its source is
 * cancelled when the client leaves: the check's copy does not keep it open.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { ResponseContractError } from '../../src';
import { hostsWithFetch, type Served } from '../integration/hosts';
import { waitFor } from '../support/net';

const DIR = path.join(__dirname, '../fixtures/contract-edges-app/app');

/** A streamed answer: its head, its first chunk, and the rest of it (or the client leaving). */
interface Opened {
  status: number;
  headers: IncomingHttpHeaders;
  first: string;
  rest(): Promise<string>;
  leave(): void;
}

/** Milliseconds the first chunk may take; the stream's last one only comes when the test says. */
const FIRST_CHUNK_WITHIN = 2000;

function withinTime<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no ${what} within ${FIRST_CHUNK_WITHIN} ms`)),
      FIRST_CHUNK_WITHIN,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function openOverHttp(url: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      const ended = new Promise<string>((done, fail) => {
        res.on('end', () => done(Buffer.concat(chunks).toString()));
        res.on('error', fail);
      });
      ended.catch(() => {});
      res.once('data', (chunk: Buffer) => {
        res.on('data', (more: Buffer) => chunks.push(more));
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          first: chunk.toString(),
          rest: () => ended,
          leave: () => req.destroy(),
        });
      });
    });
    req.on('error', reject);
  });
}

async function openOverFetch(served: Served, target: string): Promise<Opened> {
  const response = await served.endpoints!.fetch(new Request(served.url + target));
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const { value } = await reader.read();
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    first: decoder.decode(value),
    async rest() {
      let text = '';
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        text += decoder.decode(read.value, { stream: true });
      }
      return text + decoder.decode();
    },
    leave: () => void reader.cancel().catch(() => {}),
  };
}

describe('response contracts: a streamed body goes out as it comes', function () {
  this.timeout(10_000);
  const env = process.env.NODE_ENV;
  let streamIds = 0;

  for (const host of hostsWithFetch) {
    describe(host.name, () => {
      let served: Served;
      const reported: unknown[] = [];
      before(async () => {
        // What a test runner that sets NODE_ENV=test (or development) gets: every response checked.
        process.env.NODE_ENV = 'test';
        served = await host.start({ dir: DIR, onError: (error) => void reported.push(error) });
      });
      after(async () => {
        if (env === undefined) delete process.env.NODE_ENV;
        else process.env.NODE_ENV = env;
        await served?.close();
      });
      beforeEach(() => (reported.length = 0));

      const open = (target: string) =>
        withinTime(
          host.node ? openOverHttp(served.url + target) : openOverFetch(served, target),
          'first chunk',
        );
      const stateOf = async (id: string) => {
        const answer = await served.request(`/streamed?id=${id}`, { method: 'POST' });
        return (JSON.parse(answer.text) as { state: string }).state;
      };

      it('the first line arrives before the stream ends; the whole body is checked once it has', async () => {
        const id = encodeURIComponent(`${host.name}-${++streamIds}`);
        let opened: Opened | undefined;
        try {
          opened = await open(`/streamed?id=${id}`);
          expect(opened.status).to.equal(200);
          expect(opened.first).to.equal('first line\n');
          if (host.node) {
            expect(opened.headers['transfer-encoding']).to.equal('chunked');
            expect(opened.headers['content-length']).to.equal(undefined);
          }
          expect(reported, 'nothing to report before the body ends').to.deep.equal([]);
        } finally {
          expect(await stateOf(id)).to.equal('waiting'); // and released
        }
        expect(await opened.rest()).to.equal('last line\n');
        await waitFor(() => reported.length > 0, 2000, 'the report');
        expect(reported).to.have.length(1);
        const error = reported[0] as ResponseContractError;
        expect(error).to.be.instanceOf(ResponseContractError);
        expect(error.issues.map((issue) => issue.path)).to.deep.equal(['response']);
      });

      it('a stream that never ends answers at once, and is cancelled when the client leaves', async () => {
        const id = encodeURIComponent(`${host.name}-${++streamIds}`);
        const opened = await open(`/streamed?id=${id}&endless`);
        expect(opened.first).to.equal('first line\n');
        opened.leave();
        let state = '';
        for (let tries = 0; tries < 100 && state !== 'cancelled'; tries++) {
          state = await stateOf(id);
          if (state !== 'cancelled') await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(state).to.equal('cancelled');
        expect(reported).to.deep.equal([]);
      });
    });
  }
});
