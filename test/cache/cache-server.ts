/**
 * One process of the shared-cache test: the cache fixture tree mounted with `redisCache()` at
 * REDIS_URL, on its own port. Through IPC it says `{ type: 'ready', port }`, answers
 * `{ type: 'runs' }` with how many times each handler ran here, and exits on `{ type: 'close' }`.
 */
import http from 'node:http';
import path from 'node:path';
import { mountEndpoints, redisCache } from '../../src';
import { runs } from '../fixtures/cache-app/app/_lib/counter';

async function main(): Promise<void> {
  const send = (message: object) => process.send!(message);
  const endpoints = mountEndpoints({
    dir: path.join(__dirname, '../fixtures/cache-app/app'),
    cache: { store: redisCache({ url: process.env.REDIS_URL }) },
  });
  await endpoints.ready;
  const server = http.createServer(endpoints);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  process.on('message', (command: { type: string }) => {
    if (command.type === 'runs') send({ type: 'runs', runs });
    else if (command.type === 'close') {
      server.closeAllConnections();
      server.close();
      void endpoints.close().then(() => process.exit(0));
    }
  });
  send({ type: 'ready', port });
}

void main();
