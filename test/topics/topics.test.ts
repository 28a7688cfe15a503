/**
 * Topics in one process: sockets subscribe, unsubscribe and publish (to everyone but themselves),
 * a POST handler publishes with `context.publish` and the mount with `endpoints.publish`, and a
 * streamed response (`context.subscribe(…).toEventStream()`) hears the same publications as the
 * sockets. Unsubscribed on close, always; a stream whose client left is unsubscribed too.
 */
import http from 'node:http';
import path from 'node:path';
import { subscribe as subscribeChannel, unsubscribe as unsubscribeChannel } from 'node:diagnostics_channel';
import { expect } from 'chai';
import { mountEndpoints, type EndpointsMiddleware, type MountOptions } from '../../src';
import { listen, type Listening } from '../support/net';
import { eventClient, publishOver, socketClient, until } from './clients';

const dir = path.join(__dirname, '../fixtures/topics-app');

describe('topics in one process', () => {
  let endpoints: EndpointsMiddleware;
  let server: Listening;
  let base: string;
  let wsBase: string;

  const start = async (options: MountOptions = {}) => {
    endpoints = mountEndpoints({ dir, ...options });
    await endpoints.ready;
    const node = http.createServer(endpoints);
    endpoints.attach(node);
    server = await listen(node);
    base = server.url;
    wsBase = base.replace('http', 'ws');
  };

  afterEach(async () => {
    await server?.close();
    await endpoints?.close();
  });

  it('a socket hears the topics it subscribed to, and a publish from a socket reaches the others', async () => {
    await start();
    const a = await socketClient(`${wsBase}/ws`);
    const b = await socketClient(`${wsBase}/ws`);
    const c = await socketClient(`${wsBase}/ws`);
    await a.command('join news');
    await b.command('join news');
    await c.command('join sport');
    await a.command('publish news one');
    await b.waitFor(1);
    expect(b.received).to.deep.equal(['one']);
    expect(a.received, 'not the sender').to.deep.equal([]);
    expect(c.received, 'another topic').to.deep.equal([]);
    expect(await a.command('subscriptions')).to.deep.include({ topics: ['news'], has: { news: true } });
    await b.command('leave news');
    await a.command('publish news two');
    endpoints.publish('news', 'three');
    await a.waitFor(1);
    expect(a.received).to.deep.equal(['three']);
    expect(b.received, 'nothing after leaving').to.deep.equal(['one']);
  });

  it('a POST handler publishes with context.publish: text, bytes and JSON, in order', async () => {
    await start();
    const socket = await socketClient(`${wsBase}/ws?topic=feed`);
    const events = await eventClient(`${base}/events?topic=feed`);
    await publishOver(base, 'feed', 'plain');
    await publishOver(base, 'feed', '{"n":1}', 'application/json');
    await publishOver(base, 'feed', '\u0001\u0002', 'application/octet-stream');
    expect(await socket.waitFor(3)).to.deep.equal(['plain', '{"n":1}', 'bytes:0102']);
    expect(await events.waitFor(3)).to.deep.equal(['feed plain', 'feed {"n":1}', 'feed \u0001\u0002']);
    events.close();
  });

  it('a stream subscribed to several topics hears each, and data with line breaks stays whole', async () => {
    await start();
    const events = await eventClient(`${base}/events?topic=a&topic=b`);
    endpoints.publish('a', 'first\nsecond');
    endpoints.publish('c', 'not subscribed');
    endpoints.publish('b', { json: true });
    expect(await events.waitFor(2)).to.deep.equal(['a first\nsecond', 'b {"json":true}']);
    events.close();
  });

  it('unsubscribes a socket when it closes, and a stream when its client leaves', async () => {
    await start();
    const socket = await socketClient(`${wsBase}/ws?topic=t`);
    const events = await eventClient(`${base}/events?topic=t`);
    endpoints.publish('t', 'x');
    await socket.waitFor(1);
    await events.waitFor(1);
    expect(endpoints.topicStats().delivered).to.equal(2);
    socket.close();
    events.close();
    await socket.closed;
    await events.ended;
    // The server hears of the stream's client leaving a little later.
    await until(() => {
      const before = endpoints.topicStats().delivered;
      endpoints.publish('t', 'y');
      return endpoints.topicStats().delivered === before;
    });
  });

  it('endpoints.subscribe: an async iterator of the publications, ended by its signal', async () => {
    await start();
    const controller = new AbortController();
    const subscription = endpoints.subscribe(['x', 'y'], { signal: controller.signal });
    endpoints.publish('x', 'one');
    endpoints.publish('y', new Uint8Array([1, 2]));
    endpoints.publish('x', [1, 2]);
    const seen: unknown[] = [];
    for await (const message of subscription) {
      seen.push([message.topic, message.data instanceof Uint8Array ? [...message.data] : message.data]);
      if (seen.length === 3) controller.abort();
    }
    expect(seen).to.deep.equal([
      ['x', 'one'],
      ['y', [1, 2]],
      ['x', '[1,2]'],
    ]);
    endpoints.publish('x', 'after');
    expect(await subscription.next()).to.deep.equal({ value: undefined, done: true });
  });

  it('a publication is copied: changing the bytes afterwards changes nothing', async () => {
    await start();
    const subscription = endpoints.subscribe('bytes');
    const bytes = new Uint8Array([1, 2, 3]);
    endpoints.publish('bytes', bytes);
    bytes[0] = 9;
    const { value } = await subscription.next();
    expect([...(value!.data as Uint8Array)]).to.deep.equal([1, 2, 3]);
    subscription.unsubscribe();
  });

  it('refuses a topic that is not a non-empty string, and data with no JSON text', async () => {
    await start();
    expect(() => endpoints.publish('', 'x')).to.throw(TypeError, /non-empty string/);
    expect(() => endpoints.publish(42 as unknown as string, 'x')).to.throw(TypeError, /non-empty string/);
    expect(() => endpoints.publish('t', undefined)).to.throw(TypeError, /JSON/);
    expect(() => endpoints.subscribe([''])).to.throw(TypeError, /non-empty string/);
  });

  it('refuses a topic with a lone surrogate at publish and subscribe, which no backplane could carry', async () => {
    await start();
    for (const topic of ['room-\uD800', '\uDC00', 'a\uDC00\uD800b']) {
      expect(() => endpoints.publish(topic, 'x')).to.throw(TypeError, /lone surrogate/);
      expect(() => endpoints.subscribe([topic])).to.throw(TypeError, /lone surrogate/);
    }
    // Whole characters outside the BMP are fine.
    const subscription = endpoints.subscribe(['room-😀']);
    endpoints.publish('room-😀', 'x');
    const { value } = await subscription[Symbol.asyncIterator]().next();
    expect(value!.data).to.equal('x');
    subscription.unsubscribe();
  });

  it('closes a socket that falls backpressureLimit bytes behind with 1013; the others go on', async () => {
    await start({ topics: { backpressureLimit: 64 * 1024 } });
    const slow = await socketClient(`${wsBase}/ws?topic=t`);
    const fast = await socketClient(`${wsBase}/ws?topic=t`);
    // The client stops reading: what the server sends piles up in the kernel, then in the server.
    const raw = (slow.ws as unknown as { _socket: import('node:net').Socket })._socket;
    raw.pause();
    const chunk = 'y'.repeat(32 * 1024);
    for (let i = 0; i < 300; i++) {
      endpoints.publish('t', chunk);
      if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
    }
    await fast.waitFor(300);
    raw.resume();
    expect((await slow.closed).code).to.equal(1013);
    expect(slow.received.length).to.be.below(300);
    expect(endpoints.topicStats().slowSubscribers).to.equal(1);
    endpoints.publish('t', 'still');
    await fast.waitFor(301);
  });

  it("a handler's subscription that is not its answer's body ends with the request", async () => {
    await start();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => fetch(`${base}/peek?topic=leak`).then((r) => r.text())),
    );
    expect(new Set(answers)).to.deep.equal(new Set(['peeked']));
    // The after-the-answer work runs once each response is out: give it a turn.
    await new Promise((resolve) => setTimeout(resolve, 50));
    endpoints.publish('leak', 'x');
    expect(endpoints.topicStats().delivered, 'no subscriber was left behind').to.equal(0);
    // Through .fetch, too, once the body has been read.
    const response = await endpoints.fetch(new Request('http://localhost/peek?topic=leak'));
    expect(await response.text()).to.equal('peeked');
    await new Promise((resolve) => setImmediate(resolve));
    endpoints.publish('leak', 'y');
    expect(endpoints.topicStats().delivered).to.equal(0);
  });

  it('a subscription made after close() ends at once, and as an event stream says it is shutting down', async () => {
    await start();
    await endpoints.close();
    const subscription = endpoints.subscribe('t');
    expect(await subscription.next()).to.deep.equal({ value: undefined, done: true });
    const text = await new Response(endpoints.subscribe('t').toEventStream()).text();
    expect(text).to.equal(': subscribed\n\nevent: shutdown\ndata: \n\n');
  });

  it('closing the mount ends its streams', async () => {
    await start();
    const subscription = endpoints.subscribe('t');
    const next = subscription.next();
    await endpoints.close();
    expect(await next).to.deep.equal({ value: undefined, done: true });
  });

  describe('a subscription as an event stream', () => {
    const decoder = new TextDecoder();
    /** Reads the stream's text until it holds `until`, or the stream ends. */
    const readUntil = async (
      reader: ReadableStreamDefaultReader<Uint8Array>,
      text: { value: string },
      until?: string,
    ) => {
      while (until === undefined || !text.value.includes(until)) {
        const { value, done } = await reader.read();
        if (done) return true;
        text.value += decoder.decode(value);
      }
      return false;
    };

    it('sends a comment while idle, and loses no message to it', async () => {
      await start();
      const reader = endpoints.subscribe('t').toEventStream({ heartbeat: 30 }).getReader();
      const text = { value: '' };
      await readUntil(reader, text, ': subscribed\n\n');
      await readUntil(reader, text, ':\n\n:\n\n');
      endpoints.publish('t', 'one');
      endpoints.publish('t', 'two');
      await readUntil(reader, text, 'data: two\n\n');
      const events = text.value.split('\n\n').filter((block) => block.startsWith('event:'));
      expect(events).to.deep.equal(['event: t\ndata: one', 'event: t\ndata: two']);
      await reader.cancel();
    });

    it('sends no comment with heartbeat: false', async () => {
      await start();
      const reader = endpoints.subscribe('t').toEventStream({ heartbeat: false }).getReader();
      const text = { value: '' };
      await readUntil(reader, text, ': subscribed\n\n');
      const next = reader.read();
      await new Promise((resolve) => setTimeout(resolve, 80));
      endpoints.publish('t', 'only');
      expect(decoder.decode((await next).value)).to.equal('event: t\ndata: only\n\n');
      await reader.cancel();
    });

    it('ends with every message published before the mount closed, then the shutdown event', async () => {
      await start();
      const reader = endpoints.subscribe('t').toEventStream().getReader();
      const text = { value: '' };
      await readUntil(reader, text, ': subscribed\n\n');
      for (let i = 0; i < 5; i++) endpoints.publish('t', String(i));
      await endpoints.close();
      expect(await readUntil(reader, text)).to.equal(true);
      const blocks = text.value.split('\n\n').filter((block) => block !== '' && !block.startsWith(':'));
      expect(blocks).to.deep.equal([
        ...['0', '1', '2', '3', '4'].map((n) => `event: t\ndata: ${n}`),
        'event: shutdown\ndata: ',
      ]);
    });

    it('ends without the shutdown event when unsubscribed, or when told none', async () => {
      await start();
      const unsubscribed = endpoints.subscribe('t');
      const first = unsubscribed.toEventStream().getReader();
      const quiet = endpoints.subscribe('t').toEventStream({ shutdownEvent: false }).getReader();
      const custom = endpoints
        .subscribe('t')
        .toEventStream({ shutdownEvent: { event: 'bye', data: 'later' } })
        .getReader();
      unsubscribed.unsubscribe();
      const texts = [{ value: '' }, { value: '' }, { value: '' }];
      expect(await readUntil(first, texts[0]!)).to.equal(true);
      await endpoints.close();
      expect(await readUntil(quiet, texts[1]!)).to.equal(true);
      expect(await readUntil(custom, texts[2]!)).to.equal(true);
      expect(texts.map((text) => text.value)).to.deep.equal([
        ': subscribed\n\n',
        ': subscribed\n\n',
        ': subscribed\n\nevent: bye\ndata: later\n\n',
      ]);
    });

    it('refuses a heartbeat that is not a positive number of milliseconds, and a final event that cannot be framed', async () => {
      await start();
      for (const heartbeat of [0, -1, Number.NaN]) {
        expect(() => endpoints.subscribe('t').toEventStream({ heartbeat })).to.throw(TypeError, /heartbeat/);
      }
      const shutdownEvent = { event: 'bye\nid: 7', data: '' };
      expect(() => endpoints.subscribe('t').toEventStream({ shutdownEvent })).to.throw(TypeError);
    });
  });

  it('publish and deliver show on the tracing channels', async () => {
    await start();
    const seen: string[] = [];
    const onStart = (message: unknown) => seen.push(`start ${(message as { topic: string }).topic}`);
    const onEnd = (message: unknown) => {
      const context = message as { topic: string; delivered: number; size: number };
      seen.push(`end ${context.topic} delivered ${context.delivered} size ${context.size}`);
    };
    subscribeChannel('tracing:express-file-endpoints:publish:start', onStart);
    subscribeChannel('tracing:express-file-endpoints:publish:end', onEnd);
    try {
      const subscription = endpoints.subscribe('traced');
      endpoints.publish('traced', 'héllo');
      subscription.unsubscribe();
    } finally {
      unsubscribeChannel('tracing:express-file-endpoints:publish:start', onStart);
      unsubscribeChannel('tracing:express-file-endpoints:publish:end', onEnd);
    }
    expect(seen).to.deep.equal(['start traced', 'end traced delivered 1 size 6']);
  });
});

describe('topics in a unit test', () => {
  it('createTestContext({ publish }) hands a handler a publish that records', async () => {
    const { createTestContext, createTestRequest } = await import('../../src/testing');
    const { POST } = (await import('../fixtures/topics-app/publish/endpoint')) as {
      POST: (request: Request, context: object) => Promise<Response>;
    };
    const sent: unknown[] = [];
    const context = createTestContext({ publish: (topic, data) => void sent.push([topic, data]) });
    const request = createTestRequest('/publish?topic=news', { method: 'POST', body: 'hello' });
    expect((await POST(request, context)).status).to.equal(204);
    expect(sent).to.deep.equal([['news', 'hello']]);
  });
});
