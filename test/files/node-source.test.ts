/**
 * On a Node host, a file's Response is piped from Node's own stream of the file rather than through
 * its Web stream. That is only the same answer while the Response still is the file's: one rebuilt
 * around its body (a middleware adding a header) is sent from the file whole, with its own headers;
 * a body already partly read, or declared with another length, is sent as any stream is, so what
 * the client gets is never more than, nor other than, what the Response holds.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { sendWebResponse } from '../../src/bridge';
import { sendFile } from '../../src/files';
import { listen, type Listening } from '../support/net';

const SIZE = 1024 * 1024;

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  complete: boolean;
}

/** GET on a fresh connection, read to its end or to the cut. */
function get(server: Listening, target: string): Promise<Got> {
  return new Promise((resolve, reject) => {
    http
      .get(server.url + target, { agent: false }, (res) => {
        const chunks: Buffer[] = [];
        let settled = false;
        const done = () => {
          if (settled) return;
          settled = true;
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode!, headers: res.headers, body, complete: res.complete });
        };
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', done);
        res.on('error', done);
        res.on('aborted', done);
        res.on('close', done);
      })
      .on('error', reject);
  });
}

describe('a file Response on a Node host', () => {
  let dir: string;
  let file: string;
  let bytes: Buffer;
  let server: Listening;
  const sent: Promise<void>[] = [];

  /** What each path answers with: the file's Response, as a handler or a middleware leaves it. */
  const answers: Record<string, (request: Request) => Promise<Response>> = {
    '/as-is': (request) => sendFile(request, file),
    '/rebuilt': async (request) => {
      const response = await sendFile(request, file);
      const headers = new Headers(response.headers);
      headers.set('x-added', 'yes');
      return new Response(response.body, { status: response.status, headers });
    },
    '/partly-read': async (request) => {
      const response = await sendFile(request, file);
      const reader = response.body!.getReader();
      await reader.read();
      reader.releaseLock();
      return response;
    },
    '/replaced': async (request) => {
      const response = await sendFile(request, file);
      // Another file takes its name after its head was made, as a deploy replaces one.
      writeFileSync(`${file}.new`, randomBytes(SIZE));
      renameSync(`${file}.new`, file);
      return response;
    },
    '/declared-shorter': async (request) => {
      const response = await sendFile(request, file);
      const headers = new Headers(response.headers);
      headers.set('content-length', String(SIZE / 2));
      return new Response(response.body, { headers });
    },
  };

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'node-source-'));
    file = path.join(dir, 'file.bin');
    bytes = randomBytes(SIZE);
    writeFileSync(file, bytes);
    server = await listen(
      http.createServer((req, res) => {
        const request = new Request(`http://localhost${req.url}`);
        const sending = answers[req.url!]!(request).then((response) => sendWebResponse(res, response));
        // What the bridge's caller does with a Response that cannot be sent: a 500, when nothing went out yet.
        sent.push(
          sending.catch((error: Error) => {
            if (res.headersSent) return;
            res.statusCode = 500;
            res.end(error.name);
          }),
        );
      }),
    );
  });
  after(async () => {
    await server.close();
    await Promise.all(sent);
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the file whole, with its head', async () => {
    const got = await get(server, '/as-is');
    expect(got.status).to.equal(200);
    expect(got.complete).to.equal(true);
    expect(got.headers['content-length']).to.equal(String(SIZE));
    expect(got.body.equals(bytes)).to.equal(true);
  });

  it('sends a Response rebuilt around the file body whole, with the headers it was rebuilt with', async () => {
    const got = await get(server, '/rebuilt');
    expect(got.complete).to.equal(true);
    expect(got.headers['x-added']).to.equal('yes');
    expect(got.body.equals(bytes)).to.equal(true);
  });

  it('sends only what is left of a body partly read before it was returned, and cuts what it lacks', async () => {
    const got = await get(server, '/partly-read');
    // The first chunk was read by the handler: the file from its start would be bytes the body no
    // longer holds.
    expect(got.complete).to.equal(false);
    expect(got.body.length).to.be.below(SIZE);
    expect(got.body.equals(bytes.subarray(64 * 1024, 64 * 1024 + got.body.length))).to.equal(true);
  });

  it('refuses, before its head, a file replaced since its Response was made', async () => {
    const got = await get(server, '/replaced');
    expect(got.status).to.equal(500);
    expect(got.body.toString()).to.equal('FileChangedError');
    bytes = readFileSync(file);
  });

  it('holds a body declared shorter than the file to the length declared', async () => {
    const got = await get(server, '/declared-shorter');
    expect(got.headers['content-length']).to.equal(String(SIZE / 2));
    expect(got.body.length).to.be.at.most(SIZE / 2);
    expect(got.complete).to.equal(false);
  });
});
