/** Small helpers for the WebSocket tests: open a `ws` client and wait for what it receives. */
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';

/** A `ws` client that keeps every message it gets, text as strings and binary as Buffers. */
export interface Client {
  ws: WebSocket;
  messages: (string | Buffer)[];
  /** The handshake's response: the 101 and its headers. */
  upgrade: IncomingMessage;
  /** The next message, or the first one not yet taken. */
  next(): Promise<string | Buffer>;
  /** Resolves with the close code and reason once the socket has closed. */
  closed: Promise<{ code: number; reason: string }>;
}

export async function connect(url: string, options: WebSocket.ClientOptions = {}): Promise<Client> {
  const ws = new WebSocket(url, options);
  const messages: (string | Buffer)[] = [];
  let taken = 0;
  const waiting: (() => void)[] = [];
  ws.on('message', (data: Buffer, isBinary) => {
    messages.push(isBinary ? data : data.toString());
    waiting.splice(0).forEach((wake) => wake());
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  // 'upgrade' and 'open' come in the same tick: both are listened for before either arrives.
  const upgraded = once(ws, 'upgrade') as Promise<[IncomingMessage]>;
  await Promise.race([
    once(ws, 'open'),
    once(ws, 'unexpected-response').then(([, res]) => {
      throw new Error(`refused with ${(res as IncomingMessage).statusCode}`);
    }),
  ]);
  const [upgrade] = await upgraded;
  return {
    ws,
    messages,
    upgrade,
    closed,
    async next() {
      while (taken >= messages.length) await new Promise<void>((wake) => waiting.push(wake));
      return messages[taken++]!;
    },
  };
}

/** The first message a socket opened at `url` gets; the socket is closed once it has come. */
export async function firstMessage(url: string): Promise<string | Buffer> {
  const client = await connect(url);
  try {
    return await client.next();
  } finally {
    client.ws.close();
  }
}

/** The answer to an upgrade the server refuses: its status, headers and body. */
export async function refusal(
  url: string,
  options: WebSocket.ClientOptions = {},
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  const ws = new WebSocket(url, options);
  ws.on('error', () => {});
  const [, res] = (await once(ws, 'unexpected-response')) as [unknown, IncomingMessage];
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  ws.terminate();
  return { status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() };
}
