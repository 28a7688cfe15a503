/**
 * `clusterBackplane()` and `setupClusterPrimary()`: publications carried between the workers of a
 * `node:cluster` over its IPC channels, with no broker. Workers cannot message each other, so the
 * primary relays: each worker tells it which topics it has subscribers for, and it forwards a
 * publication to the workers that have, in the order it came, never back to the sender. IPC keeps
 * each channel's order, so a worker's publications reach each other worker in the order it made them.
 * Messages are JSON (the cluster's default serialization), bytes in base64.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Backplane, BackplaneLink } from '../types';

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
        const wire = message as WireMessage | null;
        if (wire?.[TAG] !== channel || wire.kind !== 'publish') return;
        const data =
          wire.base64 === undefined ? (wire.text ?? '') : new Uint8Array(Buffer.from(wire.base64, 'base64'));
        given.receive({ topic: wire.topic, data, origin: wire.origin });
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
    const wire = message as WireMessage | null;
    const channel = wire?.[TAG];
    if (typeof channel !== 'string') return;
    let channels = topicsOf.get(worker);
    if (channels === undefined) topicsOf.set(worker, (channels = new Map()));
    let topics = channels.get(channel);
    if (topics === undefined) channels.set(channel, (topics = new Set()));
    if (wire!.kind === 'subscribe') topics.add(wire!.topic);
    else if (wire!.kind === 'unsubscribe') topics.delete(wire!.topic);
    else {
      for (const [other, otherChannels] of topicsOf) {
        if (other === worker || !otherChannels.get(channel)?.has(wire!.topic) || !other.isConnected())
          continue;
        // A worker that exits meanwhile misses it, as it would any other message.
        other.send(wire!, undefined, () => {});
      }
    }
  });
  cluster.on('exit', (worker: Worker) => topicsOf.delete(worker));
}
