/**
 * `broadcastChannelBackplane()`: publications carried by a `BroadcastChannel`, which reaches the
 * main thread and the worker threads of one process (`node:worker_threads`), not other processes.
 * Messages go as structured clones, bytes and all; every mount on the channel hears every topic and
 * keeps the ones it has subscribers for.
 */
import type { Backplane, BackplaneLink, BackplaneMessage } from '../types';

export interface BroadcastChannelBackplaneOptions {
  /** The channel's name: mounts on the same name hear each other. Default `'express-file-endpoints:topics'`. */
  channel?: string;
}

export function broadcastChannelBackplane(options: BroadcastChannelBackplaneOptions = {}): Backplane {
  const name = options.channel ?? 'express-file-endpoints:topics';
  let channel: BroadcastChannel | undefined;
  let link: BackplaneLink | undefined;
  return {
    name: 'broadcast-channel',
    start(given) {
      link = given;
      const opened = new BroadcastChannel(name);
      channel = opened;
      opened.onmessage = (event: MessageEvent<unknown>) => {
        if (isMessage(event.data)) given.receive(event.data);
      };
      opened.onmessageerror = (event) =>
        given.failed(
          'receive',
          new Error(`a message on BroadcastChannel ${name} could not be read`, { cause: event }),
        );
      // The app's server keeps the process alive; the channel must not once the app is done.
      (opened as BroadcastChannel & { unref?: () => void }).unref?.();
      given.status('up');
    },
    subscribe() {},
    unsubscribe() {},
    publish(message) {
      try {
        channel!.postMessage({ topic: message.topic, data: message.data, origin: message.origin });
      } catch (error) {
        link!.failed('publish', error, message.topic);
      }
    },
    async close() {
      channel?.close();
      channel = undefined;
    },
  };
}

function isMessage(value: unknown): value is BackplaneMessage {
  const message = value as Partial<BackplaneMessage> | null;
  return (
    typeof message?.topic === 'string' &&
    typeof message.origin === 'string' &&
    (typeof message.data === 'string' || message.data instanceof Uint8Array)
  );
}
