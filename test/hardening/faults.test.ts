/**
 * Faults: clients that go away mid-upload or mid-download, a client too slow for the stream it
 * asked for, and an endpoint module that throws while loading. Nothing may keep running for a
 * client that is gone, memory stays bounded by backpressure, and startup errors name the file.
 */
import http from 'node:http';
import net from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { expect } from 'chai';
import supertest from 'supertest';
import { mountEndpoints, type EndpointErrorInfo } from '../../src';
import { HEAD_CHUNKS } from '../../src/dispatch';
import { resetState, state } from '../fixtures/hardening-app/app/_lib/state';
import {
  delay,
  FIXTURE_DIR,
  httpRequest,
  startServer,
  unhandledRejectionTripwire,
  waitFor,
  type TestServer,
} from './helpers';

const BROKEN_DIR = path.join(__dirname, '../fixtures/hardening-app/broken');
const BROKEN_FILE = 'test/fixtures/hardening-app/broken/throws/endpoint.ts';

describe('hardening: faults', function () {
  this.timeout(10_000);
  unhandledRejectionTripwire();

  let app: TestServer;
  before(async () => {
    app = await startServer();
  });
  after(() => app.close());
  beforeEach(() => {
    resetState();
    app.appErrors.length = 0;
  });

  /** Sends the headers and part of a body that promises more, then cuts the connection. */
  async function abortUpload(target: string): Promise<void> {
    const socket = net.connect(app.port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Length: ${1024 * 1024}\r\n\r\n`);
    socket.write(Buffer.alloc(64 * 1024));
    await delay(50);
    socket.destroy();
  }

  describe('the client aborts during the upload', () => {
    it("the handler's request.signal fires and its body read rejects", async () => {
      await abortUpload('/upload');
      await waitFor(() => state.uploadReadErrors.length === 1, 3000, 'the read to reject');
      await waitFor(() => state.uploadAborted === 1, 3000, 'request.signal to fire');
      expect(state.uploadReadErrors[0]).to.match(/aborted|closed the connection/);
      // Nothing keeps reading for a client that is gone.
      const chunks = state.uploadChunks;
      await delay(100);
      expect(state.uploadChunks).to.equal(chunks);
    });

    it("the read's rejection does not reach the app's error handler: nobody is left to answer", async () => {
      await abortUpload('/upload');
      await waitFor(() => state.uploadReadErrors.length === 1, 3000, 'the read to reject');
      expect(state.uploadReadErrors[0]).to.match(/^ClientClosedError|aborted/);
      await delay(200);
      expect(app.appErrors).to.deep.equal([]);
    });

    it('the server serves the next request', async () => {
      await abortUpload('/upload');
      const reply = await httpRequest(`${app.url}/methods/get-only`);
      expect(reply.status).to.equal(200);
    });
  });

  describe('the client aborts during the download', () => {
    it('HEAD on a stream that yields small chunks as fast as it is pulled: pulled a few times, not to 64 KiB, then cancelled', async () => {
      const reply = await httpRequest(`${app.url}/firehose?size=5`, { method: 'HEAD' });
      expect(reply.status).to.equal(200);
      expect(reply.body.length).to.equal(0);
      await waitFor(() => state.firehoseCancelled === 1, 2000, 'the stream to be cancelled');
      expect(state.firehosePulls).to.be.at.most(HEAD_CHUNKS + 2);
    });

    it('.fetch: a body read that waits on a trickling upload rejects once the caller aborts', async () => {
      const endpoints = mountEndpoints({ dir: FIXTURE_DIR, onError: () => {} });
      await endpoints.ready;
      const caller = new AbortController();
      const trickle = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(10)); // and then nothing more
        },
      });
      const answer = endpoints.fetch(
        new Request('http://localhost/upload', {
          method: 'POST',
          body: trickle,
          signal: caller.signal,
          duplex: 'half',
        } as RequestInit),
      );
      await waitFor(() => state.uploadChunks === 1, 2000, 'the first chunk');
      caller.abort();
      await waitFor(() => state.uploadReadErrors.length === 1, 2000, 'the pending read to reject');
      expect(state.uploadAborted).to.equal(1);
      expect(state.uploadReadErrors[0]).to.match(/^ClientClosedError/);
      await answer.catch(() => {});
      await endpoints.close();
    });

    for (const route of ['download', 'firehose']) {
      it(`/${route}: the Response stream is cancelled and not pulled again`, async () => {
        await new Promise<void>((resolve, reject) => {
          const req = http.get(`${app.url}/${route}`, { agent: false }, (res) => {
            let seen = 0;
            res.on('data', (chunk: Buffer) => {
              seen += chunk.length;
              if (seen > 64 * 1024) {
                req.destroy();
                resolve();
              }
            });
          });
          req.on('error', (error) => {
            if (!req.destroyed) reject(error);
          });
        });
        const cancelled = () => (route === 'download' ? state.downloadCancelled : state.firehoseCancelled);
        await waitFor(() => cancelled() === 1, 3000, 'cancel()');
        const pulls = state.firehosePulls;
        await delay(100);
        expect(state.downloadPullsAfterCancel).to.equal(0);
        expect(state.firehosePulls).to.equal(pulls);
      });
    }
  });

  describe('a slow client reading a fast endless stream', () => {
    it('backpressure holds the server to what the socket buffers hold', async () => {
      const socket = net.connect(app.port, '127.0.0.1');
      socket.on('error', () => {});
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('GET /firehose HTTP/1.1\r\nHost: x\r\n\r\n');
      await waitFor(() => state.firehosePulls > 0, 3000, 'the stream to start');
      // The client reads nothing for a second; unchecked, 64 KiB pulls would run to gigabytes.
      socket.pause();
      const rssBefore = process.memoryUsage().rss;
      await delay(1000);
      const pulledWhilePaused = state.firehosePulls;
      const rssGrowth = process.memoryUsage().rss - rssBefore;
      // Loopback socket buffers hold a few MiB; allow 32 MiB before calling it unbounded.
      expect(pulledWhilePaused * 64 * 1024).to.be.lessThan(32 * 1024 * 1024);
      expect(rssGrowth).to.be.lessThan(128 * 1024 * 1024);
      // Reading again lets the stream go on.
      socket.resume();
      socket.on('data', () => {});
      await waitFor(() => state.firehosePulls > pulledWhilePaused + 10, 3000, 'the stream to resume');
      socket.destroy();
      await waitFor(() => state.firehoseCancelled === 1, 3000, 'cancel() after the client left');
    });
  });

  describe('an endpoint module that throws at import', () => {
    it('mountEndpoints(app) rejects with an error naming the file and the cause', async () => {
      const error = await mountEndpoints(express(), { dir: BROKEN_DIR, onError: () => {} }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error).to.be.instanceOf(Error);
      expect(error!.name).to.equal('EndpointLoadError');
      expect(error!.message).to.include(BROKEN_FILE);
      expect(error!.message).to.include('boom at import');
    });

    it('the synchronous form: .ready rejects; only the broken route answers with the error', async () => {
      const reported: Array<[string, EndpointErrorInfo]> = [];
      const endpoints = mountEndpoints({
        dir: BROKEN_DIR,
        onError: (error, info) => reported.push([(error as Error).message, info]),
      });
      const seen: string[] = [];
      const server = http.createServer((req, res) =>
        endpoints(req, res, (error?: unknown) => {
          seen.push(error instanceof Error ? error.message : 'next()');
          res.statusCode = error ? 500 : 404;
          res.end(error ? 'app error' : 'app 404');
        }),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as net.AddressInfo;
        const get = async (target: string) => {
          const reply = await httpRequest(`http://127.0.0.1:${port}${target}`);
          return [reply.status, reply.body.toString()];
        };
        expect(await get('/fine')).to.deep.equal([200, 'fine']);
        expect(await get('/nothing-here')).to.deep.equal([404, 'app 404']);
        expect(await get('/throws')).to.deep.equal([500, 'app error']);
        expect(seen).to.have.length(2);
        expect(seen[0]).to.equal('next()');
        expect(seen[1]).to.include(BROKEN_FILE).and.include('boom at import');
        const error = await endpoints.ready.then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        expect(error?.message).to.include(BROKEN_FILE);
        // Told once, at startup, whatever the requests did.
        expect(reported.filter(([, info]) => info.request === undefined)).to.have.length(1);
        const [message, info] = reported[0]!;
        expect(message).to.include('boom at import');
        expect(info).to.deep.include({
          file: BROKEN_FILE,
          route: '/throws',
          export: '',
          passedToNext: false,
        });
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });

    it('mountEndpoints(app) not awaited: the failure is no unhandled rejection, and is told to onError once', async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      try {
        const app = Object.assign(() => {}, { use: () => app });
        const reported: unknown[] = [];
        void mountEndpoints(app, { dir: BROKEN_DIR, onError: (error) => reported.push(error) });
        await delay(200);
        expect(unhandled).to.deep.equal([]);
        expect(reported.map((e) => (e as Error).message)).to.have.length(1);
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
    });

    it('a request no endpoint matches goes on to the app while the modules load', async () => {
      const endpoints = mountEndpoints({ dir: BROKEN_DIR, onError: () => {} });
      let passedOn = false;
      endpoints(
        { url: '/not-an-endpoint', method: 'GET', headers: {} } as http.IncomingMessage,
        {} as http.ServerResponse,
        () => {
          passedOn = true;
        },
      );
      // Synchronously: nothing waited for the modules.
      expect(passedOn).to.equal(true);
      await endpoints.ready.catch(() => {});
    });

    it('a client that leaves while its endpoint is still loading breaks nothing', async () => {
      // An endpoint whose module takes 300 ms to load (top-level await), and one ready at once.
      const dir = mkdtempSync(path.join(tmpdir(), 'slow-load-'));
      const write = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      };
      write(
        'slow/endpoint.mjs',
        'await new Promise((r) => setTimeout(r, 300));\nlet calls = 0;\nexport const GET = () => new Response(String(++calls));\n',
      );
      const reported: unknown[] = [];
      const endpoints = mountEndpoints({ dir, onError: (error) => reported.push(error) });
      const server = http.createServer((req, res) => endpoints(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as net.AddressInfo;
        // Asks, then hangs up before the module has loaded.
        const socket = net.connect(port, '127.0.0.1', () =>
          socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n'),
        );
        socket.on('error', () => {});
        await delay(50);
        socket.destroy();
        await endpoints.ready;
        // The server still answers, the next request in full (the handler may or may not have run
        // for the request whose client left).
        const reply = await httpRequest(`http://127.0.0.1:${port}/slow`);
        expect(reply.status).to.equal(200);
        expect(reply.body.toString()).to.match(/^[12]$/);
        expect(reported).to.deep.equal([]);
      } finally {
        server.closeAllConnections();
        server.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('by default the failure is printed once at startup, naming the file and the route', async () => {
      const printed: unknown[][] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => void printed.push(args);
      try {
        const app = express();
        // The pattern of Express's own examples: the app is built at module level, not awaited.
        void mountEndpoints(app, { dir: BROKEN_DIR });
        app.get('/legacy', (_req, res) => void res.send('legacy'));
        app.use(
          (_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
            res.status(500).send('app error');
          },
        );
        const agent = supertest(app);
        expect((await agent.get('/legacy')).text).to.equal('legacy');
        expect((await agent.get('/fine')).text).to.equal('fine');
        expect((await agent.get('/throws')).status).to.equal(500);
        expect((await agent.get('/throws')).status).to.equal(500);
      } finally {
        console.error = original;
      }
      expect(printed).to.have.length(1);
      expect(String(printed[0]![0])).to.include(BROKEN_FILE).and.include('/throws');
      expect((printed[0]![1] as Error).message).to.include('boom at import');
    });
  });
});
