/**
 * What a server cannot make the typed client do: hold an event that never ends (`maxEventSize`: a
 * clear error, no retry, bounded memory), or reconnect in a loop (`reconnect.minDelay`, which
 * `retry: 0` and `Retry-After: 0` both respect). Against real HTTP servers that misbehave so.
 */
import http from 'node:http';
import { expect } from 'chai';
import { createClient, EventTooLargeError, type ClientEvent } from '../../src/client';
import { listen, type Listening } from '../support/net';

/** A server that answers every request with `answer`, counting them. */
async function serve(answer: http.RequestListener): Promise<Listening & { requests: () => number }> {
  let requests = 0;
  const listening = await listen(
    http.createServer((req, res) => {
      requests++;
      answer(req, res);
    }),
  );
  return { ...listening, requests: () => requests };
}

/** Iterates to the end, or to the error it ends with. */
async function drain(events: AsyncIterable<ClientEvent<unknown>>): Promise<unknown> {
  try {
    for await (const _ of events);
  } catch (error) {
    return error;
  }
  return undefined;
}

const MiB = 1024 * 1024;

describe('client.events() bounds', () => {
  let server: (Listening & { requests: () => number }) | undefined;
  afterEach(() => server?.close());

  it('a line that never ends: EventTooLargeError past maxEventSize, not retried, in bounded memory', async () => {
    let written = 0;
    server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: ');
      const chunk = Buffer.alloc(64 * 1024, 'x');
      // 48 MiB of one line, as fast as the client reads it, until it leaves.
      const more = () => {
        while (written < 48 * MiB && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const sampling = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
    const api = createClient({ baseUrl: server.url });
    const thrown = await drain(api.events('/', { signal: AbortSignal.timeout(5000) }));
    clearInterval(sampling);
    if (process.env.SHOW_FIGURES) console.log({ written, heap: peak - before });
    expect(thrown).to.be.instanceOf(EventTooLargeError);
    expect((thrown as Error).message).to.match(/maxEventSize \(1048576 characters\)/);
    expect(server.requests(), 'not retried').to.equal(1);
    // The client stopped reading past 1 MiB: what the server wrote beyond is what sockets buffer.
    expect(written).to.be.below(16 * MiB);
    expect(peak - before).to.be.below(32 * MiB);
  });

  it('maxEventSize counts an event’s data lines together, and takes a bound of its own', async () => {
    const line = `data: ${'y'.repeat(40)}\n`;
    const stream = (text: string) => async () =>
      new Response(text, { headers: { 'content-type': 'text/event-stream' } });
    const api = (text: string) => createClient({ fetch: stream(text) });
    const under = await drain(api(`${line}${line}\n`).events('/', { maxEventSize: 100, reconnect: false }));
    expect(under).to.equal(undefined);
    const over = await drain(
      api(`${line}${line}${line}\n`).events('/', { maxEventSize: 100, signal: AbortSignal.timeout(2000) }),
    );
    expect(over).to.be.instanceOf(EventTooLargeError);
  });

  it('retry: 0 from the server: no more than one reconnection a second', async () => {
    server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('retry: 0\n\ndata: x\n\n');
    });
    const api = createClient({ baseUrl: server.url });
    await drain(api.events('/', { signal: AbortSignal.timeout(1500) }));
    expect(server.requests()).to.be.within(1, 2);
  });

  it('503 with Retry-After: 0: no more than one attempt a second', async () => {
    server = await serve((_req, res) => {
      res.writeHead(503, { 'retry-after': '0' });
      res.end('shutting down');
    });
    const api = createClient({ baseUrl: server.url });
    await drain(api.events('/', { signal: AbortSignal.timeout(1500) }));
    expect(server.requests()).to.be.within(1, 2);
  });

  it('reconnect.minDelay sets that floor', async () => {
    server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('retry: 0\n\ndata: x\n\n');
    });
    const api = createClient({ baseUrl: server.url });
    await drain(api.events('/', { reconnect: { minDelay: 100 }, signal: AbortSignal.timeout(1000) }));
    // One at once, then one every 100 ms at the most.
    expect(server.requests()).to.be.within(5, 11);
  });
});
