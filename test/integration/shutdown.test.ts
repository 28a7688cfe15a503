/**
 * `endpoints.close({ timeout })` on every host and under `.fetch`: new requests for the tree are
 * refused with 503 (and Connection: close) while the app's own routes go on; requests in flight
 * finish with their whole body and their `after()` callbacks run before it resolves; open event
 * streams get their final event; what still runs past the timeout is aborted with a ShutdownError,
 * which handlers can tell from a client leaving.
 */
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { mountEndpoints, ShutdownError, type Backplane } from '../../src';
import { createTestRequest } from '../../src/testing';
import { log, sleep } from '../fixtures/shutdown-app/app/_lib/log';
import { parseEventStream } from '../event-stream/support';
import { httpRequest } from '../support/net';
import { hosts, type RunningHost } from './hosts';

const dir = path.join(__dirname, '../fixtures/shutdown-app/app');

/** Reads an event stream until it ends, or fails on a broken connection. */
function readStream(url: string): { text: Promise<string>; firstEvent: Promise<void> } {
  let seeFirst!: () => void;
  const firstEvent = new Promise<void>((resolve) => (seeFirst = resolve));
  const text = new Promise<string>((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          if (body.includes('\n\n')) seeFirst();
        });
        res.on('end', () => resolve(body));
        res.on('error', reject);
      })
      .on('error', reject);
  });
  return { text, firstEvent };
}

function resetLog(): void {
  log.afterCallbacks = 0;
  log.aborts = [];
  log.streamEnds = [];
}

describe('endpoints.close({ timeout })', () => {
  beforeEach(resetLog);

  for (const host of hosts) {
    describe(host.name, () => {
      let running: RunningHost;
      const reported: unknown[] = [];
      beforeEach(async () => {
        reported.length = 0;
        running = await host.start({ dir, onError: (error) => void reported.push(error) });
      });
      afterEach(() => running?.close());

      it('refuses new requests for the tree with 503 and Connection: close; the app’s routes go on', async () => {
        await running.endpoints.close();
        const refused = await httpRequest(`${running.url}/slow?ms=0`);
        expect(refused.status).to.equal(503);
        expect(refused.headers.connection).to.equal('close');
        expect(refused.body.toString()).to.match(/shutting down/);
        expect((await httpRequest(`${running.url}/contact`)).status).to.equal(200);
      });

      it('waits for the requests in flight, whole bodies sent, and their after() callbacks', async () => {
        const inFlight = Array.from({ length: 5 }, () => httpRequest(`${running.url}/slow?ms=120&kib=64`));
        await sleep(50);
        const closing = running.endpoints.close({ timeout: 5000 });
        const late = await httpRequest(`${running.url}/slow?ms=0`);
        expect(late.status).to.equal(503);
        await closing;
        expect(log.afterCallbacks).to.equal(5);
        for (const reply of await Promise.all(inFlight)) {
          expect(reply.status).to.equal(200);
          expect(reply.body.length).to.equal(64 * 1024);
          // Answered while closing: its connection goes with it, not back to a keep-alive pool.
          expect(reply.headers.connection).to.equal('close');
        }
        expect(reported).to.deep.equal([]);
      });

      it('ends open event streams with their final event', async () => {
        const streams = [readStream(`${running.url}/feed`), readStream(`${running.url}/feed`)];
        await Promise.all(streams.map((s) => s.firstEvent));
        await running.endpoints.close({ timeout: 5000 });
        for (const stream of streams) {
          const { events } = parseEventStream(await stream.text);
          expect(events.at(-1)).to.deep.equal({ event: 'shutdown', data: '', id: undefined });
          expect(events.length).to.be.greaterThan(1);
        }
        expect(log.streamEnds).to.deep.equal(['ShutdownError', 'ShutdownError']);
      });

      it('past the timeout, aborts what still runs with a ShutdownError, not as a client leaving', async () => {
        const stuck = httpRequest(`${running.url}/stuck`).then(
          () => 'answered',
          (error: NodeJS.ErrnoException) => error.code,
        );
        await sleep(50);
        const started = performance.now();
        await running.endpoints.close({ timeout: 100 });
        expect(performance.now() - started).to.be.within(95, 600);
        expect(await stuck).to.equal('ECONNRESET');
        expect(log.aborts).to.have.length(1);
        expect(log.aborts[0]!.name).to.equal('ShutdownError');
        expect(log.aborts[0]!.message).to.match(/stopped waiting for this request after 100 ms/);
        // Neither the abort nor the handler rethrowing it is an error of the app.
        await sleep(20);
        expect(reported).to.deep.equal([]);
      });
    });
  }

  describe('.fetch', () => {
    it('refuses with 503 once closed, after the requests in flight and their after() callbacks', async () => {
      const endpoints = mountEndpoints({ dir });
      await endpoints.ready;
      const inFlight = Array.from({ length: 3 }, () =>
        endpoints.fetch(createTestRequest('/slow?ms=60&kib=1')).then((r) => r.text()),
      );
      await sleep(30);
      await endpoints.close({ timeout: 5000 });
      expect(log.afterCallbacks).to.equal(3);
      expect((await Promise.all(inFlight)).map((body) => body.length)).to.deep.equal([1024, 1024, 1024]);
      const refused = await endpoints.fetch(createTestRequest('/slow?ms=0'));
      expect(refused.status).to.equal(503);
    });

    it('past the timeout, aborts the handler’s signal with a ShutdownError', async () => {
      const endpoints = mountEndpoints({ dir, onError: () => {} });
      await endpoints.ready;
      const answer = endpoints.fetch(createTestRequest('/stuck'));
      await sleep(30);
      await endpoints.close({ timeout: 50 });
      expect(log.aborts.map((abort) => abort.name)).to.deep.equal(['ShutdownError']);
      expect((await answer).status).to.equal(500);
    });

    for (const timeout of [Infinity, 2 ** 31, 2 ** 40]) {
      it(`close({ timeout: ${timeout} }) waits for the request in flight, aborting nothing`, async () => {
        const endpoints = mountEndpoints({ dir, onError: () => {} });
        await endpoints.ready;
        const caller = new AbortController();
        const answer = endpoints.fetch(new Request('http://localhost/stuck', { signal: caller.signal }));
        await sleep(20);
        let closed = false;
        const closing = endpoints.close({ timeout }).then(() => void (closed = true));
        await sleep(300);
        expect(closed, 'still waiting').to.equal(false);
        expect(log.aborts).to.deep.equal([]);
        // The caller gives up: the request ends, and so does the wait.
        caller.abort();
        await closing;
        expect(log.aborts.map((abort) => abort.name)).to.not.include('ShutdownError');
        await answer.catch(() => {});
      });
    }

    it('close({ timeout }) that is not a number of milliseconds is refused, and close() then works', async () => {
      const endpoints = mountEndpoints({ dir });
      await endpoints.ready;
      for (const timeout of [NaN, -1, '100' as unknown as number]) {
        let caught: unknown;
        await endpoints.close({ timeout }).catch((error: unknown) => (caught = error));
        expect(caught).to.be.instanceOf(TypeError);
      }
      await endpoints.close();
      expect((await endpoints.fetch(createTestRequest('/slow?ms=0'))).status).to.equal(503);
    });

    it('close() twice returns one promise, which waits for the backplane to disconnect', async () => {
      let disconnected = false;
      const backplane: Backplane = {
        name: 'slow-to-close',
        start: (link) => link.status('up'),
        subscribe() {},
        unsubscribe() {},
        publish() {},
        close: () => sleep(100).then(() => void (disconnected = true)),
      };
      const endpoints = mountEndpoints({ dir, topics: { backplane } });
      await endpoints.ready;
      const first = endpoints.close();
      const second = endpoints.close({ timeout: 1 });
      expect(second).to.equal(first);
      await second;
      expect(disconnected).to.equal(true);
    });

    it('ends an open event stream with its final event, and waits for the reader to take it', async () => {
      const endpoints = mountEndpoints({ dir });
      const response = await endpoints.fetch(createTestRequest('/feed'));
      const closed = endpoints.close({ timeout: 5000 });
      const { events } = parseEventStream(await response.text());
      await closed;
      expect(events.at(-1)).to.deep.equal({ event: 'shutdown', data: '', id: undefined });
    });
  });

  it('exports ShutdownError, named so it can be told apart without instanceof', () => {
    const error = new ShutdownError();
    expect(error.name).to.equal('ShutdownError');
    expect(error).to.be.instanceOf(Error);
  });
});
