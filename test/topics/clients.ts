/**
 * Clients for the topic tests: a socket of the fixture's `/ws` route (commands and their
 * acknowledgements, publications kept in order), and a server-sent events reader of `/events`.
 */
import http, { type ClientRequest } from 'node:http';
import { once } from 'node:events';
import WebSocket from 'ws';

export interface SocketClient {
  ws: WebSocket;
  /** Every publication received, in order, with the acknowledgements left out. */
  received: string[];
  /** Runs a command (`join t`, `leave t`, `publish t data`) and resolves once it is acknowledged. */
  command(text: string): Promise<Record<string, unknown>>;
  /** Resolves once `count` publications have arrived. */
  waitFor(count: number, timeout?: number): Promise<string[]>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export async function socketClient(url: string): Promise<SocketClient> {
  const ws = new WebSocket(url);
  const received: string[] = [];
  const acks: ((ack: Record<string, unknown>) => void)[] = [];
  let wake: (() => void) | undefined;
  ws.on('message', (data: Buffer, binary) => {
    const text = binary ? `bytes:${data.toString('hex')}` : data.toString();
    if (!binary && text.startsWith('{"ack":')) {
      acks.shift()?.(JSON.parse(text) as Record<string, unknown>);
      return;
    }
    received.push(text);
    wake?.();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on('error', () => {});
  await Promise.race([
    once(ws, 'open'),
    closed.then(({ code }) => {
      throw new Error(`closed with ${code} before opening`);
    }),
  ]);
  return {
    ws,
    received,
    closed,
    command(text) {
      return new Promise((resolve) => {
        acks.push(resolve);
        ws.send(text);
      });
    },
    async waitFor(count, timeout = 5000) {
      const deadline = Date.now() + timeout;
      while (received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(
            `waited for ${count} publications, got ${received.length}: ${received.join(' | ')}`,
          );
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
      return received;
    },
    close: () => ws.close(),
  };
}

export interface EventClient {
  /** `topic data` per event, in order. */
  received: string[];
  waitFor(count: number, timeout?: number): Promise<string[]>;
  /** Leaves: destroys the connection. */
  close(): void;
  ended: Promise<void>;
  request: ClientRequest;
}

/** Opens `/events?topic=…` and resolves once the server says it is subscribed. */
export async function eventClient(url: string): Promise<EventClient> {
  const request = http.get(url, { agent: false });
  request.on('error', () => {});
  const [response] = (await once(request, 'response')) as [http.IncomingMessage];
  if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.statusCode}`);
  const received: string[] = [];
  let buffer = '';
  let subscribed!: () => void;
  const ready = new Promise<void>((resolve) => (subscribed = resolve));
  let wake: (() => void) | undefined;
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith(': subscribed')) {
        subscribed();
        continue;
      }
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? '';
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      received.push(`${event} ${data}`);
      wake?.();
    }
  });
  response.on('error', () => {});
  const ended = new Promise<void>((resolve) => response.once('close', () => resolve()));
  await ready;
  return {
    received,
    request,
    ended,
    async waitFor(count, timeout = 5000) {
      const deadline = Date.now() + timeout;
      while (received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`waited for ${count} events, got ${received.length}: ${received.join(' | ')}`);
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
      return received;
    },
    close: () => request.destroy(),
  };
}

/** POSTs `data` to `/publish?topic=…`. */
export async function publishOver(
  base: string,
  topic: string,
  data: string,
  type = 'text/plain',
): Promise<void> {
  const response = await fetch(`${base}/publish?topic=${encodeURIComponent(topic)}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: data,
  });
  if (response.status !== 204) throw new Error(`POST /publish: ${response.status}`);
}

export async function until(condition: () => boolean, timeout = 5000, what = 'a condition'): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
