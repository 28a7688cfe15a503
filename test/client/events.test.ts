/**
 * The typed client's `events()` at run time: the events of a stream in order, JSON data read where the
 * stream says so; reconnecting with Last-Event-ID after the server ends the stream or the connection
 * breaks, with no event twice; 204 ends it, 502/503/504 and network errors are tried again after the
 * backoff (or Retry-After), any other answer throws; an AbortSignal or a `break` ends it and its
 * connection; the server's shutdown event is a cue to reconnect, never data.
 */
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import { mountEndpoints } from '../../src';
import {
  createClient,
  EventStreamError,
  type Client,
  type ClientEvent,
  type UntypedRegistry,
} from '../../src/client';
import { seen } from '../fixtures/events-app/app/_lib/seen';
import { listen, type Listening } from '../support/net';

const dir = path.join(__dirname, '../fixtures/events-app/app');

/** Takes events until `count` are in, then leaves the loop (which ends the iteration). */
async function take<T>(events: AsyncIterable<ClientEvent<T>>, count: number): Promise<ClientEvent<T>[]> {
  const taken: ClientEvent<T>[] = [];
  for await (const event of events) {
    taken.push(event);
    if (taken.length === count) break;
  }
  return taken;
}

/** A fetch that answers from `answers` in turn, noting each request. */
function scripted(answers: (() => Response | Promise<Response>)[]) {
  const requests: Request[] = [];
  return {
    requests,
    fetch: async (request: Request) => {
      requests.push(request);
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next();
    },
  };
}

const stream = (text: string, type = 'text/event-stream') =>
  new Response(text, { headers: { 'content-type': type } });

describe('client.events()', () => {
  let server: Listening;
  let api: Client<UntypedRegistry>;
  before(async () => {
    const app = express();
    await mountEndpoints(app, { dir });
    server = await listen(http.createServer(app));
    api = createClient({ baseUrl: server.url });
  });
  after(() => server?.close());
  beforeEach(() => (seen.lastEventIds = []));

  it('yields the events of a stream, with their type and id; text unless the stream says JSON', async () => {
    const events = await take(api.events('/ticks', { query: { count: 2, every: 1 }, reconnect: false }), 5);
    expect(events.map((e) => [e.event, e.id])).to.deep.equal([
      ['tick', '1'],
      ['tick', '2'],
    ]);
    expect(typeof events[0]!.data).to.equal('string');
    expect(JSON.parse(events[0]!.data as string)).to.include({ n: 1 });
  });

  it('parses the data of a contract’s events (data=json) as JSON', async () => {
    const events = await take(api.events('/prices', { reconnect: false }), 5);
    expect(events.map((e) => e.data)).to.deep.equal([
      { symbol: 'ACME', price: 10 },
      { symbol: 'ACME', price: 11 },
    ]);
    expect(events[1]!.event).to.equal('quote');
  });

  it('reconnects after the server ends the stream, from the last id: no event twice, none missing', async () => {
    const events = await take(
      api.events('/ticks', { query: { count: 3, every: 1, retry: 10 }, reconnect: { minDelay: 10 } }),
      7,
    );
    expect(events.map((e) => e.id)).to.deep.equal(['1', '2', '3', '4', '5', '6', '7']);
    expect(seen.lastEventIds.slice(0, 3)).to.deep.equal([undefined, '3', '6']);
  });

  it('reconnects after the connection breaks, from the last id it received', async () => {
    const events = await take(api.events('/drop', { query: { after: 2 }, reconnect: { delay: 10 } }), 6);
    expect(events.map((e) => e.id)).to.deep.equal(['1', '2', '3', '4', '5', '6']);
  });

  it('starts from lastEventId when given one', async () => {
    const events = await take(api.events('/ticks', { query: { count: 2, every: 1 }, lastEventId: '40' }), 2);
    expect(events.map((e) => e.id)).to.deep.equal(['41', '42']);
    expect(seen.lastEventIds[0]).to.equal('40');
  });

  it('ends quietly on its AbortSignal, and aborts its request', async () => {
    const controller = new AbortController();
    const events: ClientEvent<unknown>[] = [];
    for await (const event of api.events('/ticks', {
      query: { count: 1000, every: 20 },
      signal: controller.signal,
    })) {
      events.push(event);
      if (events.length === 2) controller.abort();
    }
    expect(events).to.have.length(2);

    const script = scripted([() => stream('data: a\n\ndata: b\n\n')]);
    await take(createClient({ fetch: script.fetch }).events('/feed'), 1);
    expect(script.requests[0]!.signal.aborted, 'a break aborts it too').to.equal(true);
  });

  it('sends Accept: text/event-stream, the client’s headers, and Last-Event-ID on a reconnection', async () => {
    const script = scripted([() => stream('id: 5\ndata: a\n\n'), () => stream('data: b\n\n')]);
    const client = createClient({ fetch: script.fetch, headers: { authorization: 'Bearer t' } });
    const events = await take(client.events('/feed', { reconnect: { delay: 1 } }), 2);
    expect(events.map((e) => [e.data, e.id])).to.deep.equal([
      ['a', '5'],
      ['b', '5'],
    ]);
    const [first, second] = script.requests;
    expect(first!.headers.get('accept')).to.equal('text/event-stream');
    expect(first!.headers.get('authorization')).to.equal('Bearer t');
    expect(first!.headers.has('last-event-id')).to.equal(false);
    expect(second!.headers.get('last-event-id')).to.equal('5');
  });

  it('tries 503 (with Retry-After) and network errors again, and ends on 204', async () => {
    const script = scripted([
      () => new Response('shutting down', { status: 503, headers: { 'retry-after': '0' } }),
      () => Promise.reject(new TypeError('fetch failed')),
      () => stream('data: at last\n\n'),
      () => new Response(null, { status: 204 }),
    ]);
    const client = createClient({ fetch: script.fetch });
    const events = await take(client.events('/feed', { reconnect: { delay: 1 } }), 10);
    expect(events.map((e) => e.data)).to.deep.equal(['at last']);
    expect(script.requests).to.have.length(4);
  });

  it('throws an EventStreamError for an answer that is not an event stream', async () => {
    for (const answer of [
      () => new Response('no such feed', { status: 404 }),
      () => Response.json({ not: 'a stream' }),
    ]) {
      const client = createClient({ fetch: scripted([answer]).fetch });
      let thrown: unknown;
      try {
        await take(client.events('/feed'), 1);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).to.be.instanceOf(EventStreamError);
      expect((thrown as EventStreamError).status).to.be.oneOf([404, 200]);
    }
  });

  it('skips the server’s shutdown event, and reconnects after it', async () => {
    const script = scripted([
      () => stream('id: 1\ndata: one\n\nevent: shutdown\ndata: \n\n'),
      () => stream('id: 2\ndata: two\n\n'),
    ]);
    const client = createClient({ fetch: script.fetch });
    const events = await take(client.events('/feed', { reconnect: { delay: 1 } }), 2);
    expect(events.map((e) => e.data)).to.deep.equal(['one', 'two']);
    expect(script.requests[1]!.headers.get('last-event-id')).to.equal('1');
  });

  it('skips it in a stream of JSON data too, whose data it could not parse', async () => {
    const json = 'text/event-stream; charset=utf-8; data=json';
    const script = scripted([() => stream('data: {"n":1}\n\nevent: shutdown\ndata: \n\n', json)]);
    const events = await take(createClient({ fetch: script.fetch }).events('/feed', { reconnect: false }), 5);
    expect(events.map((e) => e.data)).to.deep.equal([{ n: 1 }]);
  });

  it('with reconnect: false, ends with the stream, and a broken connection throws', async () => {
    const script = scripted([() => stream('data: only\n\n')]);
    const events = await take(createClient({ fetch: script.fetch }).events('/feed', { reconnect: false }), 5);
    expect(events.map((e) => e.data)).to.deep.equal(['only']);
    expect(script.requests).to.have.length(1);

    let pulls = 0;
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(new TextEncoder().encode('data: before\n\n'));
        else controller.error(new TypeError('terminated'));
      },
    });
    const failing = scripted([
      () => new Response(broken, { headers: { 'content-type': 'text/event-stream' } }),
    ]);
    const seenData: unknown[] = [];
    let thrown: unknown;
    try {
      for await (const event of createClient({ fetch: failing.fetch }).events('/feed', {
        reconnect: false,
      })) {
        seenData.push(event.data);
      }
    } catch (error) {
      thrown = error;
    }
    expect(seenData).to.deep.equal(['before']);
    expect((thrown as Error).message).to.equal('terminated');
  });

  it('waits longer after each attempt that brought nothing, up to maxDelay', async () => {
    const failures = Array.from({ length: 4 }, () => () => Promise.reject(new TypeError('fetch failed')));
    const script = scripted([...failures, () => stream('data: up\n\n')]);
    const started = performance.now();
    await take(
      createClient({ fetch: script.fetch }).events('/feed', { reconnect: { delay: 20, maxDelay: 60 } }),
      1,
    );
    const waited = performance.now() - started;
    // 20, 40, 60, 60 ms, each jittered to between half and all of it: 90 to 180 ms.
    expect(waited).to.be.within(85, 400);
  });
});
