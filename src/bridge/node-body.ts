/**
 * Where a request's body comes from: the Node stream (read with backpressure and a byte limit),
 * `req.rawBody`, or — when a body parser already consumed the stream — `req.body` re-encoded
 * by content type. Never hangs, never hands over an empty body silently.
 */
import type { IncomingMessage } from 'node:http';
import { BodyLimitError, ClientClosedError, DEFAULT_BODY_LIMIT } from '../dispatch';
import { isDraining } from './drain-request';
import type { ExpressRequest } from './express-request';
import { encodeFormBody } from './encode-form-body';
import { isStreamReset } from './stream-reset';

/**
 * Streams over a request body pull only when their reader asks: a Request built around one must
 * not start reading the body before the handler does.
 */
export const NO_READ_AHEAD: QueuingStrategy<Uint8Array> = { highWaterMark: 0 };

// One rule for every host, `.fetch` included: src/dispatch/body-rules.ts.
export { BodyLimitError, ClientClosedError, DEFAULT_BODY_LIMIT };

/** Node reports a client gone mid-body as `Error: aborted` (ECONNRESET): one class for both. */
export function asClientClosed(error: Error): Error {
  if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') return error;
  return Object.assign(new ClientClosedError(), { cause: error });
}

/** Raised when earlier middleware consumed the body and left nothing we can hand over. */
export class BodyUnavailableError extends Error {
  readonly status = 500;
  constructor(message: string) {
    super(message);
    this.name = 'BodyUnavailableError';
  }
}

/**
 * Raised when a body parser produced a value nested too deeply to be encoded again for the
 * handler (JSON.stringify runs out of stack); answered 400. A client's body, not a fault of the app.
 */
export class BodyTooDeepError extends Error {
  readonly status = 400;
  readonly statusCode = 400;
  readonly expose = true;
  readonly code = 'BODY_TOO_DEEP';
  constructor() {
    super('The request body, as parsed by earlier middleware, is nested too deeply to be encoded again');
    this.name = 'BodyTooDeepError';
  }
}

/**
 * Whether something before the bridge read the body already (a body parser, a bridged middleware
 * that kept it as `req.rawBody`): it is in memory, read under that reader's own limit.
 */
export function bodyAlreadyRead(req: ExpressRequest): boolean {
  return req.rawBody !== undefined || req._body === true || req.readableDidRead || req.readableEnded;
}

/**
 * The body when it is no longer (or never was) in the stream: bytes, or `undefined` when the
 * stream is still unread and should be streamed.
 */
export function bodyFromParsedRequest(req: ExpressRequest): Uint8Array | undefined {
  const raw = req.rawBody;
  if (raw instanceof Uint8Array) return raw;
  if (typeof raw === 'string') return Buffer.from(raw);
  if (!bodyAlreadyRead(req)) return undefined;
  if (req.body === undefined) {
    if (!req.readableDidRead) return undefined;
    throw new BodyUnavailableError(
      'The request body was consumed by earlier middleware that left neither req.rawBody nor req.body; ' +
        'mount the endpoints before that middleware.',
    );
  }
  return encodeParsedBody(req.body, String(req.headers['content-type'] ?? ''));
}

function encodeParsedBody(body: unknown, contentType: string): Uint8Array {
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return Buffer.from(body);
  const type = contentType.toLowerCase();
  if (type.startsWith('multipart/')) {
    throw new BodyUnavailableError(
      'A multipart body was consumed by earlier middleware (multer, say): read what it parsed from the Node request (context.node.req.file, req.body), or mount the endpoints before the multipart parser.',
    );
  }
  try {
    if (type.includes('application/x-www-form-urlencoded')) return Buffer.from(encodeFormBody(body));
    // JSON, and any other parser that produced a structured value.
    return Buffer.from(JSON.stringify(body) ?? '');
  } catch (error) {
    // Parsers build nesting that encoders cannot walk back: JSON.parse is not bound by the stack.
    if (error instanceof RangeError) throw new BodyTooDeepError();
    throw error;
  }
}

/** Bytes the bridge read from the stream itself and kept as `req.rawBody`: exactly as the client sent them. */
const keptAsSent = new WeakSet<Uint8Array>();

/** Keeps what a bridged middleware read as `req.rawBody`, for endpoints behind it; a value already there stays. */
export function keepRawBody(req: ExpressRequest, bytes: Uint8Array): void {
  if (req.rawBody !== undefined) return;
  req.rawBody = bytes;
  keptAsSent.add(bytes);
}

/**
 * Whether `bytes`, from bodyFromParsedRequest, are the client's bytes as sent, so that the
 * request's Content-Encoding still describes them. body-parser inflates whatever it reads, and
 * hands its `verify` callback (where apps keep `req.rawBody`) the inflated bytes; it says it read
 * the body with `req._body` (version 1) or by setting `req.body` (version 2). Bytes re-encoded from
 * `req.body` are never as sent; bytes kept before any parser read the body are.
 */
export function isAsSent(req: ExpressRequest, bytes: Uint8Array): boolean {
  if (bytes !== req.rawBody) return false;
  if (keptAsSent.has(bytes)) return true;
  return !req._body && req.body === undefined;
}

/**
 * The Node stream as a Web stream: pulls with backpressure, errors past the limit or on abort.
 * It listens from the start, paused: a handler that answers first and reads the body afterwards
 * still gets the bytes that arrive after the response, which the bounded drain would otherwise
 * take.
 */
export function nodeBodyToWebStream(req: IncomingMessage, limit: number | false): ReadableStream<Uint8Array> {
  let size = 0;
  // What the head declared, to tell a whole body from one that ends early (HTTP/2 ends its stream
  // cleanly on a reset); without a Content-Length, none shorter is known.
  const declared = Number(req.headers?.['content-length'] ?? 0) || 0;
  let onData: ((chunk: Buffer | string) => void) | undefined;
  // Only our own listener goes: others on the request (the bounded drain) keep theirs.
  const stopReading = () => {
    if (onData) req.off('data', onData);
    onData = undefined;
    req.pause(); // the rest is drained (bounded) once the response is out
  };
  const attach = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    const fail = (error: Error) => {
      try {
        controller.error(error);
      } catch {
        // already closed or cancelled
      }
    };
    onData = (data: Buffer | string) => {
      const chunk = asBytes(req, data);
      size += chunk.length;
      if (limit !== false && size > limit) {
        fail(new BodyLimitError(limit));
        stopReading();
        return;
      }
      controller.enqueue(chunk);
      if ((controller.desiredSize ?? 0) <= 0 && !isDraining(req)) req.pause();
    };
    const close = () => {
      try {
        controller.close();
      } catch {
        // already errored (limit) or cancelled
      }
    };
    // The client left. A body that had fully arrived (`req.complete`) is still the handler's: a
    // webhook or a beacon that closes as soon as it has sent must not lose it. What the handler had
    // not read yet waits in the request's buffer, where `read()` still finds it.
    const clientGone = (error: Error) => {
      const take = onData;
      if (!req.complete || take === undefined || isStreamReset(req)) return fail(error);
      // Taken here, not as 'data' events, which some Node versions emit for these reads and some do not.
      req.off('data', take);
      for (let chunk: Buffer | string | null; onData === take && (chunk = req.read() as Buffer | null);) {
        take(chunk);
      }
      end(error);
    };
    // The end of the stream, which is the end of the body only if all of it came. The error is made
    // only for a body cut short: an Error's stack costs a request more than the rest of its body's end.
    const end = (error?: Error) => {
      if (isStreamReset(req) || size < declared) fail(error ?? new ClientClosedError());
      else close();
    };
    if (req.readableEnded) {
      controller.close();
      return;
    }
    req.on('data', onData);
    if (req.destroyed) {
      clientGone(new ClientClosedError());
      return;
    }
    req.once('end', end);
    req.once('error', (err) => clientGone(asClientClosed(err)));
    req.once('close', () => {
      if (!req.readableEnded) clientGone(new ClientClosedError());
    });
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        attach(controller);
        req.pause();
      },
      pull() {
        req.resume();
      },
      // The handler is done with the body: stop reading; the rest is drained (bounded) once the
      // response is out, so keep-alive connections stay usable.
      cancel: stopReading,
    },
    NO_READ_AHEAD,
  );
}

/**
 * A chunk as the bytes the client sent. Middleware in front may have called `req.setEncoding()`, and
 * the stream then hands out strings: encoded back in that encoding, they are the bytes they were read
 * from (Node's string decoder keeps a character split between chunks whole).
 */
function asBytes(req: IncomingMessage, chunk: Buffer | string): Buffer {
  if (typeof chunk !== 'string') return chunk;
  return Buffer.from(chunk, (req.readableEncoding ?? 'utf8') as BufferEncoding);
}
