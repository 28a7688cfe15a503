/**
 * A mount's topics: who subscribes to what in this process, the fan-out of a publication to them,
 * and the backplane that carries publications to the mount's other processes and theirs here.
 *
 * A publication reaches this process's subscribers at once, as `publish()` runs, and is handed to
 * the backplane for the others; the backplane's copy coming back (Redis sends a publisher's
 * messages to itself too) is recognized by its origin and dropped, so no subscriber hears a
 * publication twice. Delivery is synchronous and never calls user code, so a subscriber set is
 * never added to while it is walked (a slow subscriber may leave it: a Set allows that).
 */
import { randomBytes } from 'node:crypto';
import { traceDeliver, traceDrop, tracePublish } from '../observe';
import type { Backplane, BackplaneLink, BackplaneMessage, TopicStats } from '../types';
import { checkTopic, normalizeData, Publication } from './publication';
import { ThrottledReport } from './throttled-report';

/** A socket or a stream: what publications are handed to. */
export interface Subscriber {
  /** Hands a publication over; never throws, never runs user code before it returns. */
  deliver(publication: Publication): void;
  /** The mount is closing: end now. */
  end?(): void;
}

/** Where the hub tells what went wrong: `what` is `topics.publish`, `topics.connect`, … */
export type TopicErrorReporter = (error: unknown, what: string, backplane: string, topic?: string) => void;

export interface TopicHubOptions {
  backplane?: Backplane;
  /** Bytes a subscriber may have waiting before it is closed. Default 1 MiB. */
  backpressureLimit?: number;
  report: TopicErrorReporter;
}

export const DEFAULT_BACKPRESSURE_LIMIT = 1024 * 1024;

/** Backplanes already started: one serves one mount, whose origin it stamps. */
const started = new WeakSet<Backplane>();

export class TopicHub {
  /** This mount's id on the backplane: 16 hex digits, random per process and mount. */
  readonly origin = randomBytes(8).toString('hex');
  readonly backpressureLimit: number;
  readonly #topics = new Map<string, Set<Subscriber>>();
  readonly #backplane: Backplane | undefined;
  readonly #report: TopicErrorReporter;
  /** What the backplane said last: `unknown` until it says anything. */
  #state: 'unknown' | 'up' | 'down' = 'unknown';
  /** The outage has been told to onError: the backplane repeats itself on every retry, we do not. */
  #toldDown = false;
  /** Publications lost since the backplane said it is down; told in one report when it is back. */
  #lostWhileDown = 0;
  #closed = false;
  /** Messages from the backplane that are not publications, told at most once a second. */
  #malformed: ThrottledReport | undefined;
  readonly #stats = { published: 0, received: 0, delivered: 0, slowSubscribers: 0, lost: 0 };

  constructor(options: TopicHubOptions) {
    const limit = options.backpressureLimit ?? DEFAULT_BACKPRESSURE_LIMIT;
    if (!(limit > 0)) {
      throw new TypeError(`topics.backpressureLimit must be a number of bytes above 0, got ${String(limit)}`);
    }
    this.backpressureLimit = limit;
    this.#report = options.report;
    const backplane = options.backplane;
    this.#backplane = backplane;
    if (backplane === undefined) return;
    if (started.has(backplane)) {
      throw new Error(
        `the ${backplane.name} backplane already serves another mount; give each mount its own backplane`,
      );
    }
    started.add(backplane);
    backplane.start(this.#link());
  }

  /** Whether `close()` was called: no subscription begins after it. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Adds `subscriber` to `topic`; false when it already was. */
  subscribe(subscriber: Subscriber, topic: string): boolean {
    let subscribers = this.#topics.get(topic);
    if (subscribers === undefined) {
      if (this.#closed) return false;
      subscribers = new Set();
      this.#topics.set(topic, subscribers);
      // The first subscriber of a topic in this process: from now on the backplane brings its publications here.
      this.#backplane?.subscribe(topic);
    } else if (subscribers.has(subscriber)) {
      return false;
    }
    subscribers.add(subscriber);
    return true;
  }

  unsubscribe(subscriber: Subscriber, topic: string): boolean {
    const subscribers = this.#topics.get(topic);
    if (subscribers === undefined || !subscribers.delete(subscriber)) return false;
    if (subscribers.size === 0) {
      this.#topics.delete(topic);
      this.#backplane?.unsubscribe(topic);
    }
    return true;
  }

  /** Sends `data` to every subscriber of `topic` but `except`, here and in the other processes. */
  publish(topic: unknown, data: unknown, except?: Subscriber): void {
    checkTopic(topic, 'publish(topic, data)');
    if (this.#closed) return;
    const publication = new Publication(topic, normalizeData(data), this.origin);
    this.#stats.published++;
    const backplane = this.#backplane;
    tracePublish(publication, backplane?.name, () => this.#fanOut(publication, except));
    backplane?.publish(publication);
  }

  /** A subscriber was closed for being too far behind. */
  droppedSlow(topic: string, kind: 'websocket' | 'stream'): void {
    this.#stats.slowSubscribers++;
    traceDrop(topic, 'slow-subscriber', kind);
  }

  stats(): TopicStats {
    const backplane = this.#backplane;
    return { ...this.#stats, backplane: backplane && { name: backplane.name, up: this.#state === 'up' } };
  }

  /** Ends the stream subscriptions and disconnects the backplane; sockets are closed by their server. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#malformed?.close();
    for (const subscribers of this.#topics.values()) for (const subscriber of subscribers) subscriber.end?.();
    await this.#backplane?.close();
  }

  #fanOut(publication: Publication, except: Subscriber | undefined): number {
    const subscribers = this.#topics.get(publication.topic);
    if (subscribers === undefined) return 0;
    let reached = 0;
    for (const subscriber of subscribers) {
      if (subscriber === except) continue;
      subscriber.deliver(publication);
      reached++;
    }
    this.#stats.delivered += reached;
    return reached;
  }

  #receive(message: BackplaneMessage): void {
    if (message.origin === this.origin || this.#closed) return;
    this.#stats.received++;
    if (!this.#topics.has(message.topic)) return;
    const publication = Publication.from(message);
    traceDeliver(publication, this.#backplane!.name, () => this.#fanOut(publication, undefined));
  }

  #link(): BackplaneLink {
    const name = this.#backplane!.name;
    const file = `the ${name} backplane`;
    return {
      origin: this.origin,
      receive: (message) => {
        try {
          this.#receive(message);
        } catch (error) {
          this.#report(error, 'topics.receive', file, message.topic);
        }
      },
      status: (state, error) => {
        if (state === 'down') {
          this.#state = 'down';
          if (!this.#toldDown && error !== undefined) {
            this.#toldDown = true;
            this.#report(error, 'topics.connect', file);
          }
          return;
        }
        this.#state = 'up';
        this.#toldDown = false;
        const lost = this.#lostWhileDown;
        this.#lostWhileDown = 0;
        if (lost > 0) {
          const count = lost === 1 ? '1 publication' : `${lost} publications`;
          this.#report(
            new Error(`${count} of this process did not reach the other processes while ${file} was down`),
            'topics.publish',
            file,
          );
        }
      },
      failed: (stage, error, topic) => {
        if (stage === 'receive') {
          this.#malformed ??= new ThrottledReport((last, count) =>
            this.#report(count === 1 ? last : withCount(last, count), 'topics.receive', file),
          );
          return this.#malformed.report(error);
        }
        if (stage === 'publish') {
          this.#stats.lost++;
          traceDrop(topic ?? '', 'backplane', name);
          // Down: the outage was told once, and the count is told when it ends.
          if (this.#state === 'down') {
            this.#lostWhileDown++;
            return;
          }
        }
        this.#report(error, `topics.${stage}`, file, topic);
      },
    };
  }
}

/** The last of `count` errors alike, saying how many there were. */
function withCount(error: unknown, count: number): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`${count} messages dropped in the last second; the last: ${message}`, { cause: error });
}
