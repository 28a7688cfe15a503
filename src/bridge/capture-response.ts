/**
 * captureResponse: turns whatever the rest of an Express/Connect chain writes to `res`
 * (res.json, res.send, res.write/end, res.sendFile, a piped stream, the error handler, the
 * 404) into a Web `Response`, without sending anything to the client.
 *
 * `res.writeHead`, `res.write` and `res.end` are replaced on the instance while capturing.
 * The promise resolves as soon as the headers are known; the body keeps streaming through a
 * ReadableStream whose backpressure reaches the writer (write() returns false, 'drain' is
 * emitted when the reader wants more), so large bodies are never held in memory.
 * Writes made inside `passThrough()` go to the real response — that is how the Response
 * finally chosen by the middleware is sent.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

type WriteHead = ServerResponse['writeHead'];
type Write = ServerResponse['write'];
type End = ServerResponse['end'];
type Callback = (error?: Error | null) => void;

const CAPTURE_HIGH_WATER_MARK = 64 * 1024;

export interface Capture {
  /** Resolves with the chain's response once its headers are known. */
  response: Promise<Response>;
  /** Runs `write` against the real response (the patched methods step aside). */
  passThrough<T>(write: () => T): T;
  /** Discard what the chain still writes (the middleware answered with another Response). */
  discard(): void;
  /** Puts the original methods back, now or once the chain has ended. */
  restore(): void;
}

export function captureResponse(res: ServerResponse): Capture {
  const original = { writeHead: res.writeHead, write: res.write, end: res.end, on: res.on };
  let passing = false;
  let headersCaptured = false;
  // Set while write()/end() call res.writeHead for the chain, as Node's _implicitHeader does.
  let implicit = false;
  let ended = false;
  let discarded = false;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let waitingForDrain = false;
  let restoreWhenEnded = false;
  let resolveResponse!: (response: Response) => void;
  let rejectResponse!: (error: unknown) => void;
  const response = new Promise<Response>((resolve, reject) => {
    resolveResponse = resolve;
    rejectResponse = reject;
  });

  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        if (waitingForDrain) {
          waitingForDrain = false;
          res.emit('drain');
        }
      },
      cancel() {
        discarded = true;
        if (waitingForDrain) res.emit('drain');
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: CAPTURE_HIGH_WATER_MARK }),
  );

  const settleHeaders = (bodyBytes?: Uint8Array) => {
    if (headersCaptured) return;
    headersCaptured = true;
    try {
      resolveResponse(responseFromHeaders(res, bodyBytes ?? body));
    } catch (error) {
      rejectResponse(error);
    }
  };

  const writeHead = function (this: ServerResponse, ...args: Parameters<WriteHead>) {
    if (passing) return original.writeHead.apply(res, args);
    if (headersCaptured) return res; // as Node: the head goes out once
    applyWriteHead(res, args);
    if (!implicit) settleHeaders();
    return res;
  } as WriteHead;

  /**
   * The head of an implicit response, through whatever wraps `res.writeHead` behind us (on-headers:
   * express-session's cookie, response-time), so those hooks run once, while capturing.
   */
  const implicitHeader = () => {
    if (headersCaptured) return;
    implicit = true;
    try {
      res.writeHead(res.statusCode);
    } finally {
      implicit = false;
    }
  };

  const write = function (this: ServerResponse, chunk: unknown, encoding?: unknown, callback?: unknown) {
    if (passing) return (original.write as (...a: unknown[]) => boolean).call(res, chunk, encoding, callback);
    implicitHeader();
    settleHeaders();
    const done = pickCallback(encoding, callback);
    if (!discarded && !ended) controller!.enqueue(toBytes(chunk, encoding));
    if (done) process.nextTick(done);
    if (discarded || (controller!.desiredSize ?? 0) > 0) return true;
    waitingForDrain = true;
    return false;
  } as Write;

  const end = function (this: ServerResponse, chunk?: unknown, encoding?: unknown, callback?: unknown) {
    if (passing)
      return (original.end as (...a: unknown[]) => ServerResponse).call(res, chunk, encoding, callback);
    const done = pickCallback(chunk, encoding, callback);
    const hasChunk = chunk != null && typeof chunk !== 'function';
    if (ended) return res;
    ended = true;
    implicitHeader();
    if (!headersCaptured) {
      // The whole body in one call (res.json, res.send): hand it over as bytes, no stream.
      settleHeaders(hasChunk ? toBytes(chunk, encoding) : new Uint8Array(0));
    } else if (!discarded) {
      if (hasChunk) controller!.enqueue(toBytes(chunk, encoding));
      controller!.close();
    }
    if (done) process.nextTick(done);
    if (restoreWhenEnded) putBack();
    return res;
  } as End;

  const putBack = () => {
    if (res.writeHead === writeHead) res.writeHead = original.writeHead;
    if (res.write === write) res.write = original.write;
    if (res.end === end) res.end = original.end;
  };

  res.writeHead = writeHead;
  res.write = write;
  res.end = end;

  return {
    response,
    passThrough<T>(fn: () => T): T {
      // The chain's wrappers of res (compression() behind us replaces write/end/on) already ran
      // while capturing; the chosen Response goes out through the methods from before the capture.
      const installed = { writeHead: res.writeHead, write: res.write, end: res.end, on: res.on };
      Object.assign(res, original);
      passing = true;
      try {
        return fn();
      } finally {
        passing = false;
        Object.assign(res, installed);
      }
    },
    discard() {
      if (discarded) return;
      discarded = true;
      body.cancel().catch(() => {});
    },
    restore() {
      // While the chain is still writing (into a discarded capture), its writes must not reach
      // the client: put the methods back only once it has ended.
      if (ended) putBack();
      else restoreWhenEnded = true;
    },
  };
}

/** writeHead(status, [message], [headers]) applied to `res` without sending anything. */
function applyWriteHead(res: ServerResponse, args: unknown[]): void {
  const [status, second, third] = args;
  res.statusCode = Number(status);
  let headers = third;
  if (typeof second === 'string') res.statusMessage = second;
  else headers = second;
  if (Array.isArray(headers)) {
    const flat = headers.flat() as string[];
    for (let i = 0; i < flat.length; i += 2) res.appendHeader(flat[i]!, flat[i + 1]!);
  } else if (headers && typeof headers === 'object') {
    for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) {
      if (value !== undefined) res.setHeader(name, value);
    }
  }
}

/**
 * The captured status and headers as a Response. The headers move from `res` into the
 * Response, so that sending the (possibly changed) Response sets exactly what it holds.
 */
function responseFromHeaders(res: ServerResponse, body: Uint8Array | ReadableStream<Uint8Array>): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, String(value));
    res.removeHeader(name);
  }
  const status = res.statusCode;
  const nullBody = status === 204 || status === 205 || status === 304;
  if (nullBody && body instanceof ReadableStream) body.cancel().catch(() => {});
  return new Response(nullBody ? null : (body as BodyInit), {
    status,
    statusText: res.statusMessage || undefined,
    headers,
  });
}

function toBytes(chunk: unknown, encoding: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string')
    return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return Buffer.from(String(chunk));
}

function pickCallback(...args: unknown[]): Callback | undefined {
  const fn = args.find((a) => typeof a === 'function');
  return fn as Callback | undefined;
}
