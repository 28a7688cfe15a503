/** Topics: publish and subscribe, the typed registry, the backplane that carries them between processes. */

/**
 * The topics the tree declares (`export const topics = …` in an endpoint), one entry per endpoint
 * that declares some, each mapping topic patterns to the data they carry; filled in by the declaration
 * file `typegen` writes. Empty, every string is a topic and any data goes.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augmented by generated code
export interface TopicRegistry {}

type DeclaredTopics = TopicRegistry[keyof TopicRegistry];
type NoTopicsDeclared = [keyof TopicRegistry] extends [never] ? true : false;

/** The topic names a pattern stands for: `chat/[room]` is any `chat/${string}`. */
export type TopicNameOf<Pattern extends string> = Pattern extends `${infer Head}[${string}]${infer Tail}`
  ? `${Head}${string}${TopicNameOf<Tail>}`
  : Pattern;

/** A topic name: any string, or once `typegen` has run, one the tree declares. */
export type Topic = NoTopicsDeclared extends true
  ? string
  : DeclaredTopics extends infer D
    ? D extends unknown
      ? TopicNameOf<Extract<keyof D, string>>
      : never
    : never;

/** What `publish(topic, data)` takes for `topic`: anything, unless the tree declares its type. */
export type TopicDataOf<T extends string> = NoTopicsDeclared extends true
  ? unknown
  : DeclaredTopics extends infer D
    ? D extends unknown
      ? { [P in Extract<keyof D, string>]: T extends TopicNameOf<P> ? D[P] : never }[Extract<keyof D, string>]
      : never
    : never;

/**
 * Publishes to a topic. A string is sent as text and bytes (`ArrayBuffer`, a typed array, a `Buffer`)
 * as binary; anything else is sent as its JSON text.
 */
export type PublishTopic = <T extends Topic>(topic: T, data: TopicDataOf<T>) => void;

/** Subscribes a stream to one topic or several. */
export type SubscribeTopics = <T extends Topic>(
  topics: T | readonly T[],
  options?: TopicSubscribeOptions,
) => TopicSubscription<T>;

export interface TopicSubscribeOptions {
  /** Ends the subscription when aborted. A handler's `subscribe` ends with its request already. */
  signal?: AbortSignal;
}

/** One publication, as a stream subscriber gets it. */
export interface TopicMessage<T extends string = string> {
  /** The topic it was published to. */
  readonly topic: T;
  /** Text as a string, bytes as a `Uint8Array`, anything else as its JSON text. */
  readonly data: string | Uint8Array;
  /** `data` parsed as JSON (bytes are read as UTF-8 first). */
  json(): TopicDataOf<T>;
}

/**
 * The messages published to some topics since the subscription began, in the order each process
 * published them. It ends when the client leaves, the signal aborts, `unsubscribe()` is called, the
 * mount closes, or it falls more than `backpressureLimit` bytes behind (then the next read throws).
 */
export interface TopicSubscription<T extends string = string> extends AsyncIterableIterator<TopicMessage<T>> {
  readonly topics: readonly T[];
  /** Ends it now: nothing more is queued, and iteration ends once what is queued is read. */
  unsubscribe(): void;
  /**
   * The messages as server-sent events (`event: <topic>`, `data: <data>`), after a first comment
   * (`: subscribed`) that starts the response at once, for
   * `new Response(subscription.toEventStream(), { headers: { 'content-type': 'text/event-stream' } })`.
   * Cancelling the stream (the client left) ends the subscription. While no message comes, a comment
   * line is sent every `heartbeat` milliseconds, so proxies do not cut the idle stream; when the mount
   * closes, the stream ends with a final event after what was already published, as `eventStream`'s do.
   */
  toEventStream(options?: TopicEventStreamOptions): ReadableStream<Uint8Array>;
}

/** `subscription.toEventStream(options)`. */
export interface TopicEventStreamOptions {
  /** Milliseconds of silence after which a comment line is sent; `false`: never. Default 15,000. */
  heartbeat?: number | false;
  /**
   * The last event when the mount closes (`endpoints.close()`), before clients reconnect elsewhere;
   * `false`: none. Default `{ event: 'shutdown', data: '' }`.
   */
  shutdownEvent?: { event?: string; data: string; id?: string } | false;
}

/** The `topics` mount option. */
export interface TopicsOptions {
  /**
   * What carries publications between the processes that mount the same tree: `redisBackplane()`,
   * `clusterBackplane()`, `broadcastChannelBackplane()`, or your own. Default: none, every
   * publication stays in this process.
   */
  backplane?: Backplane;
  /**
   * Bytes a subscriber may have waiting (a socket's `bufferedAmount`, a stream's unread messages)
   * before the next publication closes it (a socket with 1013, Try Again Later) rather than holding
   * more for it. Default 1 MiB.
   */
  backpressureLimit?: number;
}

/** One publication as backplanes carry it. */
export interface BackplaneMessage {
  readonly topic: string;
  /** Text, or bytes. */
  readonly data: string | Uint8Array;
  /** The publishing mount's id: a backplane that hears its own publications back hands them on, the mount drops them. */
  readonly origin: string;
}

/** What a mount gives its backplane to report to. */
export interface BackplaneLink {
  /** The mount's id, unique per process and mount: what `origin` is for its own publications. */
  readonly origin: string;
  /** A publication from another process (one of this mount's own is ignored). */
  receive(message: BackplaneMessage): void;
  /** The connection to the broker is up (again) or down; `error` says why it went down. */
  status(state: 'up' | 'down', error?: unknown): void;
  /**
   * Something failed. A failed `publish` is a publication the other processes will not get: it is
   * counted, and told to `onError` unless the backplane already said it is down.
   */
  failed(stage: 'connect' | 'publish' | 'subscribe' | 'receive', error: unknown, topic?: string): void;
}

/**
 * Carries publications between the processes of an app. A mount calls `start` once, then
 * `subscribe` when its first subscriber of a topic arrives and `unsubscribe` when the last one
 * leaves, and `publish` for each of its publications. None of them may throw or reject: failures go
 * to the link. Messages one process publishes must reach each other process once, in that order.
 */
export interface Backplane {
  /** For messages: `redis`, `cluster`. */
  readonly name: string;
  start(link: BackplaneLink): void;
  subscribe(topic: string): void;
  unsubscribe(topic: string): void;
  publish(message: BackplaneMessage): void;
  /** Disconnects; resolves once done. */
  close(): Promise<void>;
}

/** `endpoints.topicStats()`: what the topics of a mount did since it started. */
export interface TopicStats {
  /** Publications made in this process. */
  published: number;
  /** Publications from other processes that reached this one. */
  received: number;
  /** Messages handed to this process's subscribers (one per subscriber reached). */
  delivered: number;
  /** Subscribers closed for falling `backpressureLimit` bytes behind. */
  slowSubscribers: number;
  /** Publications of this process that the backplane could not carry to the others. */
  lost: number;
  /** The backplane's name and whether it is connected now; `undefined` without one. */
  backplane: { name: string; up: boolean } | undefined;
}
