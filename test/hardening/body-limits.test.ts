/**
 * Body limits and draining: 413 from Content-Length before the handler runs, 413 while a
 * chunked body streams in (every way a handler reads a body), `bodyLimit: false`, per-endpoint
 * overrides both ways, and unread bodies drained — bounded — so keep-alive connections live on.
 */
import http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import { state, resetState } from '../fixtures/hardening-app/app/_lib/state';
import {
  delay,
  rawBody,
  rawExchange,
  httpRequest,
  startServer,
  unhandledRejectionTripwire,
  waitFor,
  type TestServer,
} from './helpers';

const KiB = 1024;
const MiB = 1024 * KiB;

/** A chunked POST: the body in `chunks` writes, no Content-Length. */
function chunkedPost(url: string, chunks: Buffer[], agent?: http.Agent) {
  type Result = { status: number; body: string; headers: http.IncomingHttpHeaders; localPort?: number };
  return new Promise<Result>((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      agent: agent ?? false,
      headers: { 'content-type': 'text/plain' },
    });
    let localPort: number | undefined;
    req.on('socket', (socket) => {
      if (socket.localPort) localPort = socket.localPort;
      else socket.once('connect', () => (localPort = socket.localPort));
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers, localPort }));
    });
    (async () => {
      for (const chunk of chunks) {
        if (req.destroyed) return;
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    })().catch(reject);
  });
}

const json = (body: string) => JSON.parse(body) as Record<string, unknown>;

describe('hardening: body limits', function () {
  this.timeout(10_000);
  unhandledRejectionTripwire();

  let app: TestServer; // default limit (1 MiB)
  let tight: TestServer; // mount limit 1 KiB
  let open: TestServer; // bodyLimit: false
  before(async () => {
    [app, tight, open] = await Promise.all([
      startServer(),
      startServer({ bodyLimit: 1 * KiB }),
      startServer({ bodyLimit: false }),
    ]);
  });
  after(() => Promise.all([app, tight, open].map((s) => s.close())));
  beforeEach(resetState);

  describe('Content-Length over the limit', () => {
    it('answers 413 from the headers alone, before the handler runs and before the body is sent', async () => {
      // Only the headers go out: the 413 must not wait for a body that never comes.
      const head = `POST /ignore-body HTTP/1.1\r\nHost: x\r\nContent-Length: ${MiB + 1}\r\n\r\n`;
      const reply = await rawExchange(app.port, head, 4000);
      expect(reply.status).to.equal(413);
      expect(rawBody(reply)).to.match(/too large/i);
      expect(reply.text.toLowerCase()).to.include('connection: close');
      expect(state.ignored).to.equal(0);
    });

    it('accepts exactly the limit', async () => {
      const reply = await httpRequest(`${tight.url}/limits/read?via=arrayBuffer`, {
        method: 'POST',
        body: Buffer.alloc(KiB, 0x61),
      });
      expect(reply.status).to.equal(200);
      expect(json(reply.body.toString())).to.deep.equal({ size: KiB });
    });

    it('answers 413 with the body on its way, and the client reads the answer', async () => {
      const reply = await httpRequest(`${tight.url}/limits/read`, {
        method: 'POST',
        body: Buffer.alloc(64 * KiB, 0x61),
      });
      expect(reply.status).to.equal(413);
      expect(reply.headers.connection).to.equal('close');
    });
  });

  describe('chunked body over the limit', () => {
    for (const via of ['text', 'arrayBuffer', 'json', 'stream']) {
      it(`rejects the handler's ${via} read and answers 413`, async () => {
        tight.appErrors.length = 0;
        const chunks = Array.from({ length: 8 }, () => Buffer.alloc(256, 0x61));
        const reply = await chunkedPost(`${tight.url}/limits/read?via=${via}`, chunks);
        expect(reply.status).to.equal(413);
        expect(reply.body).to.match(/too large/i);
        // The app's error handler answered it; onError, which hears of faults, was not told.
        expect(tight.appErrors).to.deep.equal(['Request body too large: the limit is 1024 bytes']);
        expect(tight.reported).to.deep.equal([]);
      });
    }

    it('the read rejects with a BodyLimitError the handler can catch', async () => {
      const reply = await chunkedPost(`${tight.url}/limits/read?via=catch`, [Buffer.alloc(2 * KiB, 0x61)]);
      expect(reply.status).to.equal(422);
      expect(json(reply.body)).to.include({ error: 'BodyLimitError' });
    });

    it('answers 413 as soon as the limit is crossed, while the client is still sending', async () => {
      // Headers and limit + 1 bytes, then nothing: no end of body, so only a streaming check answers.
      const socket = net.connect(tight.port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => {});
      const chunk = Buffer.alloc(KiB + 1, 0x61);
      socket.write(
        `POST /limits/read?via=stream HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n` +
          `${chunk.length.toString(16)}\r\n${chunk.toString()}\r\n`,
      );
      try {
        await waitFor(() => received.includes('\r\n\r\n'), 3000, 'the 413');
        expect(received).to.match(/^HTTP\/1\.1 413 /);
      } finally {
        socket.destroy();
      }
    });
  });

  describe('bodyLimit: false and per-endpoint overrides', () => {
    it('bodyLimit: false lets a body over the default limit through', async () => {
      const reply = await httpRequest(`${open.url}/limits/read?via=stream`, {
        method: 'POST',
        body: Buffer.alloc(MiB + 1),
      });
      expect(reply.status).to.equal(200);
      expect(json(reply.body.toString())).to.deep.equal({ size: MiB + 1 });
    });

    it('config.bodyLimit smaller than the mount limit: 413 by Content-Length and by streaming', async () => {
      const byLength = await httpRequest(`${app.url}/limits/small`, { method: 'POST', body: 'x'.repeat(17) });
      expect(byLength.status).to.equal(413);
      const streamed = await chunkedPost(`${app.url}/limits/small`, [
        Buffer.from('x'.repeat(10)),
        Buffer.from('x'.repeat(10)),
      ]);
      expect(streamed.status).to.equal(413);
      const fits = await httpRequest(`${app.url}/limits/small`, { method: 'POST', body: 'x'.repeat(16) });
      expect(fits.status).to.equal(200);
    });

    it('config.bodyLimit larger than the mount limit, and config.bodyLimit: false, win over it', async () => {
      const large = await httpRequest(`${tight.url}/limits/large`, {
        method: 'POST',
        body: Buffer.alloc(2 * MiB),
      });
      expect(large.status).to.equal(200);
      expect(json(large.body.toString())).to.deep.equal({ size: 2 * MiB });
      const unlimited = await chunkedPost(`${tight.url}/limits/unlimited`, [
        Buffer.alloc(64 * KiB),
        Buffer.alloc(64 * KiB),
      ]);
      expect(unlimited.status).to.equal(200);
      expect(json(unlimited.body)).to.deep.equal({ size: 128 * KiB });
    });
  });

  describe('a body the handler has not read yet', () => {
    it('stays in the socket: the server reads no further ahead than its buffers, then streams it all', async () => {
      const size = 32 * MiB;
      let serverSide: net.Socket | undefined;
      open.server.once('connection', (socket: net.Socket) => (serverSide = socket));
      const socket = net.connect(open.port, '127.0.0.1');
      let received = '';
      let closed = false;
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => (closed = true));
      socket.write(
        `POST /read-later HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: ${size}\r\n\r\n`,
      );
      const chunk = Buffer.alloc(64 * KiB, 0x61);
      const sending = (async () => {
        for (let sent = 0; sent < size && !closed; sent += chunk.length) {
          if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve));
        }
      })();
      await waitFor(() => state.letRead !== undefined, 3000, 'the handler to wait');
      await delay(300);
      // Unchecked, the server would take all 32 MiB off the socket while the handler waits; what it
      // may take is its own stream buffers (64 KiB each on current Node versions).
      expect(serverSide!.bytesRead).to.be.lessThan(1 * MiB);
      state.letRead!();
      await sending;
      await waitFor(() => closed, 5000, 'the response');
      expect(received).to.match(/^HTTP\/1\.1 200 /);
      expect(received).to.contain(JSON.stringify({ bytes: size }));
    });
  });

  describe('unread bodies', () => {
    let agent: http.Agent;
    beforeEach(() => {
      agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    });
    afterEach(() => agent.destroy());

    it('a body the handler never read is drained: the next request reuses the connection', async () => {
      const first = await httpRequest(`${app.url}/ignore-body`, {
        method: 'POST',
        body: Buffer.alloc(200 * KiB),
        agent,
      });
      expect(first.status).to.equal(200);
      expect(first.body.toString()).to.equal('ignored');
      const second = await httpRequest(`${app.url}/methods/get-only`, { agent });
      expect(second.status).to.equal(200);
      expect(second.body.toString()).to.equal('get');
      expect(second.localPort).to.equal(first.localPort);
    });

    it('so is a chunked body the handler never read', async () => {
      const first = await chunkedPost(
        `${app.url}/ignore-body`,
        [Buffer.alloc(40 * KiB), Buffer.alloc(40 * KiB)],
        agent,
      );
      expect(first.status).to.equal(200);
      const second = await httpRequest(`${app.url}/methods/get-only`, { agent });
      expect(second.status).to.equal(200);
    });

    for (const query of ['', '?cancel=1']) {
      it(`so is a body the handler started to read and dropped${query ? ' after cancelling it' : ''}`, async () => {
        const chunks = Array.from({ length: 16 }, () => Buffer.alloc(16 * KiB));
        const first = await chunkedPost(`${app.url}/read-some${query}`, chunks, agent);
        expect(first.status).to.equal(200);
        const second = await httpRequest(`${app.url}/methods/get-only`, { agent });
        expect(second.status).to.equal(200);
        expect(second.localPort).to.equal(first.localPort);
      });
    }

    for (const via of ['text', 'stream']) {
      it(`a handler that answers first and reads the body afterwards (${via}) still gets all of it`, async () => {
        const chunks = Array.from({ length: 8 }, () => Buffer.alloc(32 * KiB, 0x61));
        const reply = await chunkedPost(`${app.url}/respond-then-read?via=${via}`, chunks, agent);
        expect(reply.status).to.equal(202);
        await waitFor(() => state.readAfterResponse !== undefined, 3000, 'the read after the response');
        expect(state.readAfterResponse).to.equal(256 * KiB);
        const next = await httpRequest(`${app.url}/methods/get-only`, { agent });
        expect(next.status).to.equal(200);
      });
    }

    it('draining is bounded in time: a body that stops arriving closes the connection', async () => {
      // Content-Length promises more than is sent; the handler answers without reading.
      const socket = net.connect(app.port, '127.0.0.1');
      let received = '';
      let closedAt = 0;
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => (closedAt = Date.now()));
      socket.write(`POST /ignore-body HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n${'a'.repeat(10)}`);
      await waitFor(() => received.includes('ignored'), 3000, 'the response');
      const answeredAt = Date.now();
      await waitFor(() => closedAt > 0, 5000, 'the server to close the connection');
      expect(closedAt - answeredAt).to.be.lessThan(4000);
    });

    it('draining is bounded in bytes: a huge unread body closes the connection instead', async () => {
      const socket = net.connect(open.port, '127.0.0.1');
      let received = '';
      let closed = false;
      let written = 0;
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => (closed = true));
      socket.write(`POST /ignore-body HTTP/1.1\r\nHost: x\r\nContent-Length: ${1024 * MiB}\r\n\r\n`);
      const chunk = Buffer.alloc(64 * KiB);
      while (!closed && written < 64 * MiB) {
        if (!socket.write(chunk))
          await Promise.race([new Promise((r) => socket.once('drain', r)), delay(50)]);
        written += chunk.length;
      }
      await waitFor(() => closed, 3000, 'the server to close the connection');
      expect(received).to.match(/^HTTP\/1\.1 200 /);
      expect(written).to.be.lessThan(64 * MiB);
    });
  });
});
