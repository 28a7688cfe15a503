/**
 * multipart() and saveFile() on every host: Express 5, Express 4, Connect, node:http and `.fetch`,
 * and Bun and Deno under `npm run test:runtimes`. Bodies are encoded by undici's FormData, hostile
 * ones written by hand and sent over a raw socket. Refusals reach the app's error handler where there
 * is one (its JSON `caught`), and are answered in plain text where there is none.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { hostsWithFetch, type Reply, type Served } from '../integration/hosts';
import { delay, waitFor } from '../support/net';
import { bytesOf, encode, sampleForm, sha256 } from './forms';

const DIR = path.join(__dirname, '../fixtures/multipart-app');
const BOUNDARY = 'XyZ';

/** A body written by hand, part by part. */
function handmade(parts: { name: string; filename?: string; body: string | Buffer }[], end = true): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    pieces.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n\r\n`),
    );
    pieces.push(Buffer.from(part.body));
    pieces.push(Buffer.from('\r\n'));
  }
  if (end) pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}

const HANDMADE_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** Until `socket` drains, or `ms` pass without it. */
function drainedOrStalled(socket: net.Socket, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      socket.off('drain', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    socket.once('drain', done);
  });
}

/** What a refusal's answer says: the app's error handler's `caught`, or the plain text. */
function refusalOf(reply: Reply): string {
  try {
    return (JSON.parse(reply.text) as { caught: string }).caught;
  } catch {
    return reply.text;
  }
}

describe('multipart() on every host', () => {
  for (const host of hostsWithFetch) {
    describe(host.name, () => {
      let app: Served;
      let uploads: string;
      const told: unknown[] = [];
      before(async () => {
        app = await host.start({ dir: DIR, onError: (error) => void told.push(error) });
      });
      after(() => app.close());
      beforeEach(() => {
        uploads = mkdtempSync(path.join(tmpdir(), 'multipart-test-'));
        told.length = 0;
      });
      afterEach(() => rmSync(uploads, { recursive: true, force: true }));

      const send = (
        target: string,
        body: Buffer,
        contentType: string,
        headers: Record<string, string> = {},
      ) =>
        app.request(target, {
          method: 'POST',
          headers: { 'content-type': contentType, 'x-upload-dir': uploads, ...headers },
          body,
        });
      const left = () => readdirSync(uploads);

      it('gives fields as text and files saved with their size and sha256, unicode names and empty files too', async () => {
        const { form, files } = sampleForm();
        const { body, contentType } = await encode(form);
        const reply = await send('/upload', body, contentType);
        expect(reply.status, reply.text).to.equal(200);
        expect(JSON.parse(reply.text)).to.deep.equal({
          fields: [
            ['title', 'Holiday'],
            ['tag', 'a'],
            ['tag', 'b'],
            ['note', 'naïve café ☕'],
          ],
          files: files.map((file) => ({
            name: file.name,
            filename: file.filename,
            type: file.type,
            size: file.bytes.length,
            hash: sha256(file.bytes),
            kept: true,
          })),
        });
        // Temporary files: gone once the request is over.
        await waitFor(() => left().length === 0, 3000, 'the temporary files to be removed');
      });

      it('reads a body sent in pieces without a length (chunked) the same', async () => {
        const bytes = bytesOf(300_000, 7);
        const form = new FormData();
        form.append('f', new Blob([new Uint8Array(bytes)]), 'big.bin');
        const { body, contentType } = await encode(form);
        const pieces = Array.from({ length: Math.ceil(body.length / 1000) }, (_, i) =>
          body.subarray(i * 1000, i * 1000 + 1000),
        );
        const reply = await app.request('/upload', {
          method: 'POST',
          headers: { 'content-type': contentType, 'x-upload-dir': uploads },
          body: pieces,
        });
        expect(reply.status, reply.text).to.equal(200);
        const [file] = (JSON.parse(reply.text) as { files: { size: number; hash: string }[] }).files;
        expect([file!.size, file!.hash]).to.deep.equal([bytes.length, sha256(bytes)]);
      });

      it('drains the parts the loop moves past without reading, and reads the next ones', async () => {
        const body = handmade([
          { name: 'a', body: 'first' },
          { name: 'big', filename: 'big.bin', body: bytesOf(500_000) },
          { name: 'b', body: 'second' },
          { name: 'c', filename: 'c.txt', body: 'third' },
        ]);
        const reply = await send('/skip?read=a,c', body, HANDMADE_TYPE);
        expect(reply.status, reply.text).to.equal(200);
        expect(JSON.parse(reply.text)).to.deep.equal([
          ['a', 'first'],
          ['big', null],
          ['b', null],
          ['c', 'third'],
        ]);
      });

      const limitCases: {
        title: string;
        limits: object;
        parts: Parameters<typeof handmade>[0];
        message: RegExp;
      }[] = [
        {
          title: 'a file over fileSize',
          limits: { fileSize: 1000 },
          parts: [
            { name: 'ok', filename: 'ok.bin', body: bytesOf(1000) },
            { name: 'avatar', filename: 'a.bin', body: bytesOf(5000) },
          ],
          message:
            /a file is larger than the limit of 1000 bytes \(field "avatar"\) \(multipart limit fileSize\)/,
        },
        {
          title: 'more files than files',
          limits: { files: 1 },
          parts: [
            { name: 'f1', filename: '1.bin', body: 'x' },
            { name: 'f2', filename: '2.bin', body: 'y' },
          ],
          message: /more files than the limit of 1 \(field "f2"\) \(multipart limit files\)/,
        },
        {
          title: 'more fields than fields',
          limits: { fields: 2 },
          parts: [
            { name: 'a', body: '1' },
            { name: 'b', body: '2' },
            { name: 'c', body: '3' },
          ],
          message: /more fields than the limit of 2 \(field "c"\)/,
        },
        {
          title: 'a field over fieldSize',
          limits: { fieldSize: 10 },
          parts: [{ name: 'long', body: 'x'.repeat(11) }],
          message: /a field is larger than the limit of 10 bytes \(field "long"\)/,
        },
        {
          title: 'more parts than parts',
          limits: { parts: 2 },
          parts: [
            { name: 'a', body: '1' },
            { name: 'f', filename: 'f.bin', body: '2' },
            { name: 'b', body: '3' },
          ],
          message: /more parts than the limit of 2 \(multipart limit parts\)/,
        },
      ];
      for (const { title, limits, parts, message } of limitCases) {
        it(`refuses ${title} with a 413 naming the limit, leaving no file on disk`, async () => {
          const reply = await send(
            `/upload?limits=${encodeURIComponent(JSON.stringify(limits))}`,
            handmade(parts),
            HANDMADE_TYPE,
          );
          expect(reply.status, reply.text).to.equal(413);
          expect(refusalOf(reply)).to.match(message);
          await waitFor(() => left().length === 0, 3000, 'the saved files to be removed');
          expect(told, 'onError is not told of the client’s refusal').to.deep.equal([]);
        });
      }

      it('a file over the default fileSize (10 MiB) is refused', async () => {
        const body = handmade([
          { name: 'huge', filename: 'huge.bin', body: Buffer.alloc(10 * 1024 * 1024 + 1) },
        ]);
        const reply = await send('/upload', body, HANDMADE_TYPE);
        expect(reply.status).to.equal(413);
        expect(refusalOf(reply)).to.match(/limit of 10485760 bytes/);
      });

      it("a body over the route's bodyLimit is the route's 413", async () => {
        const body = handmade([{ name: 'f', filename: 'f.bin', body: Buffer.alloc(1024 * 1024 + 10) }]);
        const reply = await send('/skip', body, HANDMADE_TYPE);
        expect(reply.status).to.equal(413);
        expect(refusalOf(reply)).to.match(/Request body too large|Payload Too Large/);
      });

      it('refuses a body that is not multipart/form-data with a 415', async () => {
        const reply = await send('/upload', Buffer.from('{"a":1}'), 'application/json');
        expect(reply.status).to.equal(415);
        expect(refusalOf(reply)).to.match(
          /expected multipart\/form-data, got Content-Type "application\/json"/,
        );
      });

      it('refuses multipart/form-data without a boundary with a 400', async () => {
        const reply = await send('/upload', handmade([{ name: 'a', body: '1' }]), 'multipart/form-data');
        expect(reply.status).to.equal(400);
        expect(refusalOf(reply)).to.match(/multipart\/form-data body is malformed/);
      });

      it('refuses a body cut short (no closing boundary) with a 400, leaving no file', async () => {
        const body = handmade([{ name: 'f', filename: 'f.bin', body: bytesOf(50_000) }], false).subarray(
          0,
          30_000,
        );
        const reply = await send('/upload', body, HANDMADE_TYPE);
        expect(reply.status, reply.text).to.equal(400);
        expect(refusalOf(reply)).to.match(/malformed/);
        await waitFor(() => left().length === 0, 3000, 'the partial file to be removed');
      });

      it('refuses an empty body with a 400', async () => {
        const reply = await send('/upload', Buffer.alloc(0), HANDMADE_TYPE);
        expect(reply.status).to.equal(400);
      });

      it('removes temporary files once the request is over, unless the handler keeps them', async () => {
        const body = handmade([
          { name: 'a', filename: 'a.txt', body: 'aaa' },
          { name: 'b', filename: 'b.txt', body: 'bbb' },
        ]);
        const gone = await send('/temp', body, HANDMADE_TYPE);
        expect(gone.status, gone.text).to.equal(200);
        await waitFor(() => left().length === 0, 3000, 'the temporary files to be removed');
        const kept = await send('/temp?keep=1', body, HANDMADE_TYPE);
        const paths = JSON.parse(kept.text) as string[];
        await delay(100);
        expect(left().sort()).to.deep.equal(paths.map((p) => path.basename(p)).sort());
      });

      if (!host.sockets) return;

      /** Sends the head and `body`, as fast as the server takes it; resolves with the socket. */
      const rawUpload = async (target: string, body: Buffer | undefined, contentLength: number) => {
        const { port } = new URL(app.url);
        const socket = net.connect(Number(port), '127.0.0.1');
        socket.on('error', () => {});
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write(
          `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: ${HANDMADE_TYPE}\r\n` +
            `X-Upload-Dir: ${uploads}\r\nContent-Length: ${contentLength}\r\n\r\n`,
        );
        if (body) socket.write(body);
        return socket;
      };

      it('a consumer that stops reading holds the client back: what the server buffers stays bounded', async () => {
        // Under Bun.serve's default maxRequestBodySize (128 MiB), past which Bun holds the request.
        const total = 100 * 1024 * 1024;
        const head = Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f"; filename="f.bin"\r\n\r\n`,
        );
        const socket = await rawUpload('/paused?ms=800', undefined, total);
        let received = '';
        socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
        socket.write(head);
        let written = head.length;
        const chunk = Buffer.alloc(64 * 1024, 1);
        // Written while the server lets us: a stalled write waits for 'drain', which a paused consumer withholds.
        const deadline = Date.now() + 1500;
        while (Date.now() < deadline && written < total && !received) {
          if (!socket.write(chunk)) await drainedOrStalled(socket, 100);
          written += chunk.length;
        }
        // Whatever the framing (a length, or chunked), the answer is one JSON object.
        await waitFor(() => /\{[^}]*\}/.test(received), 5000, 'the answer');
        const answer = JSON.parse(/\{[^}]*\}/.exec(received)![0]) as { first: number; held: number };
        socket.destroy();
        // The kernel's socket buffers take some MiB on loopback; the rest waits in the client.
        expect(written, 'bytes the client could write').to.be.below(32 * 1024 * 1024);
        if (host.node) expect(answer.held, 'bytes the server held in buffers').to.be.below(4 * 1024 * 1024);
      });

      it('past a limit, the rest of a large upload is not read: the 413 comes, then the connection closes', async () => {
        const total = 64 * 1024 * 1024;
        const limits = encodeURIComponent(JSON.stringify({ fileSize: 1000 }));
        const head = Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f"; filename="f.bin"\r\n\r\n`,
        );
        const socket = await rawUpload(`/upload?limits=${limits}`, head, total);
        let received = '';
        let closed = false;
        socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
        socket.on('close', () => (closed = true));
        let written = head.length;
        const chunk = Buffer.alloc(64 * 1024, 1);
        const deadline = Date.now() + 5000;
        while (!closed && (host.node || !received) && Date.now() < deadline && written < total) {
          if (!socket.write(chunk)) await drainedOrStalled(socket, 50);
          written += chunk.length;
        }
        await waitFor(() => /^HTTP\/1\.1 413 /.test(received), 5000, 'the 413');
        // What becomes of the rest is the server's: Node's closes the connection after a bounded drain;
        // Bun.serve reads the rest, Deno.serve keeps the connection until the client gives up.
        if (host.node) {
          await waitFor(() => closed, 5000, 'the server to close the connection');
          expect(written, 'bytes the client could write').to.be.below(total / 2);
        }
        socket.destroy();
        await waitFor(() => left().length === 0, 3000, 'the partial file to be removed');
      });

      it('a client that leaves mid-upload ends the iteration, and no temporary file stays', async () => {
        const body = handmade([{ name: 'f', filename: 'f.bin', body: bytesOf(200_000) }], false);
        const socket = await rawUpload('/upload', body, body.length + 1_000_000);
        await waitFor(() => left().length > 0, 3000, 'the file to be written');
        socket.destroy();
        await waitFor(() => left().length === 0, 3000, 'the partial file to be removed');
        await delay(50);
        expect(told, 'onError is not told of a client that left').to.deep.equal([]);
      });

      it("the route's timeout ends the iteration: 503, and no temporary file stays", async () => {
        const body = handmade([{ name: 'f', filename: 'f.bin', body: bytesOf(10_000) }], false);
        const socket = await rawUpload('/timeout', body, body.length + 1_000_000);
        let received = '';
        socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
        await waitFor(() => received.includes('\r\n\r\n'), 5000, 'the answer');
        socket.destroy();
        expect(received).to.match(/^HTTP\/1\.1 503 /);
        await waitFor(() => left().length === 0, 3000, 'the partial file to be removed');
      });
    });
  }
});
