/**
 * A file is streamed from disk as the client reads it: a 64 MiB file sent to a client that stops
 * reading holds a few chunks in memory, not the file; every byte arrives, in order. A file cut short
 * while it is sent breaks the connection rather than leave the client waiting for bytes that will
 * not come; a file deleted while it is sent is sent whole (its open descriptor still reads it). The
 * descriptor is closed at the end, on an error, and when the client goes away; a Response nobody
 * reads opens nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import os from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import path from 'node:path';
import { expect } from 'chai';
import { sendFile } from '../../src/files';
import { delay, waitFor, type Listening } from '../support/net';
import { startFilesApp } from './apps';

const MiB = 1024 * 1024;

/** A full garbage collection, so what is measured is what is held, not what is left over. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
const canCountDescriptors = existsSync('/proc/self/fd');
const openDescriptors = () => readdirSync('/proc/self/fd').length;

/** A file of `size` bytes that are not the same in any two places (so a chunk out of order shows); its SHA-256. */
function writeLargeFile(file: string, size: number): string {
  const hash = createHash('sha256');
  const fd = openSync(file, 'w');
  try {
    for (let written = 0; written < size; written += MiB) {
      const block = randomBytes(Math.min(MiB, size - written));
      hash.update(block);
      writeSync(fd, block);
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

interface Reading {
  response: IncomingMessage;
  /** Resolves when the body ended (`complete`) or the connection broke (`cut`), with what arrived. */
  outcome: Promise<{ ending: 'complete' | 'cut'; bytes: number; sha256: string }>;
}

/** GET `target`, paused at its first chunk until `onFirst` resolves. */
function readPaused(
  server: Listening,
  target: string,
  onFirst: (response: IncomingMessage) => Promise<void>,
) {
  return new Promise<Reading>((resolve, reject) => {
    const request = http.get(server.url + target, { agent: false }, (response) => {
      const hash = createHash('sha256');
      let bytes = 0;
      let first = true;
      const outcome = new Promise<{ ending: 'complete' | 'cut'; bytes: number; sha256: string }>((settle) => {
        let settled = false;
        const done = (ending: 'complete' | 'cut') => {
          if (settled) return;
          settled = true;
          settle({ ending, bytes, sha256: hash.digest('hex') });
        };
        response.on('end', () => done(response.complete ? 'complete' : 'cut'));
        response.on('error', () => done('cut'));
        response.on('aborted', () => done('cut'));
      });
      response.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
        if (!first) return;
        first = false;
        response.pause();
        void onFirst(response).then(() => response.resume(), reject);
      });
      resolve({ response, outcome });
    });
    request.on('error', reject);
  });
}

describe('sendFile streams from disk', function () {
  this.timeout(60_000);
  let server: Listening;
  let dir: string;
  let baseline = 0;
  const told: unknown[] = [];

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'files-streaming-'));
    process.env.FILES_APP_TEMP = dir;
    server = await startFilesApp({ onError: (error) => void told.push(error) });
    if (canCountDescriptors) baseline = openDescriptors();
  });
  after(async () => {
    await server.close();
    delete process.env.FILES_APP_TEMP;
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async function () {
    // Whatever the test did, every descriptor it opened is closed again.
    if (canCountDescriptors && this.currentTest?.state === 'passed') {
      await waitFor(() => openDescriptors() <= baseline, 5000, `open descriptors back to ${baseline}`);
    }
  });

  it('sends a 64 MiB file to a client that stops reading with bounded memory, every byte in order', async () => {
    const sha256 = writeLargeFile(path.join(dir, 'large.bin'), 64 * MiB);
    let held = 0;
    collectGarbage();
    const before = process.memoryUsage().arrayBuffers;
    const reading = await readPaused(server, '/ported/temp?name=large.bin', async () => {
      // The client reads nothing for a while: the server must stop reading the file too.
      await delay(500);
      collectGarbage();
      held = process.memoryUsage().arrayBuffers - before;
    });
    expect(reading.response.headers['content-length']).to.equal(String(64 * MiB));
    const result = await reading.outcome;
    // A few chunks in flight; without backpressure, most of the file.
    expect(held, 'bytes held while the client was not reading').to.be.below(8 * MiB);
    expect(result).to.deep.equal({ ending: 'complete', bytes: 64 * MiB, sha256 });
  });

  it('cuts the connection when the file is truncated while it is sent, and does not hang', async () => {
    const file = path.join(dir, 'truncated.bin');
    writeLargeFile(file, 64 * MiB);
    const reading = await readPaused(server, '/ported/temp?name=truncated.bin', async () => {
      truncateSync(file, 64 * 1024);
    });
    const result = await reading.outcome;
    expect(result.ending).to.equal('cut');
    expect(result.bytes).to.be.below(64 * MiB);
    // Headers were out: onError hears of it, as of any body that fails mid-way.
    await waitFor(() => told.length > 0, 2000, 'onError told');
    expect((told.at(-1) as Error).name).to.equal('FileChangedError');
  });

  it('sends the whole file when it is deleted while it is sent: the open descriptor still reads it', async function () {
    if (process.platform === 'win32') this.skip();
    const file = path.join(dir, 'deleted.bin');
    const sha256 = writeLargeFile(file, 16 * MiB);
    const reading = await readPaused(server, '/ported/temp?name=deleted.bin', async () => unlinkSync(file));
    expect(await reading.outcome).to.deep.equal({ ending: 'complete', bytes: 16 * MiB, sha256 });
  });

  it('closes the descriptor when the client goes away mid-file', async function () {
    if (!canCountDescriptors) this.skip();
    writeLargeFile(path.join(dir, 'abandoned.bin'), 32 * MiB);
    const reading = await readPaused(server, '/ported/temp?name=abandoned.bin', async (response) => {
      response.destroy();
    });
    expect((await reading.outcome).ending).to.equal('cut');
  });

  describe('the Response itself', () => {
    const request = (headers: Record<string, string> = {}, method = 'GET') =>
      new Request('http://localhost/large', { method, headers });

    it('opens the file only once its body is read, and closes it when the reader cancels', async function () {
      if (!canCountDescriptors) this.skip();
      writeLargeFile(path.join(dir, 'lazy.bin'), 4 * MiB);
      const before = openDescriptors();
      const response = await sendFile(request(), 'lazy.bin', { root: dir });
      expect(openDescriptors(), 'descriptors before the body is read').to.equal(before);
      const reader = response.body!.getReader();
      const first = await reader.read();
      expect(first.value?.byteLength).to.equal(64 * 1024);
      expect(openDescriptors(), 'descriptors while it is read').to.equal(before + 1);
      await reader.cancel();
      await waitFor(() => openDescriptors() === before, 2000, 'the descriptor closed');
    });

    it('fails its body, and closes the file, when the file was replaced since its head was made', async () => {
      const file = path.join(dir, 'replaced.bin');
      writeLargeFile(file, 2 * MiB);
      const response = await sendFile(request(), file);
      expect(response.headers.get('content-length')).to.equal(String(2 * MiB));
      writeLargeFile(`${file}.new`, 2 * MiB);
      renameSync(`${file}.new`, file);
      let failure: unknown;
      await response.arrayBuffer().catch((error: unknown) => (failure = error));
      expect((failure as Error | undefined)?.name).to.equal('FileChangedError');
    });

    it('answers HEAD and a 304 without opening the file', async function () {
      const file = path.join(dir, 'head.bin');
      writeFileSync(file, Buffer.alloc(200_000, 1));
      const head = await sendFile(request({}, 'HEAD'), file);
      expect([head.status, head.body, head.headers.get('content-length')]).to.deep.equal([
        200,
        null,
        '200000',
      ]);
      const etag = head.headers.get('etag')!;
      const fresh = await sendFile(request({ 'if-none-match': etag }), file);
      expect([fresh.status, fresh.body, fresh.headers.get('content-length')]).to.deep.equal([
        304,
        null,
        null,
      ]);
    });

    it('streams a range of a large file: exactly its bytes', async () => {
      const file = path.join(dir, 'ranged.bin');
      writeLargeFile(file, 3 * MiB);
      const response = await sendFile(request({ range: `bytes=${MiB - 7}-${2 * MiB + 8}` }), file);
      expect(response.status).to.equal(206);
      const body = Buffer.from(await response.arrayBuffer());
      expect(body.equals(readFileSync(file).subarray(MiB - 7, 2 * MiB + 9))).to.equal(true);
      expect(response.headers.get('content-range')).to.equal(`bytes ${MiB - 7}-${2 * MiB + 8}/${3 * MiB}`);
    });
  });
});
