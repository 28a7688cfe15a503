/**
 * sendWebResponse: writes a Web `Response` to Node's ServerResponse (or to what stands for one:
 * response-writer.ts).
 *
 * Headers that earlier middleware set on `res` (helmet, cors, `res.cookie`) stay; the handler's
 * headers override them by name, except `Set-Cookie`, whose values are added beside them.
 * A body whose bytes are all there (a string, bytes, JSON, form data, a blob) is written in one
 * `end()` with Content-Length. Nothing reads undici's internals to learn that: the body is read
 * like any stream, and what it yields without waiting tells. Streams are written as they come,
 * with backpressure, held to a Content-Length they declare (body-length.ts), and cancelled if the
 * client goes away (client-gone.ts).
 *
 * A Response that cannot be sent — Node refuses one of its header values, its body is locked or
 * already read, or fails before its first byte — throws with `res` as it was: the answer that
 * follows (a 500) carries none of its headers.
 */
import { isAscii } from 'node:buffer';
import type { Readable } from 'node:stream';
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { declaredLength, frameKnownBody, parseLength } from './body-length';
import { isClientGone, whenClientGone } from './client-gone';
import { ClientClosedError } from './node-body';
import {
  bodyChunk,
  HEAD_CHUNKS,
  isNullBodyStatus,
  joinChunks,
  readAvailable,
  type EtagMode,
} from '../dispatch';
import { sendsNotModified } from './express-etag';
import type { ResponseWriter } from './response-writer';
import { nodeSourceOf, type NodeSource } from '../node-source';

// Never forwarded: they describe one connection, and Node sets its own.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);
// What fetch() decodes itself; a fetched body with these codings arrives already decoded.
const DECODED_BY_FETCH = new Set(['gzip', 'x-gzip', 'deflate', 'br', 'zstd']);

export interface SendOptions {
  /** HEAD: headers only. */
  head?: boolean;
  /**
   * ETags and 304s for a body sent whole (express-etag.ts): the endpoints' answers have them, as the
   * host app's own `res.send` would; absent, none (a bridged middleware's own answer).
   */
  etag?: EtagMode;
}

/**
 * Bodies whose bytes are all there at once (strings, bytes, `Response.json()`, form data, blobs)
 * go out in one `end()` with Content-Length; a HEAD gets the same Content-Length and no body.
 * Anything else streams. Rejects, with nothing set on `res`, when the Response cannot be sent:
 * Node refuses a header, the body is locked or used, or it fails before its first byte.
 */
export async function sendWebResponse(
  res: ResponseWriter,
  response: Response,
  options: SendOptions = {},
): Promise<void> {
  const body = response.body;
  if (body === null || isNullBodyStatus(response.status)) {
    setHead(res, response);
    frameKnownBody(res, 0);
    res.end();
    body?.cancel().catch(noop);
    return;
  }
  const source = options.head ? undefined : nodeSourceOf(body);
  if (source !== undefined && !response.bodyUsed && !body.locked) {
    return sendSource(res, response, body, source);
  }
  // Taken before anything is set on `res`: a locked or used body throws here.
  const reader = body.getReader();
  const start = await readAvailable(reader, options.head ? HEAD_CHUNKS : Infinity);
  try {
    setHead(res, response);
  } catch (error) {
    reader.cancel(error).catch(noop);
    throw error;
  }
  if (start.done) {
    endWhole(res, joinChunks(start.chunks), options.head === true, options.etag);
    return;
  }
  if (options.head) {
    reader.cancel().catch(noop);
    res.end();
    return;
  }
  dropUnframedLength(res);
  // Server-sent events must reach the client as they are written: a compression() in front keeps
  // what it compresses until its buffer fills, unless `res.flush()` tells it to let go.
  const write = isEventStream(response) ? (chunk: Uint8Array) => writeAndFlush(res, chunk) : undefined;
  return pipeBody(res, reader, { first: start.chunks, pending: start.pending, write });
}

/**
 * A body the library made from a file, piped from Node's own stream of it: the same bytes, checks
 * and backpressure as the Web stream's, without each chunk's trip through it. The file is opened (and
 * checked) before anything is set on `res`, as the Web stream's first read would be. The head goes
 * out with the first chunk, as `res.sendFile` sends it: a file's first bytes are there at once.
 */
async function sendSource(
  res: ResponseWriter,
  response: Response,
  body: ReadableStream,
  source: NodeSource,
): Promise<void> {
  // Never read: it opened nothing, and cancelling it leaves nothing open.
  body.cancel().catch(noop);
  const readable = await source.open();
  try {
    setHead(res, response);
  } catch (error) {
    readable.destroy();
    throw error;
  }
  dropUnframedLength(res);
  return pipeBody(res, nodeReader(readable, source), { flushHeaders: false });
}

/**
 * A Node stream read as pipeBody reads a Web stream's reader: one chunk at a time, each as the stream gave it
 * (its async iterator would join chunks that arrive together into a new buffer), the stream paused until the
 * next read. A stream that ends before the source's length fails with the source's own error (a file
 * truncated while it was sent), where pipeBody would only know that the body fell short of its Content-Length.
 */
function nodeReader(readable: Readable, source: NodeSource): BodyReader {
  let sent = 0;
  let chunk: Uint8Array | undefined;
  let ended = false;
  let failure: Error | undefined;
  let waiting:
    { resolve(result: ReadableStreamReadResult<Uint8Array>): void; reject(error: Error): void } | undefined;
  const settle = () => {
    const reader = waiting;
    if (reader === undefined) return;
    if (chunk !== undefined) {
      const value = chunk;
      chunk = undefined;
      waiting = undefined;
      reader.resolve({ done: false, value });
    } else if (failure !== undefined || ended) {
      waiting = undefined;
      if (failure === undefined && sent >= source.length) reader.resolve({ done: true, value: undefined });
      else reader.reject(failure ?? source.endedShort());
    }
  };
  readable.on('data', (data: Uint8Array) => {
    readable.pause();
    sent += data.byteLength;
    chunk = data;
    settle();
  });
  readable.once('end', () => {
    ended = true;
    settle();
  });
  readable.once('error', (error: Error) => {
    failure = error;
    settle();
  });
  return {
    read: () =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        if (chunk === undefined && !ended && failure === undefined) readable.resume();
        settle();
      }),
    cancel: async (reason?: unknown) => void readable.destroy(reason instanceof Error ? reason : undefined),
  };
}

/** A declared length no client can frame the body by: Node frames it (chunked) instead. */
function dropUnframedLength(res: ResponseWriter): void {
  const declared = res.getHeader('content-length');
  if (declared !== undefined && parseLength(declared) === undefined) res.removeHeader('content-length');
}

function isEventStream(response: Response): boolean {
  return EVENT_STREAM.test(response.headers.get('content-type') ?? '');
}

const EVENT_STREAM = /^\s*text\/event-stream\s*(?:;|$)/i;

/** `res.flush` is compression()'s (and its kin's); a plain response has none, and needs none. */
function writeAndFlush(res: ResponseWriter, chunk: Uint8Array): boolean {
  const written = res.write(chunk);
  res.flush?.();
  return written;
}

/**
 * A body of known size in one `end()`, with its own Content-Length and, as `etag` says, its ETag; a
 * fresh conditional request gets a 304 without it.
 */
function endWhole(res: ResponseWriter, bytes: Uint8Array, head: boolean, etag: EtagMode | undefined): void {
  // A HEAD answer may declare the length of the body it leaves out (Express's res.send does); the
  // bytes here are not that body, so they get no ETag either.
  const lengthOfOmittedBody = head && bytes.byteLength === 0 && res.hasHeader('content-length');
  if (!lengthOfOmittedBody) res.setHeader('content-length', bytes.byteLength);
  if (etag !== undefined && !lengthOfOmittedBody && sendsNotModified(res, bytes, etag)) {
    res.end();
    return;
  }
  if (head || bytes.byteLength === 0) res.end();
  else if (isSmallAscii(bytes)) res.end(latin1(bytes), 'latin1');
  else res.end(bytes);
}

/**
 * The Response's status and headers onto `res`. Every header is checked as Node's setHeader checks it
 * before any is set, so a Response Node would refuse (a control character from user input) throws
 * with `res` as it was. A 426 keeps its Upgrade: it names the protocol to switch to (RFC 9110,
 * 15.5.22), not one of this connection's.
 */
function setHead(res: ResponseWriter, response: Response): void {
  const headers = response.headers;
  const dropEncoding = response.type !== 'default' && isDecodedByFetch(headers.get('content-encoding'));
  const upgradeRequired = response.status === 426;
  // Names and values side by side: [name, value, name, value, …].
  const copied: string[] = [];
  headers.forEach((value, name) => {
    if (HOP_BY_HOP.has(name) && !(upgradeRequired && name === 'upgrade')) return;
    if (dropEncoding && (name === 'content-encoding' || name === 'content-length')) return;
    validateHeaderName(name);
    validateHeaderValue(name, value);
    copied.push(name, value);
  });
  let cookiesDone = false;
  for (let i = 0; i < copied.length; i += 2) {
    const name = copied[i]!;
    if (name !== 'set-cookie') {
      res.setHeader(name, copied[i + 1]!);
      continue;
    }
    // All of the Response's cookies at once, beside those middleware set before it.
    if (cookiesDone) continue;
    cookiesDone = true;
    const before = res.getHeader('set-cookie');
    const own = headers.getSetCookie();
    res.setHeader('set-cookie', before === undefined ? own : [...toArray(before), ...own]);
  }
  res.statusCode = response.status;
  // HTTP/2 has no reason phrase, and Node warns when one is set (RFC 9113, section 8.3.2).
  if (response.statusText && res.req?.httpVersionMajor !== 2) res.statusMessage = response.statusText;
}

/** What pipeBody reads a body through: a Web stream's reader, or one standing for it. */
type BodyReader = Pick<ReadableStreamDefaultReader<Uint8Array>, 'read' | 'cancel'>;

export interface PipeOptions {
  /** Chunks already read from the body, written first. */
  first?: readonly Uint8Array[];
  /** A read already under way, awaited before the next. */
  pending?: Promise<ReadableStreamReadResult<Uint8Array>>;
  /** Writes one chunk (bridgeMiddleware's replay re-applies the app's cork()/uncork() around it). */
  write?: (chunk: Uint8Array) => boolean;
  /** Send the headers before the first chunk is ready (default true). */
  flushHeaders?: boolean;
}

/**
 * Writes a body chunk by chunk with backpressure. Held to the Content-Length on `res`, if any;
 * cancelled, once, as soon as the response can no longer be written.
 */
export async function pipeBody(res: ResponseWriter, reader: BodyReader, options: PipeOptions): Promise<void> {
  const { write = (chunk: Uint8Array) => res.write(chunk) } = options;
  // One 'drain' listener for the whole body: a compression() in front of us moves 'drain'
  // listeners to its zlib stream, where `off` cannot reach them, so a listener per wait would pile
  // up there.
  let wake: (() => void) | undefined;
  const onDrain = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  let reading = true;
  const cancel = (reason: unknown) => {
    if (!reading) return;
    reading = false;
    reader.cancel(reason).catch(noop);
  };
  const stopWatching = whenClientGone(res, (reason) => {
    cancel(reason);
    onDrain();
  });
  res.on('drain', onDrain);
  const length = declaredLength(res);
  const first = options.first ?? [];
  try {
    // Headers go out now, so the client sees them before the first chunk is ready; a head that
    // declares no body at all would be a complete response, so it waits for the body's end.
    const flush = options.flushHeaders !== false && length?.declared !== 0;
    if (flush && !res.headersSent) res.flushHeaders();
    let pending = options.pending;
    for (let i = 0; ; i++) {
      let chunk: Uint8Array | undefined = first[i];
      if (i >= first.length) {
        const result = await (pending ?? reader.read());
        pending = undefined;
        if (result.done) break;
        chunk = bodyChunk(result.value);
      }
      if (isClientGone(res)) return;
      const bytes = length ? length.take(chunk!) : chunk!;
      if (bytes === undefined || write(bytes) || isClientGone(res)) continue;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    reading = false;
    if (isClientGone(res)) return;
    const last = length?.end();
    if (last) write(last);
    res.end();
  } catch (error) {
    // Headers are out: the only honest signal left to the client is a broken connection.
    const reason = error instanceof Error ? error : new Error(String(error));
    cancel(reason);
    res.destroy(reason);
  } finally {
    // Left early because the client is gone, before Node said so ('close'): cancelled here.
    if (reading) cancel(new ClientClosedError('The client closed the connection'));
    stopWatching();
    res.off('drain', onDrain);
  }
}

// Node sends a string body in the same write as the head, a Buffer in a second, gathered one,
// which costs more CPU for a small body. But the string is a copy of the body, and Node joins it
// to the head in another: past about 1 KB the Buffer costs no more CPU and allocates less (the
// string path's extra allocation is twice the body's size). An ASCII body is the same bytes as a
// string in any encoding; latin1 is the encoding Node writes the head in, so the head's bytes do
// not change.
const STRING_BODY_MAX = 768;

function isSmallAscii(bytes: Uint8Array): boolean {
  return bytes.byteLength <= STRING_BODY_MAX && isAscii(bytes);
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

function isDecodedByFetch(encoding: string | null): boolean {
  if (!encoding) return false;
  return encoding.split(',').every((coding) => DECODED_BY_FETCH.has(coding.trim().toLowerCase()));
}

function toArray(value: string | number | string[]): string[] {
  return Array.isArray(value) ? value : [String(value)];
}

function noop(): void {}
