/**
 * `redisBackplane()`: publications carried between processes, on any number of machines, by Redis
 * (or Valkey) pub/sub, through node-redis. A topic's channel is `<prefix>#<topic>`.
 *
 * Two connections: one publishes, one subscribes (a subscribed Redis connection takes no other
 * commands). Each topic is a channel, subscribed while this process has a subscriber of it, so a
 * process only hears the topics it needs. All of a process's publications go through its one
 * publishing connection, and Redis hands a connection's messages to each subscribed connection in
 * the order it ran them: each process hears another's publications once, in the order it made them.
 *
 * Pub/sub keeps nothing. While the broker is away a publication cannot be sent, and it is not
 * queued to be sent late: the publishing connection refuses it at once (`disableOfflineQueue`),
 * and the mount counts it and tells `onError` once per outage. Both connections reconnect with
 * backoff, for ever; node-redis subscribes its channels again on reconnect, and the backplane asks
 * again for every topic it wants, which Redis ignores for a channel it already has.
 */
import type { Backplane, BackplaneLink } from '../types';
import { decodeEnvelope, encodeEnvelope } from './envelope';
import { shut, type RedisClientLike, type RedisMessageListener } from './redis-client';
import { loadRedisLibrary } from './redis-library';

export interface RedisBackplaneOptions {
  /** Where Redis or Valkey listens: `redis://[[user]:password@]host[:port][/db]`, `rediss://` for TLS. Default `redis://localhost:6379`. */
  url?: string;
  /**
   * A node-redis client (`createClient()` of `redis` 5 or later), connected or not, whose settings the
   * backplane copies (`duplicate()`) for its two connections: TLS, credentials, Sentinel or a
   * reconnect strategy of your own. It is never used nor closed by the backplane. Takes the place of `url`.
   */
  client?: RedisClientLike;
  /**
   * Names this app's channels, so that apps sharing a Redis do not hear each other: a topic's channel is
   * `<prefix>#<topic>`. It may not hold a `#`, so no two apps' prefixes and topics make one channel.
   * Default `'express-file-endpoints'`.
   */
  prefix?: string;
  /** Milliseconds before the first reconnection attempt, doubled on each failure up to `maxDelay`. Default 100. */
  initialDelay?: number;
  /** The longest wait between reconnection attempts, in milliseconds. Default 5,000. */
  maxDelay?: number;
}

/**
 * Ends a channel's prefix. A prefix cannot hold it, so the first one in a channel's name tells
 * prefix from topic: `chat/` + `general` and `` + `chat/general` are two channels, not one.
 */
const SEPARATOR = '#';

export function redisBackplane(options: RedisBackplaneOptions = {}): Backplane {
  const given = options.prefix ?? 'express-file-endpoints';
  if (typeof given !== 'string' || given.includes(SEPARATOR)) {
    throw new TypeError(
      `redisBackplane({ prefix }): a prefix is a string without "${SEPARATOR}", which ends it in each channel's name; got ${JSON.stringify(given)}`,
    );
  }
  const prefix = given + SEPARATOR;
  const initialDelay = options.initialDelay ?? 100;
  const maxDelay = options.maxDelay ?? 5000;
  // Exponential backoff with jitter, never giving up: a broker that comes back is used again.
  const reconnectStrategy = (retries: number) =>
    Math.min(initialDelay * 2 ** Math.min(retries, 16), maxDelay) + Math.floor(Math.random() * initialDelay);

  let link: BackplaneLink | undefined;
  let publisher: RedisClientLike | undefined;
  let subscriber: RedisClientLike | undefined;
  let closed = false;
  /** The topics this process has subscribers of: what the subscribing connection must listen to. */
  const wanted = new Set<string>();
  const ready = { publisher: false, subscriber: false };

  const onMessage: RedisMessageListener = (message, channel) => {
    const name = channel.toString('utf8');
    if (!name.startsWith(prefix)) return;
    const decoded = decodeEnvelope(name.slice(prefix.length), message);
    if (decoded === undefined) {
      link!.failed(
        'receive',
        new Error(`a message on Redis channel ${name} is not a publication of this library`),
      );
      return;
    }
    link!.receive(decoded);
  };

  const listen = (topics: string[]) => {
    if (subscriber === undefined || topics.length === 0) return;
    subscriber
      .subscribe(
        topics.map((topic) => prefix + topic),
        onMessage,
        true,
      )
      .catch((error: unknown) => {
        // Refused while the connection was away: asked again once it is back (see 'ready').
        if (subscriber?.isReady) link!.failed('subscribe', error, topics[0]);
      });
  };

  const watch = (client: RedisClientLike, role: keyof typeof ready) => {
    client.on('error', (error) => {
      ready[role] = false;
      // Every failed attempt is an error event: the mount tells the first of an outage only.
      if (!closed) link!.status('down', error);
    });
    client.on('reconnecting', () => void (ready[role] = false));
    client.on('end', () => void (ready[role] = false));
    client.on('ready', () => {
      ready[role] = true;
      if (role === 'subscriber') listen([...wanted]);
      if (ready.publisher && ready.subscriber && !closed) link!.status('up');
    });
  };

  const connect = async (given: BackplaneLink) => {
    let base = options.client;
    if (base === undefined) {
      const { createClient } = await loadRedisLibrary('redisBackplane()');
      base = createClient({ url: options.url, socket: { reconnectStrategy } });
    }
    if (closed) return;
    // A publication that cannot be sent now is refused now, not sent late: this is pub/sub, not a queue.
    publisher = base.duplicate({ disableOfflineQueue: true });
    // Subscriptions asked for while away wait for the connection, and are sent once it is back.
    subscriber = base.duplicate({ disableOfflineQueue: false });
    watch(publisher, 'publisher');
    watch(subscriber, 'subscriber');
    // connect() retries by itself until it succeeds: it settles once connected, or when closed.
    await Promise.all([publisher.connect(), subscriber.connect()]).catch((error: unknown) => {
      if (!closed) given.failed('connect', error);
    });
  };

  return {
    name: 'redis',
    start(given) {
      link = given;
      given.status('down');
      connect(given).catch((error: unknown) => {
        given.failed('connect', error);
      });
    },
    subscribe(topic) {
      wanted.add(topic);
      if (ready.subscriber) listen([topic]);
    },
    unsubscribe(topic) {
      wanted.delete(topic);
      subscriber?.unsubscribe(prefix + topic, onMessage, true).catch((error: unknown) => {
        if (subscriber?.isReady) link!.failed('subscribe', error, topic);
      });
    },
    publish(message) {
      if (publisher === undefined || !ready.publisher) {
        link!.failed('publish', new Error('the Redis backplane is not connected'), message.topic);
        return;
      }
      publisher.publish(prefix + message.topic, encodeEnvelope(message)).catch((error: unknown) => {
        link!.failed('publish', error, message.topic);
      });
    },
    async close() {
      closed = true;
      await Promise.all([publisher, subscriber].map((client) => client && shut(client)));
    },
  };
}
