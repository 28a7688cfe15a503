/**
 * Whenever a response can no longer be written — the client left before its
 * head, while it was being sent, or mid-body — its body stream is cancelled exactly once and the
 * request's signal is aborted, so an event stream's timer and queue do not live on. From
 * endpoints and from bridged middleware, on every host; under `npm run test:runtimes`, from
 * endpoints served by Bun and Deno.
 */
import net from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { bridgeMiddleware } from '../../src';
import type { WebMiddleware } from '../../src/types';
import { eventStream, watchStream } from '../fixtures/hardening-app/app/_lib/framing';
import { state, type StreamRecord } from '../fixtures/hardening-app/app/_lib/state';
import { hosts, serverHosts, type RunningHost } from '../integration/hosts';
import { bridgeHosts } from './bridge-hosts';
import { delay, FIXTURE_DIR, httpRequest, unhandledRejectionTripwire, waitFor } from './helpers';

const CLIENTS = 50;

let nextId = 0;

/**
 * Sends `GET <path>id=<id>` and leaves: once the handler has started (`afterStart`), or once
 * the first bytes of the body came (`afterBody`), or right after sending.
 */
async function leave(port: number, path: string, when: 'afterStart' | 'afterBody' | 'atOnce') {
  const id = `c${nextId++}`;
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.write(`GET ${path}id=${id} HTTP/1.1\r\nHost: x\r\n\r\n`);
  if (when === 'afterStart') await waitFor(() => state.streams[id] !== undefined, 3000, 'the handler');
  if (when === 'afterBody') await waitFor(() => received.includes('retry:'), 3000, 'the first event');
  socket.destroy();
  return id;
}

/** Every request reached its handler, every stream is cancelled exactly once, every signal aborted. */
async function expectAllCancelled(ids: string[]) {
  const records = () => ids.map((id) => state.streams[id]).filter((r): r is StreamRecord => r !== undefined);
  const settled = () =>
    records().length === ids.length && records().every((r) => r.aborted && r.cancelled > 0);
  // Then time for a second cancel() to show, were there one; what is missing shows below.
  await waitFor(settled, 5000).catch(() => {});
  await delay(50);
  expect(
    records().filter((r) => r.returned),
    'streams returned',
  ).to.have.length(ids.length);
  expect(
    records().filter((r) => !r.aborted),
    'requests whose signal did not abort',
  ).to.deep.equal([]);
  expect(
    records().map((r) => r.cancelled),
    'cancel() calls per stream',
  ).to.deep.equal(ids.map(() => 1));
}

function describeLeaving(start: () => Promise<{ port: number; close(): Promise<void> }>, base: string) {
  let server: { port: number; close(): Promise<void> };
  before(async () => {
    server = await start();
  });
  after(() => server.close());

  it(`${CLIENTS} clients gone before an awaited event stream starts: each cancelled once`, async () => {
    const ids = await Promise.all(
      Array.from({ length: CLIENTS }, () => leave(server.port, `${base}?wait=50&`, 'afterStart')),
    );
    await expectAllCancelled(ids);
  });

  it(`${CLIENTS} clients gone as soon as they asked: each cancelled once`, async () => {
    const ids = await Promise.all(
      Array.from({ length: CLIENTS }, () => leave(server.port, `${base}?wait=0&`, 'atOnce')),
    );
    await expectAllCancelled(ids);
  });

  it(`${CLIENTS} clients gone mid-body: each cancelled once`, async () => {
    const ids = await Promise.all(
      Array.from({ length: CLIENTS }, () => leave(server.port, `${base}?wait=0&`, 'afterBody')),
    );
    await expectAllCancelled(ids);
  });
}

describe('hardening: clients that leave', function () {
  this.timeout(15_000);
  unhandledRejectionTripwire();
  afterEach(() => {
    state.streams = {};
  });

  for (const host of serverHosts) {
    describe(`endpoints on ${host.name}`, () => {
      describeLeaving(async () => {
        const served = await host.start({ dir: FIXTURE_DIR });
        return { port: Number(new URL(served.url).port), close: () => served.close() };
      }, '/late-stream');
    });
  }
  // bridgeMiddleware is for Node apps: Bun and Deno (`npm run test:runtimes`) have none.
  if (process.env.TEST_HOSTS === 'runtimes') return;

  // The same event stream, answered by a bridged middleware in front of the app.
  const lateStream: WebMiddleware = async (req, next) => {
    const url = new URL(req.url);
    if (url.pathname !== '/late-stream') return next();
    const record = watchStream(state.streams, url.searchParams.get('id') ?? '', req.signal);
    await delay(Number(url.searchParams.get('wait') ?? 0));
    record.returned = true;
    return new Response(eventStream(record), { headers: { 'content-type': 'text/event-stream' } });
  };
  for (const host of bridgeHosts) {
    describe(`bridgeMiddleware on ${host.name}`, () => {
      describeLeaving(() => host.start([{ use: bridgeMiddleware(lateStream) }]), '/late-stream');
    });
  }
});

describe('hardening: a client that leaves once its body is sent', function () {
  this.timeout(10_000);
  unhandledRejectionTripwire();
  if (process.env.TEST_HOSTS === 'runtimes') return;

  /** Sends the whole request, then closes the connection at once, as a webhook sender or a beacon may. */
  function sendAndLeave(port: number, path: string, type: string, body: string): void {
    const socket = net.connect(port, '127.0.0.1', () => {
      const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
      socket.end(head + body, () => socket.destroy());
    });
    socket.on('error', () => {});
  }

  for (const host of hosts) {
    describe(`endpoints on ${host.name}`, () => {
      let served: RunningHost;
      before(async () => {
        served = await host.start({ dir: FIXTURE_DIR, onError: () => {} });
      });
      after(() => served.close());
      beforeEach(() => void (state.readAfterLeave = undefined));

      const cases: [string, string, string, string][] = [
        ['text', 'text/plain', 'the whole body, é', 'the whole body, é'],
        ['bytes', 'application/octet-stream', 'x'.repeat(100_000), '100000'],
        ['form', 'application/x-www-form-urlencoded', 'a=1&b=two', '[["a","1"],["b","two"]]'],
      ];
      for (const [as, type, body, expected] of cases) {
        it(`the body (${as}, ${body.length} bytes) is still read whole after the client left`, async () => {
          sendAndLeave(served.port, `/read-after-leave?as=${as}`, type, body);
          await waitFor(() => state.readAfterLeave !== undefined, 3000, 'the handler to read');
          expect(state.readAfterLeave).to.equal(expected);
        });
      }

      it('a body cut short by the client leaving still rejects', async () => {
        const socket = net.connect(served.port, '127.0.0.1', () => {
          socket.end(
            'POST /read-after-leave HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part',
            () => socket.destroy(),
          );
        });
        socket.on('error', () => {});
        await waitFor(() => state.readAfterLeave !== undefined, 3000, 'the handler to read');
        expect(state.readAfterLeave).to.equal('rejected: ClientClosedError');
      });
    });
  }
});

describe('hardening: a handler that never settles, whose client left', function () {
  this.timeout(20_000);
  if (process.env.TEST_HOSTS === 'runtimes') return;
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;

  for (const host of hosts) {
    it(`its Request can be collected (${host.name})`, async () => {
      const served = await host.start({ dir: FIXTURE_DIR, onError: () => {} });
      try {
        state.neverSettling = [];
        for (let i = 0; i < 5; i++) {
          const socket = net.connect(served.port, '127.0.0.1', () =>
            socket.write('GET /never-settles HTTP/1.1\r\nHost: x\r\n\r\n'),
          );
          socket.on('error', () => {});
          await waitFor(() => state.neverSettling.length === i + 1, 3000, 'the handler to run');
          socket.destroy();
        }
        await delay(50);
        // Each request the tree serves looks at one listed request: a few ordinary ones pass over all.
        for (let i = 0; i < 3; i++) await httpRequest(`${served.url}/methods/get-only`);
        for (let pass = 0; pass < 6; pass++) {
          gc();
          await new Promise((resolve) => setImmediate(resolve));
        }
        const alive = state.neverSettling.filter((ref) => ref.deref() !== undefined).length;
        expect(alive, `${alive} of 5 Requests still reachable`).to.equal(0);
      } finally {
        await served.close();
      }
    });
  }
});
