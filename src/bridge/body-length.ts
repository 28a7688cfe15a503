/**
 * What follows a response head is exactly the length that head declares. On a
 * keep-alive connection a client, or a proxy that reuses connections, reads the next response
 * right after the declared length: a body that runs long puts bytes of this one where the next
 * response should start, and one that ends short swallows the next response. So a body of known
 * size goes out with its own length, and a stream under a declared length is held to it; one
 * that ends short or runs long breaks the connection, so the truncation shows and no later
 * response shares it.
 */
import type { ResponseWriter } from './response-writer';

/** A streamed body that did not match the Content-Length its head declared. */
export class ContentLengthMismatchError extends Error {
  constructor(declared: number, sent: number, long: boolean) {
    const how = long ? `more than` : `only ${sent} of`;
    super(
      `The response body had ${how} the ${declared} bytes its Content-Length declared; ` +
        'the connection was closed so that no other response is read from it',
    );
    this.name = 'ContentLengthMismatchError';
  }
}

/**
 * A body whose size is known (`byteLength`, 0 for none) gets that Content-Length when its head
 * declares another. Left alone where no body follows the head whatever it declares: HEAD (which
 * keeps the length of the body it leaves out), 1xx, 204 and 304.
 */
export function frameKnownBody(res: ResponseWriter, byteLength: number): void {
  const declared = res.getHeader('content-length');
  if (declared === undefined || !bodyFollowsHead(res)) return;
  if (String(declared) !== String(byteLength)) res.setHeader('content-length', byteLength);
}

/**
 * The length a streamed body is held to, from the head on `res`, or undefined when the head
 * frames the body otherwise (chunked) or has none (HEAD, 204, 304).
 */
export function declaredLength(res: ResponseWriter): BodyLength | undefined {
  const declared = res.getHeader('content-length');
  if (declared === undefined || res.hasHeader('transfer-encoding') || !bodyFollowsHead(res)) return undefined;
  const length = parseLength(declared);
  return length === undefined ? undefined : new BodyLength(length);
}

function bodyFollowsHead(res: ResponseWriter): boolean {
  const status = res.statusCode;
  return res.req?.method !== 'HEAD' && status >= 200 && status !== 204 && status !== 304;
}

/**
 * A Content-Length value as a number; repeats of one value count as that value (RFC 9110, 8.6).
 * Undefined for anything else: no client can frame a body by it.
 */
export function parseLength(value: number | string | string[]): number | undefined {
  const match = /^\s*(\d+)\s*(?:,\s*\1\s*)*$/.exec(String(value));
  return match ? Number(match[1]) : undefined;
}

/**
 * Counts a streamed body against its declared length. The chunk that completes the length is held
 * back until the stream ends: written then, the client sees a complete response only when the
 * body really was that long.
 */
export class BodyLength {
  #left: number;
  #held: Uint8Array | undefined;

  constructor(readonly declared: number) {
    this.#left = declared;
  }

  /** What to write now for `chunk` (maybe nothing); throws when the body runs long. */
  take(chunk: Uint8Array): Uint8Array | undefined {
    if (chunk.byteLength === 0) return undefined;
    if (this.#held || chunk.byteLength > this.#left) {
      throw new ContentLengthMismatchError(this.declared, this.declared - this.#left, true);
    }
    this.#left -= chunk.byteLength;
    if (this.#left > 0) return chunk;
    this.#held = chunk;
    return undefined;
  }

  /** The body ended: what is left to write; throws when it ended short. */
  end(): Uint8Array | undefined {
    if (this.#left > 0) {
      throw new ContentLengthMismatchError(this.declared, this.declared - this.#left, false);
    }
    return this.#held;
  }
}
