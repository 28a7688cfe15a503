/**
 * A stream's subscription to topics: the publications as an async iterator, for a streamed
 * response (`toEventStream()` writes them as server-sent events). What the reader has not read yet
 * waits in a queue bounded by the mount's `backpressureLimit`: a reader that falls further behind
 * is unsubscribed and its queue freed, and its next read throws, rather than the server holding
 * everything for it.
 */
import type {
  TopicEventStreamOptions,
  TopicMessage,
  TopicSubscribeOptions,
  TopicSubscription,
} from '../types';
import { checkTopic, type Publication } from './publication';
import type { Subscriber, TopicHub } from './topic-hub';
import { EventWriter } from '../event-stream';

/** Thrown by the next read of a subscription whose reader fell `backpressureLimit` bytes behind. */
export class SlowSubscriberError extends Error {
  override name = 'SlowSubscriberError';
}

export class TopicStream<T extends string> implements Subscriber, TopicSubscription<T> {
  readonly topics: readonly T[];
  readonly #hub: TopicHub;
  readonly #queue: Publication[] = [];
  /** Bytes waiting in the queue. */
  #queued = 0;
  #state: 'open' | 'ended' | 'overflowed' = 'open';
  /** Ended by the mount closing, rather than by the reader or the signal: an event stream says so last. */
  #shutDown = false;
  #waiting: (() => void)[] = [];
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = () => this.#end(true);

  constructor(hub: TopicHub, topics: T | readonly T[], options: TopicSubscribeOptions = {}) {
    const list = (typeof topics === 'string' ? [topics] : [...topics]) as T[];
    for (const topic of list) checkTopic(topic, 'subscribe(topics)');
    this.topics = Object.freeze([...new Set(list)]);
    this.#hub = hub;
    const signal = options.signal;
    this.#signal = signal;
    // Made after its signal aborted, or once the mount is closing: ended from the start, as the
    // mount's close would have ended it.
    if (signal?.aborted || hub.closed) {
      this.#state = 'ended';
      this.#shutDown = hub.closed;
      return;
    }
    signal?.addEventListener('abort', this.#onAbort, { once: true });
    for (const topic of this.topics) hub.subscribe(this, topic);
  }

  deliver(publication: Publication): void {
    if (this.#state !== 'open') return;
    const size = publication.size;
    if (this.#queued > 0 && this.#queued + size > this.#hub.backpressureLimit) {
      this.#state = 'overflowed';
      this.#unsubscribeAll();
      this.#queue.length = 0;
      this.#queued = 0;
      this.#hub.droppedSlow(publication.topic, 'stream');
      this.#wake();
      return;
    }
    this.#queue.push(publication);
    this.#queued += size;
    this.#wake();
  }

  /** The mount is closing. */
  end(): void {
    if (this.#state === 'open') this.#shutDown = true;
    this.#end(false);
  }

  unsubscribe(): void {
    this.#end(false);
  }

  async next(): Promise<IteratorResult<TopicMessage<T>>> {
    for (;;) {
      const publication = this.#queue.shift();
      if (publication !== undefined) {
        this.#queued -= publication.size;
        return { value: publication as unknown as TopicMessage<T>, done: false };
      }
      if (this.#state === 'overflowed') {
        this.#state = 'ended';
        throw new SlowSubscriberError(
          `a subscription to ${this.topics.join(', ')} fell more than ${this.#hub.backpressureLimit} bytes behind and was ended`,
        );
      }
      if (this.#state === 'ended') return { value: undefined, done: true };
      await new Promise<void>((wake) => this.#waiting.push(wake));
    }
  }

  /** `break` in a `for await` loop, or the loop's body throwing: unsubscribes. */
  async return(): Promise<IteratorResult<TopicMessage<T>>> {
    this.#end(true);
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  toEventStream(options: TopicEventStreamOptions = {}): ReadableStream<Uint8Array> {
    // The subscription's own bytes: a comment and each heartbeat a block of their own.
    const writer = new EventWriter<string>({
      heartbeat: options.heartbeat,
      shutdownEvent: options.shutdownEvent,
      caller: 'toEventStream',
      heartbeatText: ':\n\n',
    });
    // A comment first: the response starts at once, and the client knows it is subscribed.
    void writer.sendFramed(': subscribed\n\n');
    // The reader left (or the stream ended): what is queued for it is dropped.
    writer.signal.addEventListener('abort', () => this.#end(true), { once: true });
    void this.#writeTo(writer);
    return writer.body;
  }

  /**
   * Hands each message to `writer` once the reader took the one before: unread messages wait in the
   * bounded queue, where they are counted. A reader that fell behind makes the next read throw, and
   * the stream fails; ended by the mount closing, the stream ends with its final event.
   */
  async #writeTo(writer: EventWriter<string>): Promise<void> {
    try {
      for (let next = await this.next(); !next.done; next = await this.next()) {
        if (!(await writer.send(eventOf(next.value)))) return;
      }
    } catch (error) {
      writer.fail(error);
      return;
    }
    if (this.#shutDown) writer.control.shutdown(undefined);
    else writer.close();
  }

  /** Unsubscribes; `discard` also drops what is queued (nobody will read it). */
  #end(discard: boolean): void {
    if (discard) {
      this.#queue.length = 0;
      this.#queued = 0;
    }
    if (this.#state !== 'open') return;
    this.#state = 'ended';
    this.#unsubscribeAll();
    this.#wake();
  }

  #unsubscribeAll(): void {
    this.#signal?.removeEventListener('abort', this.#onAbort);
    for (const topic of this.topics) this.#hub.unsubscribe(this, topic);
  }

  #wake(): void {
    const waiting = this.#waiting;
    if (waiting.length === 0) return;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }
}

/** One server-sent event: the topic as its type, the data line by line (bytes read as UTF-8). */
function eventOf(message: TopicMessage): { event: string; data: string } {
  const data = typeof message.data === 'string' ? message.data : Buffer.from(message.data).toString('utf8');
  // The topic is the event's name, which may not hold a line break (it would end the field early).
  return { event: message.topic.replace(/[\r\n]+/g, ' '), data };
}
