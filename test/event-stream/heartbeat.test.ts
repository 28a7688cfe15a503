/**
 * Heartbeats on the wire: with an event sent just after a heartbeat, the stream is still never
 * silent for longer than the interval, for `eventStream` and a topic subscription's
 * `toEventStream()` alike (one writer serves both: src/event-stream/event-writer.ts).
 */
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { mountEndpoints, type EndpointsMiddleware } from '../../src';
import { listen, type Listening } from '../support/net';

const dir = path.join(__dirname, '../fixtures/events-app/app');
const HEARTBEAT = 150;
// Timers run late on a busy machine, never early; a skipped beat would add a whole interval.
const LATE = 60;

/** The text of a GET, and the longest wait between two chunks of it (from the head), over `ms`. */
function gaps(url: string, ms: number): Promise<{ text: string; longest: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => {
      let text = '';
      let last = performance.now();
      let longest = 0;
      const done = () => resolve({ text, longest: Math.max(longest, performance.now() - last) });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
        text += chunk;
      });
      res.on('end', done);
      setTimeout(() => {
        req.destroy();
        done();
      }, ms);
    });
    req.on('error', reject);
  });
}

describe('heartbeats on the wire', () => {
  let endpoints: EndpointsMiddleware;
  let server: Listening;
  before(async () => {
    endpoints = mountEndpoints({ dir });
    await endpoints.ready;
    server = await listen(http.createServer(endpoints));
  });
  after(async () => {
    await server?.close();
    await endpoints?.close();
  });

  it('eventStream: no silence longer than the interval, an event just after a beat included', async () => {
    const { text, longest } = await gaps(`${server.url}/beats?heartbeat=${HEARTBEAT}&for=900`, 2000);
    expect(longest).to.be.below(HEARTBEAT + LATE);
    expect(text).to.include('data: between beats\n\n');
    expect(text.match(/^:$/gm)?.length ?? 0).to.be.at.least(4);
  });

  it('toEventStream(): the same', async () => {
    const { text, longest } = await gaps(`${server.url}/topic-beats?heartbeat=${HEARTBEAT}`, 900);
    expect(longest).to.be.below(HEARTBEAT + LATE);
    expect(text).to.include('data: between beats\n\n');
  });
});
