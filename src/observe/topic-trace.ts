/**
 * What tracing sees of topics: a publication fanned out in the process that made it
 * (`express-file-endpoints:publish`), one from another process fanned out here
 * (`express-file-endpoints:deliver`), and what was dropped (`express-file-endpoints:drop`). Nothing
 * is built or published unless someone subscribes.
 */
import { deliverChannel, dropChannel, publishChannel, type DropMessage } from './channels';
import type { TracingChannel } from 'node:diagnostics_channel';

/** What a trace reads of a publication: `size` is only read when someone subscribes. */
export interface TracedMessage {
  readonly topic: string;
  readonly size: number;
}

/** Runs `fanOut` (which returns how many subscribers it reached) inside the publication's trace. */
export function tracePublish(
  message: TracedMessage,
  backplane: string | undefined,
  fanOut: () => number,
): void {
  traceFanOut(publishChannel, message, backplane, fanOut);
}

/** Runs `fanOut` for a publication that came from another process, inside its trace. */
export function traceDeliver(message: TracedMessage, backplane: string, fanOut: () => number): void {
  traceFanOut(deliverChannel, message, backplane, fanOut);
}

/** The one way a fan-out is traced: `start` and `end` around it, `delivered` set before `end`. */
function traceFanOut<B extends string | undefined>(
  channel: TracingChannel<unknown, { topic: string; size: number; delivered: number; backplane: B }>,
  message: TracedMessage,
  backplane: B,
  fanOut: () => number,
): void {
  if (!channel.hasSubscribers) {
    fanOut();
    return;
  }
  const context = { topic: message.topic, size: message.size, delivered: 0, backplane };
  channel.start.runStores(context, () => {
    try {
      context.delivered = fanOut();
    } finally {
      channel.end.publish(context);
    }
  });
}

export function traceDrop(topic: string, reason: DropMessage['reason'], subscriber: string): void {
  if (dropChannel.hasSubscribers) dropChannel.publish({ topic, reason, subscriber } satisfies DropMessage);
}
