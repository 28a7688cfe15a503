/**
 * One publication: the topic and the data as every subscriber and backplane gets it. Data is
 * normalized once, as it is published: text stays text, bytes are copied (the publisher may reuse
 * its buffer while a backplane still sends it), anything else becomes its JSON text. The UTF-8 bytes
 * of text are made once too, on first need, so a thousand sockets do not encode it a thousand times.
 */
import type { BackplaneMessage, TopicMessage } from '../types';

export class Publication implements BackplaneMessage, TopicMessage {
  #bytes: Buffer | undefined;
  #size: number | undefined;

  constructor(
    readonly topic: string,
    readonly data: string | Uint8Array,
    readonly origin: string,
  ) {}

  /** Bytes are sent as a binary frame, text as a text frame. */
  get binary(): boolean {
    return typeof this.data !== 'string';
  }

  /** The data as bytes (text in UTF-8), made once. */
  bytes(): Buffer {
    if (this.#bytes === undefined) {
      const data = this.data;
      this.#bytes =
        typeof data === 'string'
          ? Buffer.from(data, 'utf8')
          : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    }
    return this.#bytes;
  }

  /** Its size in bytes. */
  get size(): number {
    if (this.#size === undefined) {
      const data = this.data;
      this.#size = typeof data === 'string' ? Buffer.byteLength(data, 'utf8') : data.byteLength;
    }
    return this.#size;
  }

  json(): never {
    return JSON.parse(typeof this.data === 'string' ? this.data : this.bytes().toString('utf8')) as never;
  }

  /** A message a backplane handed over, as a publication. */
  static from(message: BackplaneMessage): Publication {
    return message instanceof Publication
      ? message
      : new Publication(message.topic, message.data, message.origin);
  }
}

/** What `publish(topic, data)` sends for `data`. */
export function normalizeData(data: unknown): string | Uint8Array {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data.slice(0));
  if (ArrayBuffer.isView(data)) {
    return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  }
  const json = JSON.stringify(data);
  if (json === undefined) {
    throw new TypeError(
      `publish(topic, data): ${typeof data} has no JSON text; publish a string, bytes or a JSON value`,
    );
  }
  return json;
}

// A lone surrogate: a string no UTF-8 can carry, so a backplane would deliver it as another name.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A topic is a non-empty string of whole characters. One with a lone surrogate (`'room-\uD800'`)
 * is refused everywhere, backplane or not, rather than delivered under the name of another.
 */
export function checkTopic(topic: unknown, what: string): asserts topic is string {
  if (typeof topic !== 'string' || topic === '') {
    throw new TypeError(`${what}: a topic is a non-empty string, got ${topic === '' ? "''" : typeof topic}`);
  }
  if (LONE_SURROGATE.test(topic)) {
    throw new TypeError(
      `${what}: the topic ${JSON.stringify(topic)} has a lone surrogate, which no backplane can carry as it is`,
    );
  }
}

/** Whether a backplane's message names a topic this library could have published. */
export function isTopic(topic: unknown): topic is string {
  return typeof topic === 'string' && topic !== '' && !LONE_SURROGATE.test(topic);
}
