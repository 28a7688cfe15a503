/**
 * `clusterBackplane()` and `setupClusterPrimary()`: publications carried between the workers of a
 * `node:cluster` over its IPC channels, with no broker. Workers cannot message each other, so the
 * primary relays: each worker tells it which topics it has subscribers for, and it forwards a
 * publication to the workers that have, in the order it came, never back to the sender. IPC keeps
 * each channel's order, so a worker's publications reach each other worker in the order it made them.
 * Messages are JSON (the cluster's default serialization), bytes in base64. Any worker may send
 * anything, so each end checks a message's shape before it uses it: the primary relays only
 * publications and subscriptions of the right shape, and a worker reports a malformed one and drops it.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Backplane, BackplaneLink, BackplaneMessage } from '../types';
import { isTopic } from './publication';

/** Marks this library's IPC messages among the app's own; its value is the channel's name. */
const TAG = 'express-file-endpoints:topics';
const DEFAULT_CHANNEL = 'default';

type WireMessage =
  | { [TAG]: string; kind: 'subscribe' | 'unsubscribe'; topic: string }
  | { [TAG]: string; kind: 'publish'; topic: string; origin: string; text?: string; base64?: string };

export interface ClusterBackplaneOptions {
  /** Mounts on the same channel hear each other; another channel is another app. Default `'default'`. */
  channel?: string;
}

export function clusterBackplane(options: ClusterBackplaneOptions = {}): Backplane {
  const channel = options.channel ?? DEFAULT_CHANNEL;
  let link: BackplaneLink | undefined;
  let onMessage: ((message: unknown) => void) | undefined;
  let onDisconnect: (() => void) | undefined;
  const send = (message: WireMessage, topic: string, stage: 'publish' | 'subscribe') => {
    if (!process.connected) {
      link!.failed(stage, new Error('the IPC channel to the cluster primary is closed'), topic);
      return;
    }
    try {
      process.send!(message, undefined, undefined, (error: Error | null) => {
        if (error) link!.failed(stage, error, topic);
      });
    } catch (error) {
      link!.failed(stage, error, topic);
    }
  };
  return {
    name: 'cluster',
    start(given) {
      if (!cluster.isWorker || typeof process.send !== 'function') {
        throw new Error(
          'clusterBackplane() runs in the workers of a node:cluster, and the primary calls setupClusterPrimary(); for worker threads use broadcastChannelBackplane()',
        );
      }
      link = given;
      onMessage = (message) => {
        if (channelOf(message) !== channel) return;
        const publication = publicationIn(message as Record<string, unknown>);
        if (publication === undefined) {
          given.failed(
            'receive',
            new Error(`a message on cluster channel ${channel} is not a publication of this library`),
          );
          return;
        }
        given.receive(publication);
      };
      onDisconnect = () => given.status('down', new Error('the IPC channel to the cluster primary closed'));
      process.on('message', onMessage);
      process.once('disconnect', onDisconnect);
      given.status('up');
    },
    subscribe(topic) {
      send({ [TAG]: channel, kind: 'subscribe', topic }, topic, 'subscribe');
    },
    unsubscribe(topic) {
      send({ [TAG]: channel, kind: 'unsubscribe', topic }, topic, 'subscribe');
    },
    publish(message) {
      const { topic, data, origin } = message;
      const wire: WireMessage =
        typeof data === 'string'
          ? { [TAG]: channel, kind: 'publish', topic, origin, text: data }
          : {
              [TAG]: channel,
              kind: 'publish',
              topic,
              origin,
              base64: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64'),
            };
      send(wire, topic, 'publish');
    },
    async close() {
      if (onMessage) process.off('message', onMessage);
      if (onDisconnect) process.off('disconnect', onDisconnect);
      onMessage = onDisconnect = undefined;
    },
  };
}

let relaying = false;

/**
 * Call once in the cluster's primary: it relays the workers' publications to each other. Nothing
 * happens in a worker, so it may be called before the `cluster.isPrimary` branch.
 */
export function setupClusterPrimary(): void {
  if (!cluster.isPrimary || relaying) return;
  relaying = true;
  // Per worker, per channel, the topics it has subscribers for.
  const topicsOf = new Map<Worker, Map<string, Set<string>>>();
  cluster.on('message', (worker: Worker, message: unknown) => {
    const channel = channelOf(message);
    if (channel === undefined) return;
    const wire = message as WireMessage;
    // Relayed as it came, so only what a worker could use: a malformed publication goes nowhere.
    if (wire.kind === 'publish' ? publicationIn(wire) === undefined : !isSubscription(wire)) return;
    let channels = topicsOf.get(worker);
    if (channels === undefined) topicsOf.set(worker, (channels = new Map()));
    let topics = channels.get(channel);
    if (topics === undefined) channels.set(channel, (topics = new Set()));
    if (wire.kind === 'subscribe') topics.add(wire.topic);
    else if (wire.kind === 'unsubscribe') topics.delete(wire.topic);
    else {
      for (const [other, otherChannels] of topicsOf) {
        if (other === worker || !otherChannels.get(channel)?.has(wire.topic) || !other.isConnected())
          continue;
        // A worker that exits meanwhile misses it, as it would any other message.
        other.send(wire, undefined, () => {});
      }
    }
  });
  cluster.on('exit', (worker: Worker) => topicsOf.delete(worker));
}

/** The channel an IPC message of this library is on; `undefined` for the app's own messages. */
function channelOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const channel = (message as Record<string, unknown>)[TAG];
  return typeof channel === 'string' ? channel : undefined;
}

function isSubscription(wire: Record<string, unknown>): boolean {
  return (wire.kind === 'subscribe' || wire.kind === 'unsubscribe') && isTopic(wire.topic);
}

/** The publication a message carries, or `undefined` when it has not the shape a worker sends. */
function publicationIn(wire: Record<string, unknown>): BackplaneMessage | undefined {
  const { kind, topic, origin, text, base64 } = wire;
  if (kind !== 'publish' || !isTopic(topic) || typeof origin !== 'string') return undefined;
  if (typeof text === 'string' && base64 === undefined) return { topic, data: text, origin };
  if (typeof base64 === 'string' && text === undefined) {
    return { topic, data: new Uint8Array(Buffer.from(base64, 'base64')), origin };
  }
  return undefined;
}
