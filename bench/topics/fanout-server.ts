/**
 * One server of the fan-out benchmark (fanout.ts): express-file-endpoints with the Redis backplane
 * (`efe`), or Socket.IO 4 with @socket.io/redis-adapter (`socket.io`), on a port of its own. Every
 * client is put in the `feed` topic (room). On `{ type: 'run', rate, seconds }` it publishes `rate`
 * messages a second for `seconds`, each carrying the monotonic clock (shared by the processes of a
 * machine) at publication, then says `{ type: 'done' }`; `{ type: 'warm' }` publishes one message.
 */
import http from 'node:http';
import path from 'node:path';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import { mountEndpoints, redisBackplane } from '../../src/index';

const variant = process.argv[2] as 'efe' | 'socket.io';
const redisUrl = process.argv[3]!;
const PAD = 'x'.repeat(64);

async function start(): Promise<(data: string) => void> {
  const server = http.createServer();
  if (variant === 'efe') {
    const endpoints = mountEndpoints({
      dir: path.join(import.meta.dirname, '../trees/topics'),
      topics: { backplane: redisBackplane({ url: redisUrl }) },
    });
    await endpoints.ready;
    server.on('request', endpoints);
    endpoints.attach(server, { pingInterval: false });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    while (!endpoints.topicStats().backplane?.up) await new Promise((resolve) => setTimeout(resolve, 10));
    process.send!({ type: 'ready', port: (server.address() as { port: number }).port });
    return (data) => endpoints.publish('feed', data);
  }
  const pub = createClient({ url: redisUrl });
  const sub = pub.duplicate();
  await Promise.all([pub.connect(), sub.connect()]);
  const io = new Server(server, { adapter: createAdapter(pub, sub), transports: ['websocket'] });
  io.on('connection', (socket) => void socket.join('feed'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.send!({ type: 'ready', port: (server.address() as { port: number }).port });
  return (data) => void io.to('feed').emit('m', data);
}

const publish = await start();
let seq = 0;
process.on('message', (command: { type: string; rate?: number; seconds?: number }) => {
  if (command.type === 'warm') publish(`${process.hrtime.bigint()}|warm|${PAD}`);
  if (command.type !== 'run') return;
  // Every 10 ms, the messages due by then: the rate holds however long a tick takes.
  const started = performance.now();
  const total = command.rate! * command.seconds!;
  let sent = 0;
  const timer = setInterval(() => {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * command.rate!));
    for (; sent < due; sent++) publish(`${process.hrtime.bigint()}|${seq++}|${PAD}`);
    if (sent >= total) {
      clearInterval(timer);
      process.send!({ type: 'done' });
    }
  }, 10);
});
process.on('disconnect', () => process.exit(0));
