/**
 * One process of the multi-process topic tests: the topics fixture tree mounted on its own port,
 * with the backplane BACKPLANE names (`redis` at REDIS_URL, `cluster`, or none). Through IPC (to
 * the test, or to the cluster's primary, which relays) it says `{ type: 'ready', port }`, tells
 * every `onError` report (`{ type: 'error', export, message }`), answers `{ type: 'stats' }` and
 * `{ type: 'memory' }` (heap after a full gc), publishes on `{ type: 'publish', topic, data, count }`,
 * sends `count` times a message of its own making to the cluster's primary on
 * `{ type: 'send-raw', message, count }` (a worker that misbehaves), and exits on `{ type: 'close' }`.
 */
import http from 'node:http';
import path from 'node:path';
import { clusterBackplane, mountEndpoints, redisBackplane, type Backplane } from '../../src';

type Command =
  | { type: 'stats' | 'memory' | 'close' }
  | { type: 'publish'; topic: string; data: string; count?: number }
  | { type: 'send-raw'; message: object; count: number };

const gc = (globalThis as { gc?: () => void }).gc;

function backplaneFromEnv(): Backplane | undefined {
  if (process.env.BACKPLANE === 'redis') {
    return redisBackplane({ url: process.env.REDIS_URL, initialDelay: 20, maxDelay: 200 });
  }
  if (process.env.BACKPLANE === 'cluster') return clusterBackplane();
  return undefined;
}

async function main(): Promise<void> {
  const send = (message: object) => process.send!(message);
  const endpoints = mountEndpoints({
    dir: path.join(__dirname, '../fixtures/topics-app'),
    topics: {
      backplane: backplaneFromEnv(),
      backpressureLimit: process.env.LIMIT ? Number(process.env.LIMIT) : undefined,
    },
    onError: (error, info) =>
      send({ type: 'error', export: info.export, message: (error as Error)?.message ?? String(error) }),
  });
  await endpoints.ready;
  const server = http.createServer(endpoints);
  endpoints.attach(server, { closeTimeout: 500 });
  // `exclusive`: a cluster worker gets a port of its own instead of sharing the primary's.
  await new Promise<void>((resolve) =>
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, resolve),
  );
  const { port } = server.address() as { port: number };
  process.on('message', (command: Command) => {
    if (command.type === 'stats') send({ type: 'stats', stats: endpoints.topicStats() });
    else if (command.type === 'memory') {
      for (let i = 0; i < 3; i++) gc?.();
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      send({ type: 'memory', heapUsed, arrayBuffers });
    } else if (command.type === 'publish') {
      for (let i = 0; i < (command.count ?? 1); i++) endpoints.publish(command.topic, command.data);
      send({ type: 'published' });
    } else if (command.type === 'send-raw') {
      for (let i = 0; i < command.count; i++) process.send!(command.message);
      send({ type: 'sent-raw' });
    } else if (command.type === 'close') {
      server.closeAllConnections();
      server.close();
      void endpoints.close().then(() => process.exit(0));
    }
  });
  send({ type: 'ready', port });
}

void main();
