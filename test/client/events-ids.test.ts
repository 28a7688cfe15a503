/**
 * Event ids that are not Latin-1, end to end. EventSource sends the last event id UTF-8 encoded
 * (WHATWG HTML, section 9.2.3), a byte per header character; the server reads those bytes back as
 * UTF-8. Round trips through the typed client (over HTTP and through `.fetch`) and the `eventsource`
 * package; and a request the client cannot build fails the iteration rather than being retried.
 */
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { EventSource } from 'eventsource';
import express from 'express';
import { mountEndpoints, type EndpointsMiddleware } from '../../src';
import { createClient, type ClientEvent } from '../../src/client';
import { seen } from '../fixtures/events-app/app/_lib/seen';
import { httpRequest, listen, type Listening } from '../support/net';

const dir = path.join(__dirname, '../fixtures/events-app/app');

/** `text` as a browser puts it in a header: its UTF-8 bytes, a character each. */
const onTheWire = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

async function take(events: AsyncIterable<ClientEvent<unknown>>, count: number): Promise<string[]> {
  const ids: string[] = [];
  for await (const event of events) {
    ids.push(event.id);
    if (ids.length === count) break;
  }
  return ids;
}

describe('event ids beyond Latin-1', () => {
  let server: Listening;
  let endpoints: EndpointsMiddleware;
  before(async () => {
    const app = express();
    endpoints = await mountEndpoints(app, { dir });
    server = await listen(http.createServer(app));
  });
  after(() => server?.close());
  beforeEach(() => (seen.lastEventIds = []));

  it('the server reads a UTF-8 Last-Event-ID as UTF-8, and a Latin-1 one as it was sent', async () => {
    await httpRequest(`${server.url}/unicode-ids?count=1`, {
      headers: { 'last-event-id': onTheWire('café-日本-7') },
    });
    await httpRequest(`${server.url}/unicode-ids?count=1`, { headers: { 'last-event-id': 'caf\u00e9-3' } });
    expect(seen.lastEventIds).to.deep.equal(['café-日本-7', 'café-3']);
  });

  it('the typed client resumes after such an id, over HTTP and through .fetch', async () => {
    const clients = [
      createClient({ baseUrl: server.url }),
      createClient({ fetch: (request) => endpoints.fetch(request) }),
    ];
    for (const api of clients) {
      seen.lastEventIds = [];
      const events = api.events('/unicode-ids', {
        query: { count: 2 },
        reconnect: { delay: 10 },
        signal: AbortSignal.timeout(3000),
      });
      expect(await take(events, 5)).to.deep.equal(['日本-1', '日本-2', '日本-3', '日本-4', '日本-5']);
      expect(seen.lastEventIds).to.deep.equal([undefined, '日本-2', '日本-4']);
    }
  });

  it('the typed client sends the id as its UTF-8 bytes, as a browser does', async () => {
    const requests: Request[] = [];
    const api = createClient({
      fetch: async (request) => {
        requests.push(request);
        return new Response('id: 日本-1\ndata: x\n\n', { headers: { 'content-type': 'text/event-stream' } });
      },
    });
    await take(api.events('/feed', { reconnect: { delay: 1 }, signal: AbortSignal.timeout(2000) }), 2);
    expect(requests[1]!.headers.get('last-event-id')).to.equal(onTheWire('日本-1'));
  });

  it('an EventSource (the eventsource package) resumes after such an id', async () => {
    // Its fetch with the header as a browser sends it: the package hands the id to fetch() as it is,
    // which refuses a character above U+00FF.
    const source = new EventSource(`${server.url}/unicode-ids?count=2`, {
      fetch: (url, init) =>
        fetch(url, {
          ...init,
          headers: Object.fromEntries(
            Object.entries(init.headers as Record<string, string>).map(([name, value]) => [
              name,
              onTheWire(value),
            ]),
          ),
        }),
    });
    try {
      const ids = await new Promise<string[]>((resolve, reject) => {
        const got: string[] = [];
        const timer = setTimeout(() => reject(new Error(`only ${got.join(', ')}`)), 3000);
        source.addEventListener('message', (event) => {
          got.push(event.lastEventId);
          if (got.length < 4) return;
          clearTimeout(timer);
          resolve(got);
        });
      });
      expect(ids).to.deep.equal(['日本-1', '日本-2', '日本-3', '日本-4']);
      expect(seen.lastEventIds.slice(0, 2)).to.deep.equal([undefined, '日本-2']);
    } finally {
      source.close();
    }
  });

  it('a request the client cannot build fails the iteration, at once, rather than being retried', async () => {
    let attempts = 0;
    const api = createClient({
      baseUrl: server.url,
      fetch: (request) => {
        attempts++;
        return fetch(request);
      },
    });
    // A header value that is not bytes: `Headers` refuses it, which no retry can mend.
    const events = api.events('/ticks', { headers: { 'x-note': '日本' }, signal: AbortSignal.timeout(1500) });
    const thrown = await take(events, 1).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).to.be.instanceOf(TypeError);
    expect(attempts).to.equal(0);
  });
});
