/**
 * Topics across three processes on a real Redis (redis-server started by the test on a free port):
 * a publication from an HTTP POST on one process reaches the subscribed sockets and streams of the
 * others exactly once and in order, and not the unsubscribed ones. The broker is then killed and
 * started again: no process exits, what was published meanwhile is reported and counted, and
 * delivery resumes on the same connections, their subscriptions kept.
 */
import { expect } from 'chai';
import { createClient } from 'redis';
import path from 'node:path';
import { mountEndpoints, redisBackplane, type EndpointsMiddleware, type MountOptions } from '../../src';
import { redisAvailable, INSTALL_HINT, startRedis, type RedisServer } from '../support/redis-server';
import { behavesAsABackplane } from './backplane-contract';
import {
  eventClient,
  publishOver,
  socketClient,
  until,
  type EventClient,
  type SocketClient,
} from './clients';
import { forkServers, type Processes, type ServerProcess } from './processes';

const PREFIX = 'express-file-endpoints#';
const TOPICS_APP = path.join(__dirname, '../fixtures/topics-app');

/** How many connections subscribe to each topic's channel, as Redis counts them. */
async function channelSubscribers(url: string, topics: string[]): Promise<Record<string, number>> {
  const client = await createClient({ url }).connect();
  try {
    const counts = await client.pubSubNumSub(topics.map((topic) => PREFIX + topic));
    return Object.fromEntries(topics.map((topic) => [topic, Number(counts[PREFIX + topic] ?? 0)]));
  } finally {
    client.destroy();
  }
}

/** Each process's subscribers: a socket and a stream on `feed`, a socket on `other`, one that left `feed`. */
interface Listeners {
  feedSocket: SocketClient;
  feedStream: EventClient;
  otherSocket: SocketClient;
  leftSocket: SocketClient;
}

async function listenersOn(server: ServerProcess): Promise<Listeners> {
  const feedSocket = await socketClient(`${server.wsBase}/ws?topic=feed`);
  const feedStream = await eventClient(`${server.base}/events?topic=feed`);
  const otherSocket = await socketClient(`${server.wsBase}/ws?topic=other`);
  const leftSocket = await socketClient(`${server.wsBase}/ws?topic=feed`);
  await leftSocket.command('leave feed');
  return { feedSocket, feedStream, otherSocket, leftSocket };
}

describe('redisBackplane(), two mounts in one process', function () {
  let redis: RedisServer | undefined;
  before(async function () {
    if (!redisAvailable()) {
      console.log(`      skipped: ${INSTALL_HINT}`);
      return this.skip();
    }
    redis = await startRedis();
  });
  after(() => redis?.stop());
  behavesAsABackplane(
    () => redisBackplane({ url: redis!.url }),
    async (topics) => {
      const deadline = Date.now() + 5000;
      while (!Object.values(await channelSubscribers(redis!.url, topics)).every((count) => count >= 1)) {
        if (Date.now() > deadline) throw new Error('not subscribed');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  );
});

describe('redisBackplane(), channel names', function () {
  let redis: RedisServer | undefined;
  const mounts: EndpointsMiddleware[] = [];
  before(async function () {
    if (!redisAvailable()) {
      console.log(`      skipped: ${INSTALL_HINT}`);
      return this.skip();
    }
    redis = await startRedis();
  });
  afterEach(() => Promise.all(mounts.splice(0).map((mount) => mount.close())));
  after(() => redis?.stop());

  async function mount(prefix?: string, onError?: MountOptions['onError']): Promise<EndpointsMiddleware> {
    const endpoints = mountEndpoints({
      dir: TOPICS_APP,
      topics: { backplane: redisBackplane({ url: redis!.url, prefix }) },
      onError,
    });
    mounts.push(endpoints);
    await endpoints.ready;
    const deadline = Date.now() + 5000;
    while (!endpoints.topicStats().backplane?.up) {
      if (Date.now() > deadline) throw new Error('the backplane did not come up');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return endpoints;
  }

  it("another program's messages on a subscribed channel: dropped, and told at most once a second with a count", async () => {
    const reports: string[] = [];
    const endpoints = await mount(undefined, (error) => reports.push((error as Error).message));
    const subscription = endpoints.subscribe(['t']);
    const deadline = Date.now() + 5000;
    while ((await channelSubscribers(redis!.url, ['t'])).t !== 1) {
      if (Date.now() > deadline) throw new Error('not subscribed');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const client = await createClient({ url: redis!.url }).connect();
    try {
      for (let i = 0; i < 2000; i++) void client.publish(`${PREFIX}t`, `garbage ${i}`);
      await client.publish(`${PREFIX}t`, 'the last garbage');
    } finally {
      client.destroy();
    }
    const until = Date.now() + 3000;
    while (reports.length < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reports[0]).to.match(/is not a publication of this library/);
    expect(reports[1]).to.match(/^2000 messages dropped in the last second; the last: .*not a publication/);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(reports, 'two reports for 2,001 messages').to.have.length(2);
    subscription.unsubscribe();
  });

  it('refuses a prefix with the "#" that ends it in each channel name', () => {
    expect(() => redisBackplane({ prefix: 'app#chat' })).to.throw(TypeError, /without "#"/);
  });

  it('apps whose prefixes overlap do not hear each other', async () => {
    const plain = await mount();
    const longer = await mount('express-file-endpoints:chat/');
    const heard = plain.subscribe(['chat/general', 'marker']);
    const deadline = Date.now() + 5000;
    while ((await channelSubscribers(redis!.url, ['marker'])).marker !== 1) {
      if (Date.now() > deadline) throw new Error('not subscribed');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    longer.publish('general', 'from the other app');
    const other = await mount();
    other.publish('marker', 'marker');
    const { value } = await heard[Symbol.asyncIterator]().next();
    expect(value!.topic, 'the marker comes first: the other app was not heard').to.equal('marker');
    heard.unsubscribe();
  });
});

describe('topics across processes on Redis', function () {
  this.timeout(30_000);
  let redis: RedisServer | undefined;
  let processes: Processes | undefined;
  const streams: EventClient[] = [];

  before(function () {
    if (!redisAvailable()) {
      console.log(`      skipped: ${INSTALL_HINT}`);
      this.skip();
    }
  });

  beforeEach(async () => {
    redis = await startRedis();
    processes = await forkServers(3, { BACKPLANE: 'redis', REDIS_URL: redis.url });
  });

  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await processes?.close();
    await redis?.stop();
  });

  const ready = async (servers: ServerProcess[]) => {
    for (const server of servers) {
      const deadline = Date.now() + 10_000;
      while (!(await server.stats()).backplane?.up) {
        if (Date.now() > deadline) throw new Error('the backplane did not connect');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };

  it('a POST on A reaches the sockets and streams on B and C exactly once, in order; not the others', async () => {
    const [a, b, c] = processes!.servers as [ServerProcess, ServerProcess, ServerProcess];
    await ready([a, b, c]);
    const onB = await listenersOn(b);
    const onC = await listenersOn(c);
    streams.push(onB.feedStream, onC.feedStream);
    // B's and C's subscribing connections listen to `feed` (A has no subscriber of it) and to `other`.
    const deadline = Date.now() + 5000;
    for (;;) {
      const counts = await channelSubscribers(redis!.url, ['feed', 'other']);
      if (counts.feed === 2 && counts.other === 2) break;
      if (Date.now() > deadline) throw new Error(`subscriptions not in place: ${JSON.stringify(counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const sent = Array.from({ length: 40 }, (_, i) => `message ${i}`);
    for (const message of sent) await publishOver(a.base, 'feed', message);

    for (const listeners of [onB, onC]) {
      expect(await listeners.feedSocket.waitFor(sent.length)).to.deep.equal(sent);
      expect(await listeners.feedStream.waitFor(sent.length)).to.deep.equal(sent.map((m) => `feed ${m}`));
    }
    // Anything extra (a duplicate) would have arrived by the time a second round trip through Redis has.
    await publishOver(a.base, 'other', 'marker');
    for (const listeners of [onB, onC]) {
      expect(await listeners.otherSocket.waitFor(1)).to.deep.equal(['marker']);
      expect(listeners.feedSocket.received).to.have.length(sent.length);
      expect(listeners.feedStream.received).to.have.length(sent.length);
      expect(listeners.leftSocket.received, 'unsubscribed').to.deep.equal([]);
    }
    expect(a.errors).to.deep.equal([]);
  });

  it('survives the broker dying: publications meanwhile are reported, delivery resumes on the same sockets', async () => {
    const [a, b, c] = processes!.servers as [ServerProcess, ServerProcess, ServerProcess];
    await ready([a, b, c]);
    const onA = await socketClient(`${a.wsBase}/ws?topic=feed`);
    const onB = await listenersOn(b);
    const onC = await listenersOn(c);
    streams.push(onB.feedStream, onC.feedStream);
    const deadline = Date.now() + 5000;
    while ((await channelSubscribers(redis!.url, ['feed'])).feed !== 3) {
      if (Date.now() > deadline) throw new Error('subscriptions not in place');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await publishOver(a.base, 'feed', 'before');
    await onB.feedSocket.waitFor(1);
    await onC.feedStream.waitFor(1);

    await redis!.kill();
    await until(
      () => a.errors.some((error) => error.export === 'topics.connect'),
      5000,
      'A to report the outage',
    );
    for (let i = 0; i < 5; i++) await publishOver(a.base, 'feed', `gap ${i}`);
    // A's own subscriber does not depend on the broker.
    expect(await onA.waitFor(6)).to.deep.equal(['before', 'gap 0', 'gap 1', 'gap 2', 'gap 3', 'gap 4']);
    const duringOutage = await a.stats();
    expect(duringOutage.lost).to.equal(5);
    expect(duringOutage.backplane).to.deep.equal({ name: 'redis', up: false });

    await redis!.restart();
    await ready([a, b, c]);
    // The channels are listened to again, by the same processes, without any client reconnecting.
    const again = Date.now() + 5000;
    while ((await channelSubscribers(redis!.url, ['feed', 'other'])).feed !== 3) {
      if (Date.now() > again) throw new Error('subscriptions not restored');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await publishOver(a.base, 'feed', 'after');
    for (const listeners of [onB, onC]) {
      expect(await listeners.feedSocket.waitFor(2)).to.deep.equal(['before', 'after']);
      expect(await listeners.feedStream.waitFor(2)).to.deep.equal(['feed before', 'feed after']);
      expect(listeners.feedSocket.ws.readyState, 'never closed').to.equal(1);
    }
    expect(onA.received.at(-1)).to.equal('after');
    // The outage was told once, and what it lost once it was over.
    await until(
      () => a.errors.some((error) => error.export === 'topics.publish'),
      5000,
      'the count of lost publications',
    );
    expect(a.errors.filter((error) => error.export === 'topics.connect')).to.have.length(1);
    expect(a.errors.find((error) => error.export === 'topics.publish')!.message).to.match(
      /^5 publications of this process did not reach the other processes while the redis backplane was down$/,
    );
  });
});
