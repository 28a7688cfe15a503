/**
 * Event streams through every host, with compression() in front (the middleware most Express apps
 * have): each event reaches the client when it is sent, not when a compression buffer fills; the
 * handler gets the client's Last-Event-ID; and a real EventSource client (the `eventsource`
 * package) that loses its connection, cleanly or not, resumes after the last event it received,
 * with no event twice and none missing.
 */
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { EventSource } from 'eventsource';
import { createTestRequest } from '../../src/testing';
import { mountEndpoints, type EndpointErrorInfo } from '../../src';
import { hosts, type RunningHost } from '../integration/hosts';
import { seen } from '../fixtures/events-app/app/_lib/seen';
import { httpRequest } from '../support/net';
import { parseEventStream, readChunks } from './support';

const dir = path.join(__dirname, '../fixtures/events-app/app');

interface Arrival {
  text: string;
  /** Date.now() when its blank line arrived: the server is in this process, so its clock is ours. */
  at: number;
}

/** GET `url`, decoding gzip as it comes; each event with when it arrived, and the response's headers. */
function readArrivals(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: http.IncomingHttpHeaders; events: Arrival[] }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      const events: Arrival[] = [];
      const decoded = res.headers['content-encoding'] === 'gzip' ? res.pipe(zlib.createGunzip()) : res;
      let text = '';
      decoded.setEncoding('utf8');
      decoded.on('data', (chunk: string) => {
        text += chunk;
        let end: number;
        while ((end = text.indexOf('\n\n')) !== -1) {
          events.push({ text: text.slice(0, end + 2), at: Date.now() });
          text = text.slice(end + 2);
        }
      });
      decoded.on('end', () => resolve({ headers: res.headers, events }));
      decoded.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** GET `url` to its end, or to a broken connection: its status and text, and which it was. */
function readBroken(url: string): Promise<{ status: number | undefined; text: string; broken: boolean }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const decoded = res.headers['content-encoding'] === 'gzip' ? res.pipe(zlib.createGunzip()) : res;
        let text = '';
        decoded.setEncoding('utf8');
        decoded.on('data', (chunk: string) => (text += chunk));
        decoded.on('end', () => resolve({ status: res.statusCode, text, broken: false }));
        res.on('error', () => resolve({ status: res.statusCode, text, broken: true }));
      })
      .on('error', reject);
  });
}

/** Events from an EventSource until `count` have arrived. */
function collect(source: EventSource, type: string, count: number): Promise<{ id: string; data: string }[]> {
  return new Promise((resolve, reject) => {
    const events: { id: string; data: string }[] = [];
    const errors: string[] = [];
    source.addEventListener('error', (event) => errors.push(`${event.code ?? ''} ${event.message ?? ''}`));
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `only ${events.length} of ${count} events; readyState ${source.readyState}; errors: ${errors.join(', ')}`,
          ),
        ),
      5000,
    );
    source.addEventListener(type, (event) => {
      events.push({ id: event.lastEventId, data: event.data as string });
      if (events.length === count) {
        clearTimeout(timer);
        resolve(events);
      }
    });
  });
}

describe('event streams through every host', () => {
  for (const host of hosts) {
    describe(host.name, () => {
      let compressed: RunningHost;
      const reported: { error: unknown; info: EndpointErrorInfo }[] = [];
      before(async () => {
        compressed = await host.start({
          dir,
          compression: true,
          onError: (error, info) => void reported.push({ error, info }),
        });
      });
      after(() => compressed?.close());
      beforeEach(() => (seen.lastEventIds = []));

      it('behind compression(), each event arrives compressed as it is sent', async () => {
        const { headers, events } = await readArrivals(`${compressed.url}/ticks?count=3&every=150`, {
          'accept-encoding': 'gzip',
        });
        expect(headers['content-encoding']).to.equal('gzip');
        expect(headers['content-type']).to.equal('text/event-stream; charset=utf-8');
        const ticks = events.map((e) => parseEventStream(e.text).events[0]!);
        expect(ticks.map((tick) => tick.id)).to.deep.equal(['1', '2', '3']);
        // Each arrived before the next was even sent (the handler stamps each event with when it
        // sent it): a compression buffer that held them would let them out together at the end.
        const sentAt = ticks.map((tick) => (JSON.parse(tick.data) as { at: number }).at);
        expect(events[0]!.at).to.be.at.most(sentAt[1]!);
        expect(events[1]!.at).to.be.at.most(sentAt[2]!);
      });

      it('an event stream written by hand arrives as it is sent, behind compression() too', async () => {
        const { events } = await readArrivals(`${compressed.url}/by-hand`, { 'accept-encoding': 'gzip' });
        expect(events.map((e) => e.text)).to.deep.equal(['data: 1\n\n', 'data: 2\n\n']);
        // The handler sends the second 200 ms after the first: held in a buffer, they would arrive together.
        expect(events[1]!.at - events[0]!.at).to.be.greaterThan(100);
      });

      it('a run that throws: the events it sent, then a broken connection, and onError told', async () => {
        reported.length = 0;
        const received = await new Promise<{ text: string; broken: boolean }>((resolve, reject) => {
          http
            .get(`${compressed.url}/fails`, { agent: false }, (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => (text += chunk));
              res.on('end', () => resolve({ text, broken: false }));
              res.on('error', () => resolve({ text, broken: true }));
            })
            .on('error', reject);
        });
        expect(received.broken).to.equal(true);
        expect(parseEventStream(received.text).events.map((e) => e.id)).to.deep.equal(['1', '2']);
        expect(reported.map((r) => (r.error as Error).message)).to.deep.equal(['the feed broke']);
        expect(reported[0]!.info).to.deep.include({ route: '/fails', export: 'GET', passedToNext: false });

        // Before anything went out, it fails as any handler would: the app's error answer.
        reported.length = 0;
        const atOnce = await httpRequest(`${compressed.url}/fails?at-once`);
        expect(atOnce.status).to.equal(500);
        expect(reported.map((r) => (r.error as Error).message)).to.deep.equal(['the feed broke at once']);
      });

      it('a run that throws right after send() resolved: the client has that event, then a broken connection', async () => {
        reported.length = 0;
        const received = await readBroken(`${compressed.url}/fails-after-send`);
        expect(received.status).to.equal(200);
        expect(received.broken).to.equal(true);
        expect(parseEventStream(received.text).events).to.deep.equal([
          { event: 'message', id: '1', data: 'taken' },
        ]);
        expect(reported.map((r) => (r.error as Error).message)).to.deep.equal(['broke right after an event']);

        // Before any event, the stream's own `retry:` line does not make it a started one.
        reported.length = 0;
        const atOnce = await httpRequest(`${compressed.url}/fails-after-send?at-once`);
        expect(atOnce.status).to.equal(500);
        expect(reported.map((r) => (r.error as Error).message)).to.deep.equal(['broke before any event']);
      });

      it('hands the handler the Last-Event-ID the client sent', async () => {
        const { events } = await readArrivals(`${compressed.url}/ticks?count=2&every=1`, {
          'last-event-id': '41',
        });
        expect(seen.lastEventIds).to.deep.equal(['41']);
        expect(events.map((e) => parseEventStream(e.text).events[0]!.id)).to.deep.equal(['42', '43']);
      });

      it('an EventSource that the server ends resumes after the last event, none twice', async () => {
        const source = new EventSource(`${compressed.url}/ticks?count=3&every=5&retry=20`);
        try {
          const events = await collect(source, 'tick', 8);
          expect(events.map((e) => e.id)).to.deep.equal(['1', '2', '3', '4', '5', '6', '7', '8']);
          expect(events.map((e) => (JSON.parse(e.data) as { n: number }).n)).to.deep.equal([
            1, 2, 3, 4, 5, 6, 7, 8,
          ]);
          expect(seen.lastEventIds.slice(0, 3)).to.deep.equal([undefined, '3', '6']);
        } finally {
          source.close();
        }
      });

      it('an EventSource whose connection breaks resumes after the last event, none twice', async () => {
        const source = new EventSource(`${compressed.url}/drop?after=2`);
        try {
          const events = await collect(source, 'message', 6);
          expect(events.map((e) => e.id)).to.deep.equal(['1', '2', '3', '4', '5', '6']);
          // It reconnected, each time asking to resume after the last event it had: events the broken
          // connection lost in flight were sent again, and arrived once.
          expect(seen.lastEventIds.length).to.be.greaterThan(1);
          expect(seen.lastEventIds[0]).to.equal(undefined);
        } finally {
          source.close();
        }
      });
    });
  }

  describe('.fetch', () => {
    it('a run that throws: after events, the body breaks and onError is told; before any, a 500', async () => {
      const reported: { error: unknown; info: EndpointErrorInfo }[] = [];
      const endpoints = mountEndpoints({
        dir,
        onError: (error, info) => void reported.push({ error, info }),
      });
      try {
        for (const [path, events, message] of [
          ['/fails', ['1', '2'], 'the feed broke'],
          ['/fails-after-send', ['1'], 'broke right after an event'],
        ] as const) {
          reported.length = 0;
          const response = await endpoints.fetch(createTestRequest(path));
          expect(response.status).to.equal(200);
          let text = '';
          const failure = await readChunks(response.body!, (chunk) => void (text += chunk)).then(
            () => undefined,
            (error: unknown) => error,
          );
          expect((failure as Error).message).to.equal(message);
          expect(parseEventStream(text).events.map((e) => e.id)).to.deep.equal(events);
          await new Promise((resolve) => setImmediate(resolve));
          expect(reported.map((r) => (r.error as Error).message)).to.deep.equal([message]);
          expect(reported[0]!.info).to.deep.include({ export: 'GET', passedToNext: false });
        }

        for (const [path, message] of [
          ['/fails?at-once', 'the feed broke at once'],
          ['/fails-after-send?at-once', 'broke before any event'],
        ] as const) {
          reported.length = 0;
          const response = await endpoints.fetch(createTestRequest(path));
          expect(response.status).to.equal(500);
          await response.text();
          expect(reported.map((r) => (r.error as Error).message)).to.deep.equal([message]);
        }
      } finally {
        await endpoints.close();
      }
    });

    it('streams the events, with the Last-Event-ID handed over', async () => {
      seen.lastEventIds = [];
      const endpoints = mountEndpoints({ dir });
      const response = await endpoints.fetch(
        createTestRequest('/ticks?count=2&every=1', { headers: { 'last-event-id': '9' } }),
      );
      const { events } = parseEventStream(await response.text());
      expect(events.map((e) => e.id)).to.deep.equal(['10', '11']);
      expect(seen.lastEventIds).to.deep.equal(['9']);
    });
  });
});
