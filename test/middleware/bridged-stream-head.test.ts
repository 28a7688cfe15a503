/**
 * A bridged middleware that answers with a streamed Response of its own after `next()`: the
 * client gets the head at once, as it does for a streamed Response sent without `next()`, not
 * with the first chunk, however late that chunk is.
 */
import http from 'node:http';
import { expect } from 'chai';
import { bridgeMiddleware } from '../../src';
import { hosts, sendText } from './chain-hosts';

const LATE_MS = 400;

function lateStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, LATE_MS));
      controller.enqueue(new TextEncoder().encode('late'));
      controller.close();
    },
  });
}

/** Milliseconds from sending the request to its head, and the whole body. */
function timeToHead(url: string): Promise<{ head: number; status: number; body: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        const head = performance.now() - started;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ head, status: res.statusCode!, body }));
      })
      .on('error', reject);
  });
}

describe('bridgeMiddleware: a streamed Response of its own after next()', () => {
  for (const host of hosts) {
    it(`sends its head before the first chunk (${host.name})`, async () => {
      const app = await host.start([
        {
          use: bridgeMiddleware(async (_request, next) => {
            const downstream = await next();
            return new Response(lateStream(), {
              status: 202,
              headers: { 'x-was': String(downstream.status) },
            });
          }),
        },
        { route: '/page', handle: (_req, res) => sendText(res, 'page') },
      ]);
      try {
        const reply = await timeToHead(`${app.url}/page`);
        expect([reply.status, reply.body]).to.deep.equal([202, 'late']);
        expect(reply.head).to.be.below(LATE_MS / 2);
      } finally {
        await app.close();
      }
    });
  }
});
