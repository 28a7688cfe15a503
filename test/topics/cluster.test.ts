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

  describe('a worker that sends malformed messages', () => {
    const TAG = 'express-file-endpoints:topics';
    const malformed = [
      { [TAG]: 'default', kind: 'publish', topic: 'feed', origin: 'evil', base64: 5 },
      { [TAG]: 'default', kind: 'publish', topic: 'feed', origin: 7, text: 'x' },
      { [TAG]: 'default', kind: 'publish', topic: 'feed', origin: 'evil', text: {}, base64: 'eA==' },
      { [TAG]: 'default', kind: 'publish', topic: ['feed'], origin: 'evil', text: 'x' },
      { [TAG]: 'default', kind: 'subscribe', topic: { toString: null } },
      { [TAG]: 'default' },
    ];

    it('through the primary: nothing reaches the others, who live on and still hear good publications', async () => {
      processes = await forkCluster(2);
      const [a, b] = processes.servers as [ServerProcess, ServerProcess];
      const socket = await socketClient(`${b.wsBase}/ws?topic=feed`);
      const probe = setInterval(() => void publishOver(a.base, 'feed', 'probe'), 20);
      await until(() => socket.received.length > 0, 5000, 'the primary to know the subscription');
      clearInterval(probe);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const before = socket.received.length;
      for (const message of malformed) await a.ask({ type: 'send-raw', message, count: 200 }, 'sent-raw');
      await publishOver(a.base, 'feed', 'after');
      expect(await socket.waitFor(before + 1)).to.deep.equal([...socket.received.slice(0, before), 'after']);
      expect(b.errors, 'the primary relayed none of them').to.deep.equal([]);
      expect((await b.ask<{ stats: { received: number } }>({ type: 'stats' }, 'stats')).stats).to.be.an(
        'object',
      );
    });

    it('straight to a worker: reported to onError at most once a second with a count, dropped, the worker lives', async () => {
      processes = await forkCluster(2);
      const [a, b] = processes.servers as [ServerProcess, ServerProcess];
      const socket = await socketClient(`${b.wsBase}/ws?topic=feed`);
      processes.sendFromPrimary!(1, malformed[0]!, 2000);
      // A good publication behind them arrives: the worker dropped the bad ones and lives on.
      const probe = setInterval(() => void publishOver(a.base, 'feed', 'probe'), 50);
      await until(() => socket.received.length > 0, 5000, 'a publication after the malformed ones');
      clearInterval(probe);
      await until(() => b.errors.length === 2, 3000, 'the held reports to be told');
      expect(b.errors[0]!.message).to.match(/not a publication of this library/);
      expect(b.errors[1]!.message).to.match(
        /^1999 messages dropped in the last second; the last: .*not a publication/,
      );
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(b.errors, 'no more than two reports for 2,000 messages').to.have.length(2);
    });
  });
});
