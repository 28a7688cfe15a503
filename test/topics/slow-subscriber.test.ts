/**
 * A subscriber that stops reading is closed once it is `backpressureLimit` bytes behind, rather than
 * growing the server's memory: a socket whose client reads nothing (closed with 1013, then cut), and
 * a stream whose client reads nothing (its response cut). A reading socket gets everything. The
 * server runs in a child process, whose heap and array buffers are measured after a full gc: with the
 * default 1 MiB limit they stay flat while 25 MiB are published; without one, they grow by about that.
 */
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import { socketClient } from './clients';
import { forkServers, type Processes, type ServerProcess } from './processes';

const MESSAGE = 'x'.repeat(64 * 1024);
const COUNT = 400;

/** A WebSocket handshake on a raw connection, which then reads nothing more. */
async function stalledSocket(port: number, path: string): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  const [head] = (await once(socket, 'data')) as [Buffer];
  expect(head.toString('latin1')).to.match(/^HTTP\/1.1 101 /);
  socket.pause();
  socket.on('error', () => {});
  return socket;
}

/** A stream of events whose client reads its first chunk and then nothing more. */
async function stalledStream(port: number, path: string): Promise<http.IncomingMessage> {
  const request = http.get({ port, host: '127.0.0.1', path, agent: false });
  request.on('error', () => {});
  const [response] = (await once(request, 'response')) as [http.IncomingMessage];
  await once(response, 'data');
  response.pause();
  response.on('error', () => {});
  return response;
}

async function memory(server: ServerProcess): Promise<number> {
  const reply = await server.ask<{ heapUsed: number; arrayBuffers: number }>({ type: 'memory' }, 'memory');
  return reply.heapUsed + reply.arrayBuffers;
}

async function flood(server: ServerProcess): Promise<void> {
  // In batches, so that the server's sockets write between them as they would between requests.
  for (let sent = 0; sent < COUNT; sent += 20) {
    await server.ask({ type: 'publish', topic: 'flood', data: MESSAGE, count: 20 }, 'published');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('slow subscribers', function () {
  this.timeout(60_000);
  let processes: Processes | undefined;
  afterEach(() => processes?.close());

  it('a socket and a stream that stop reading are closed at the limit; the server memory stays flat', async () => {
    processes = await forkServers(1, {});
    const [server] = processes.servers as [ServerProcess];
    const reader = await socketClient(`${server.wsBase}/ws?topic=flood`);
    const socket = await stalledSocket(server.port, '/ws?topic=flood');
    const stream = await stalledStream(server.port, '/events?topic=flood');
    const before = await memory(server);

    await flood(server);
    await reader.waitFor(COUNT, 20_000);
    const stats = await server.stats();
    expect(stats.slowSubscribers).to.equal(2);
    // The stalled socket is cut once its close frame has waited `closeTimeout` (500 ms here).
    await new Promise((resolve) => setTimeout(resolve, 700));
    const after = await memory(server);
    if (process.env.SHOW_MEMORY) console.log(`      memory +${((after - before) / 2 ** 20).toFixed(1)} MiB`);
    expect(after - before, 'bytes kept by the server').to.be.below(6 * 2 ** 20);
    expect(reader.received.every((message) => message.length === MESSAGE.length)).to.equal(true);
    // The reading socket was never disturbed.
    expect(reader.ws.readyState).to.equal(1);
    socket.destroy();
    stream.destroy();
  });

  it('without a limit in reach, the same flood is held for the stalled subscribers (what the limit saves)', async () => {
    processes = await forkServers(1, { LIMIT: String(2 ** 30) });
    const [server] = processes.servers as [ServerProcess];
    const socket = await stalledSocket(server.port, '/ws?topic=flood');
    const before = await memory(server);
    await flood(server);
    const after = await memory(server);
    expect((await server.stats()).slowSubscribers).to.equal(0);
    expect(after - before).to.be.above(15 * 2 ** 20);
    socket.destroy();
  });
});
