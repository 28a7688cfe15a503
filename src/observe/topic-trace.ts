/**
 * What tracing sees of topics: a publication fanned out in the process that made it
 * (`express-file-endpoints:publish`), one from another process fanned out here
 * (`express-file-endpoints:deliver`), and what was dropped (`express-file-endpoints:drop`). Nothing
 * is built or published unless someone subscribes.
 */
import {
  deliverChannel,
  dropChannel,
  publishChannel,
  type DeliverTraceContext,
  type DropMessage,
  type PublishTraceContext,
} from './channels';

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
  if (!publishChannel.hasSubscribers) {
    fanOut();
    return;
  }
  const context: PublishTraceContext = { topic: message.topic, size: message.size, delivered: 0, backplane };
  publishChannel.start.runStores(context, () => {
    try {
      context.delivered = fanOut();
    } finally {
      publishChannel.end.publish(context);
    }
  });
}

/** Runs `fanOut` for a publication that came from another process, inside its trace. */
export function traceDeliver(message: TracedMessage, backplane: string, fanOut: () => number): void {
  if (!deliverChannel.hasSubscribers) {
    fanOut();
    return;
  }
  const context: DeliverTraceContext = { topic: message.topic, size: message.size, delivered: 0, backplane };
  deliverChannel.start.runStores(context, () => {
    try {
      context.delivered = fanOut();
    } finally {
      deliverChannel.end.publish(context);
    }
  });
}

export function traceDrop(topic: string, reason: DropMessage['reason'], subscriber: string): void {
  if (dropChannel.hasSubscribers) dropChannel.publish({ topic, reason, subscriber } satisfies DropMessage);
}
