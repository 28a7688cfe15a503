/**
 * A contract's `multipart`: an upload read as it arrives, under the contract's limits, on every host
 * and with every validator. Fields are strings and files `File`s whose bytes arrive intact; each file
 * is held in a temporary file while the request runs and removed once it is over; past a limit the
 * answer is a 413 that the host gives as for any body over its limit; a body of another type is 415.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import express from 'express';
import multer from 'multer';
import { mountEndpoints } from '../../src';
import { listen, waitFor, type Listening } from '../support/net';
import { hostsWithFetch, type Served } from '../integration/hosts';
import { UPLOADS } from '../fixtures/contract-app/app/_lib/endpoints';
import { CONTRACT_APP, multipart } from './targets';

const VALIDATORS = ['zod', 'valibot', 'arktype'] as const;

const photo = (size: number, seed: number) =>
  new Uint8Array(Array.from({ length: size }, (_, index) => (index * 31 + seed) % 256));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function uploadsLeft(): Promise<string[]> {
  const left = async () => (await readdir(UPLOADS)).filter((name) => name.startsWith('upload-'));
  // The files go once the request is over, just after its answer reaches the client.
  for (let wait = 0; wait < 50 && (await left()).length > 0; wait++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return left();
}

interface Answer {
  status: number;
  contentType: string | undefined;
  text: string;
  json(): unknown;
}

describe('contracts: a multipart body read as it arrives, under the contract’s limits', function () {
  this.timeout(20_000);
  before(async () => {
    await rm(UPLOADS, { recursive: true, force: true });
    await mkdir(UPLOADS, { recursive: true });
  });

  for (const host of hostsWithFetch) {
    describe(host.name, () => {
      let served: Served;
      const reported: unknown[] = [];
      before(async () => {
        served = await host.start({ dir: CONTRACT_APP, onError: (error) => void reported.push(error) });
      });
      after(() => served?.close());
      const target = {
        async send(
          path: string,
          sent: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
        ) {
          const reply = await served.request(path, sent);
          const type = reply.headers['content-type'];
          return {
            status: reply.status,
            contentType: Array.isArray(type) ? type[0] : type,
            text: reply.text,
            json: () => JSON.parse(reply.text) as unknown,
          } satisfies Answer;
        },
      };
      afterEach(() => {
        expect(reported, 'onError').to.deep.equal([]);
      });

      for (const validator of VALIDATORS) {
        describe(validator, () => {
          const url = `/${validator}/upload`;

          it('fields as strings, files as Files with their bytes, each held on disk until the request is over', async () => {
            const first = photo(40_000, 1);
            const second = photo(1_000, 2);
            const form = new FormData();
            form.append('title', 'Holiday');
            form.append('photos', new File([first], 'beach.png', { type: 'image/png' }));
            form.append('photos', new File([second], 'hill.jpg', { type: 'image/jpeg' }));
            const res = await target.send(url, { method: 'POST', ...(await multipart(form)) });
            expect(res.status, res.text).to.equal(200);
            expect(res.json()).to.deep.equal({
              title: 'Holiday',
              files: [
                { name: 'beach.png', type: 'image/png', size: 40_000, sha256: sha256(first) },
                { name: 'hill.jpg', type: 'image/jpeg', size: 1_000, sha256: sha256(second) },
              ],
              held: 2,
            });
            expect(await uploadsLeft()).to.deep.equal([]);
          });

          it('one file given is still the array the schema makes of it', async () => {
            const form = new FormData();
            form.append('title', 'One');
            form.append('photos', new File([photo(10, 3)], 'a.gif', { type: 'image/gif' }));
            const res = await target.send(url, { method: 'POST', ...(await multipart(form)) });
            expect(res.status, res.text).to.equal(200);
            expect((res.json() as { files: unknown[] }).files).to.have.length(1);
          });

          it('a file over the contract’s fileSize: 413, and nothing left on disk', async () => {
            const form = new FormData();
            form.append('title', 'Too big');
            form.append('photos', new File([photo(64 * 1024 + 1, 4)], 'big.png', { type: 'image/png' }));
            const res = await target.send(url, { method: 'POST', ...(await multipart(form)) });
            expect(res.status, res.text).to.equal(413);
            expect(res.text).to.match(/fileSize|too large/i);
            expect(await uploadsLeft()).to.deep.equal([]);
          });

          it('more files than the contract’s files: 413', async () => {
            const form = new FormData();
            form.append('title', 'Many');
            for (let index = 0; index < 3; index++)
              form.append('photos', new File([photo(10, index)], `${index}.png`, { type: 'image/png' }));
            const res = await target.send(url, { method: 'POST', ...(await multipart(form)) });
            expect(res.status, res.text).to.equal(413);
            expect(await uploadsLeft()).to.deep.equal([]);
          });

          it('a form missing a file: 400 with the issue located in the body', async () => {
            const form = new FormData();
            form.append('title', 'No photo');
            const res = await target.send(url, { method: 'POST', ...(await multipart(form)) });
            expect(res.status, res.text).to.equal(400);
            const problem = res.json() as { issues: { path: string }[] };
            expect(problem.issues.map((issue) => issue.path)).to.deep.equal(['body.photos']);
          });

          it('JSON where the contract reads a form: 415, saying what to send', async () => {
            const res = await target.send(url, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ title: 'x', photos: [] }),
            });
            expect(res.status, res.text).to.equal(415);
            expect(res.contentType).to.equal('application/problem+json');
            expect(res.text).to.include('send multipart/form-data');
          });

          it('a malformed multipart body: 400 problem details', async () => {
            const res = await target.send(url, {
              method: 'POST',
              headers: { 'content-type': 'multipart/form-data; boundary=x' },
              body: '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\ncut short',
            });
            expect(res.status, res.text).to.equal(400);
            expect(res.text).to.include('The body is not valid multipart/form-data');
          });
        });
      }
    });
  }
});

describe('contracts: an upload behind what an Express app already has, and a client that leaves', function () {
  this.timeout(20_000);
  let server: Listening;
  const reported: unknown[] = [];
  /** An Express app with `parsers` in front of the tree and an error handler answering JSON. */
  const serve = async (...parsers: express.RequestHandler[]) => {
    const app = express();
    app.use(...parsers);
    await mountEndpoints(app, { dir: CONTRACT_APP, onError: (error) => void reported.push(error) });
    app.use(
      (
        error: { status?: number; message: string },
        _req: express.Request,
        res: express.Response,
        _next: express.NextFunction,
      ) => void res.status(error.status ?? 500).json({ error: error.message }),
    );
    return listen(http.createServer(app));
  };
  before(async () => {
    await mkdir(UPLOADS, { recursive: true });
    server = await serve(express.json());
  });
  after(() => server.close());
  beforeEach(() => {
    reported.length = 0;
  });

  it('a form multer already read: the error says so, for the app’s error handler', async () => {
    const form = new FormData();
    form.append('title', 'Read before');
    form.append('consumed', new File(['abc'], 'a.png', { type: 'image/png' }));
    const behindMulter = await serve(multer().single('consumed'));
    try {
      const res = await fetch(`${behindMulter.url}/zod/upload`, { method: 'POST', body: form });
      expect(res.status).to.equal(500);
      expect(((await res.json()) as { error: string }).error).to.match(
        /consumed by earlier middleware \(multer/,
      );
    } finally {
      await behindMulter.close();
    }
  });

  it('JSON that express.json() parsed in front: the same 415 as without it', async () => {
    const res = await fetch(`${server.url}/zod/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x' }),
    });
    expect(res.status).to.equal(415);
    expect(await res.text()).to.include('send multipart/form-data');
  });

  it('a client that leaves mid-file: no temporary file stays, and nothing is reported as an error', async () => {
    const boundary = 'leaving';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nGone\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
    const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /zod/upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: ${head.length + 60_000}\r\n\r\n${head}`,
    );
    socket.write(Buffer.alloc(30_000, 7));
    // The file has reached the disk before the client goes.
    await waitFor(() => readdirSync(UPLOADS).some((name) => name.startsWith('upload-')), 3000, 'the file');
    socket.destroy();
    expect(await uploadsLeft()).to.deep.equal([]);
    expect(reported).to.deep.equal([]);
  });
});
