/**
 * One server of the event-stream bench (bench/events.ts): `/events` streams server-sent events with
 * one library, and every `TICK_MS` the server sends one event to every open stream, the same bytes
 * whatever the library. Tells the driver its port, then its CPU time when asked (IPC).
 *
 *   VARIANT=ee|h3|hono TICK_MS=20 node --import tsx bench/events-server.ts
 */
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';

const HERE = path.dirname(fileURLToPath(import.meta.url));

type Send = (id: string, data: string) => void;
const senders = ((globalThis as { benchSenders?: Set<Send> }).benchSenders ??= new Set<Send>());

async function listener(variant: string): Promise<http.RequestListener> {
  if (variant === 'ee') {
    const { mountEndpoints } = await import('../src');
    const endpoints = mountEndpoints({ dir: path.join(HERE, 'trees/events') });
    await endpoints.ready;
    return endpoints;
  }
  if (variant === 'h3') {
    const { H3, createEventStream, toNodeHandler } = await import('h3');
    const app = new H3().get('/events', (event) => {
      const stream = createEventStream(event);
      const send: Send = (id, data) => void stream.push({ id, data });
      senders.add(send);
      stream.onClosed(() => senders.delete(send));
      return stream;
    });
    return toNodeHandler(app) as http.RequestListener;
  }
  if (variant === 'hono') {
    const { Hono } = await import('hono');
    const { streamSSE } = await import('hono/streaming');
    const { getRequestListener } = await import('@hono/node-server');
    const app = new Hono().get('/events', (c) =>
      streamSSE(c, async (stream) => {
        const send: Send = (id, data) => void stream.writeSSE({ id, data });
        senders.add(send);
        await new Promise<void>((resolve) =>
          stream.onAbort(() => {
            senders.delete(send);
            resolve();
          }),
        );
      }),
    );
    // The runtime's own Request and Response, as the other variants use (bench/README.md).
    return getRequestListener(app.fetch, { overrideGlobalObjects: false });
  }
  throw new Error(`unknown variant ${variant}`);
}

async function main(): Promise<void> {
  const server = http.createServer(await listener(process.env.VARIANT ?? 'ee'));
  server.listen(0, '127.0.0.1', () => {
    process.send!({ port: (server.address() as AddressInfo).port });
  });
  let n = 0;
  setInterval(
    () => {
      n += 1;
      const id = String(n);
      const data = JSON.stringify({ n, at: Date.now(), text: 'an event of the bench' });
      for (const send of senders) send(id, data);
    },
    Number(process.env.TICK_MS ?? 20),
  );
  process.on('message', (message: { ask: 'cpu' }) => {
    if (message.ask !== 'cpu') return;
    const { user, system } = process.cpuUsage();
    process.send!({ cpu: user + system, streams: senders.size });
  });
}

// Ends cleanly on SIGINT, so that `--cpu-prof` writes its profile.
process.on('SIGINT', () => process.exit(0));
void main();
