/**
 * Topics across the workers of a node:cluster, with no broker: three workers, each on its own
 * port, the primary relaying (setupClusterPrimary). A publication from an HTTP POST on one worker
 * reaches the subscribed sockets and streams of the others exactly once and in order, and not the
 * unsubscribed ones.
 */
import { expect } from 'chai';
import {
  eventClient,
  publishOver,
  socketClient,
  until,
  type EventClient,
  type SocketClient,
} from './clients';
import { forkCluster, type Processes, type ServerProcess } from './processes';

describe('topics across the workers of a node:cluster', function () {
  this.timeout(30_000);
  let processes: Processes | undefined;
  const streams: EventClient[] = [];

  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await processes?.close();
  });

  it('a POST on worker A reaches the sockets and streams on B and C exactly once, in order; not the others', async () => {
    processes = await forkCluster(3);
    const [a, b, c] = processes.servers as [ServerProcess, ServerProcess, ServerProcess];
    const receivers: {
      socket: SocketClient;
      stream: EventClient;
      other: SocketClient;
      left: SocketClient;
    }[] = [];
    for (const server of [b, c]) {
      const socket = await socketClient(`${server.wsBase}/ws?topic=feed`);
      const stream = await eventClient(`${server.base}/events?topic=feed`);
      const other = await socketClient(`${server.wsBase}/ws?topic=other`);
      const left = await socketClient(`${server.wsBase}/ws?topic=feed`);
      await left.command('leave feed');
      streams.push(stream);
      receivers.push({ socket, stream, other, left });
    }
    // The subscriptions reach the primary over IPC: probe publications tell when they have.
    const probe = setInterval(() => void publishOver(a.base, 'feed', 'probe'), 20);
    await until(
      () => receivers.every(({ socket, stream }) => socket.received.length > 0 && stream.received.length > 0),
      5000,
      'the primary to know the subscriptions',
    );
    clearInterval(probe);
    // The last probes in flight arrive before what follows: IPC and the primary keep A's order.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const probes = receivers.map(
      ({ socket, stream }) => [socket.received.length, stream.received.length] as const,
    );

    const sent = Array.from({ length: 40 }, (_, i) => `message ${i}`);
    for (const message of sent) await publishOver(a.base, 'feed', message);
    await publishOver(a.base, 'other', 'marker');
    for (const [i, { socket, stream, other, left }] of receivers.entries()) {
      const [socketProbes, streamProbes] = probes[i]!;
      expect(await other.waitFor(1)).to.deep.equal(['marker']);
      expect((await socket.waitFor(socketProbes + sent.length)).slice(socketProbes)).to.deep.equal(sent);
      expect((await stream.waitFor(streamProbes + sent.length)).slice(streamProbes)).to.deep.equal(
        sent.map((message) => `feed ${message}`),
      );
      expect(socket.received).to.have.length(socketProbes + sent.length);
      expect(left.received, 'unsubscribed').to.deep.equal([]);
    }
    expect(a.errors).to.deep.equal([]);
  });
});
