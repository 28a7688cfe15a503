/**
 * captureResponse: turns whatever the rest of an Express/Connect chain writes to `res`
 * (res.json, res.send, res.write/end, res.sendFile, a piped stream, the error handler, the
 * 404) into a Web `Response`, without sending anything to the client.
 *
 * Toward the chain, `res` keeps behaving as Node's own response: once its head is out
 * (writeHead, or the first write/end/flushHeaders), `res.headersSent` is true and setHeader,
 * appendHeader, removeHeader and a second writeHead throw Node's ERR_HTTP_HEADERS_SENT; a status
 * or header Node refuses throws Node's own error from the call that sends the head. Those errors
 * come from Node itself (node-head.ts).
 *
 * The chain's headers stay on `res`, in the order and spelling it gave them, and the calls that
 * shape the response on the wire are recorded (explicit or implicit head, flushHeaders, one
 * end() with the whole body): replay-response.ts makes the same calls again, so Node frames the
 * response exactly as it would have without the bridge. The body streams through a
 * ReadableStream whose backpressure reaches the writer (write() returns false, 'drain' is
 * emitted when the reader wants more), so large bodies are never held in memory.
 */
import type { ServerResponse } from 'node:http';
import { corkMarks, type CorkMarks } from './cork-marks';
import { applyWriteHead, checkHead, freshProbe, responseFromHead, sentProbe } from './node-head';
import { patchResponse, type Method, type PatchedName } from './patch-response';
import { whenClientGone } from '../bridge';

type Callback = (error?: Error | null) => void;

const CAPTURE_HIGH_WATER_MARK = 64 * 1024;

/** The chain's head, as Node would have sent it. */
export interface CapturedHead {
  statusCode: number;
  statusMessage: string;
  /** The chain called writeHead itself, rather than Node's implicit head on the first write. */
  explicit: boolean;
  /** flushHeaders() came before any body. */
  flushed: boolean;
  /** Set when the whole body came in one end() before any write: replayed as that one end(). */
  whole?: { chunk: Uint8Array | undefined };
}

export interface ChainResponse {
  response: Response;
  /** `response.body` as created: a copy made with `new Response(r.body, r)` shares it. */
  body: ReadableStream<Uint8Array> | null;
  /** `[...response.headers]` as created, to tell what the middleware changed. */
  headers: [string, string][];
  head: CapturedHead;
  /** Where the chain corked and uncorked, by chunk (cork-marks.ts). */
  corks: CorkMarks['marks'];
}

export interface Capture {
  /** Resolves with the chain's response once its head is known. */
  response: Promise<Response>;
  /** The chain's response, once its head is known. */
  chain(): ChainResponse | undefined;
  /** Runs `write` against the real response (the patched methods step aside). Re-entrant. */
  passThrough<T>(write: () => T): T;
  /** Someone reads (or holds a reader on) the captured body. */
  bodyIsRead(): boolean;
  /**
   * The middleware answered with something else: from now on the chain's head and header changes
   * go nowhere, and its body is dropped unless someone reads it (`force`: even then).
   */
  abandon(force?: boolean): void;
  /** Puts the original methods back, now or once the chain has ended. */
  restore(): void;
}

export function captureResponse(res: ServerResponse): Capture {
  let head: CapturedHead | undefined;
  let chain: ChainResponse | undefined;
  let implicit = false;
  let wroteBody = false;
  let ended = false;
  let discarded = false;
  let abandoned = false;
  let restoreWhenEnded = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let waitingForDrain = false;
  let resolveResponse!: (response: Response) => void;
  let rejectResponse!: (error: unknown) => void;
  const response = new Promise<Response>((resolve, reject) => {
    resolveResponse = resolve;
    rejectResponse = reject;
  });
  response.catch(noop);

  const wakeWriter = () => {
    if (!waitingForDrain) return;
    waitingForDrain = false;
    res.emit('drain');
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => void (controller = c),
      pull: wakeWriter,
      cancel: () => {
        discarded = true;
        wakeWriter();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: CAPTURE_HIGH_WATER_MARK }),
  );

  /** The head is known: hand the middleware its Response (bytes when the body came whole). */
  const settle = (whole?: Uint8Array) => {
    if (chain || !head) return;
    try {
      const made = responseFromHead(res, head, whole ?? body);
      if (made.body === null && whole === undefined) discardBody();
      chain = { response: made, body: made.body, headers: [...made.headers], head, corks: corks.marks };
      resolveResponse(made);
    } catch (error) {
      rejectResponse(error);
    }
  };

  const discardBody = () => {
    discarded = true;
    if (!body.locked) body.cancel().catch(noop);
    wakeWriter();
  };

  // A long poll whose client left before anything was written: next() has nothing to give.
  const stopWatching = whenClientGone(res, (reason) => {
    if (!head) rejectResponse(reason);
  });

  const writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (patch.passing()) return patch.original.writeHead!.apply(res, args);
    if (abandoned) {
      head ??= {
        statusCode: res.statusCode,
        statusMessage: res.statusMessage,
        explicit: false,
        flushed: false,
      };
      return res;
    }
    if (head) {
      // Node's _implicitHeader, called again by wrappers that check `res._header` (compression),
      // which a capture never sets: in Node it only ever runs before the head, so nothing to do.
      if (args.length <= 1 && args[0] === res.statusCode) return res;
      return sentProbe().writeHead(...(args as [number]));
    }
    const statusCode = checkHead(res, args);
    applyWriteHead(res, statusCode, args);
    head = {
      statusCode,
      statusMessage: res.statusMessage,
      explicit: !implicit,
      flushed: false,
    };
    if (!implicit) settle();
    return res;
  };

  /** The head of an implicit response, through whatever wraps `res.writeHead` behind us
   * (on-headers: express-session's cookie, compression), as Node's _implicitHeader does. */
  const implicitHeader = () => {
    if (head) return;
    implicit = true;
    try {
      res.writeHead(res.statusCode);
    } finally {
      implicit = false;
    }
    // A wrapper that swallowed the call: the head is what `res` holds now.
    if (!head) writeHead.call(res, res.statusCode);
  };

  const write = function (this: ServerResponse, chunk: unknown, encoding?: unknown, callback?: unknown) {
    if (patch.passing()) return patch.original.write!.call(res, chunk, encoding, callback);
    if (!isChunk(chunk)) return freshProbe().write(chunk as string); // Node's own TypeError
    const done = pickCallback(encoding, callback);
    if (ended || res.destroyed) {
      if (done) process.nextTick(done);
      return !res.destroyed;
    }
    implicitHeader();
    wroteBody = true;
    settle();
    if (!discarded) enqueue(toBytes(chunk, encoding));
    if (done) process.nextTick(done);
    if (discarded || (controller.desiredSize ?? 0) > 0) return true;
    waitingForDrain = true;
    return false;
  };

  const end = function (this: ServerResponse, chunk?: unknown, encoding?: unknown, callback?: unknown) {
    if (patch.passing()) return patch.original.end!.call(res, chunk, encoding, callback);
    const done = pickCallback(chunk, encoding, callback);
    const data = typeof chunk === 'function' ? undefined : chunk;
    // Node's end() takes a falsy chunk for none.
    if (data && !isChunk(data)) return freshProbe().end(data as string);
    if (ended) {
      if (done) res.once('finish', done);
      return res;
    }
    if (!head) {
      implicitHeader();
      ended = true;
      head!.whole = { chunk: data ? toBytes(data, encoding) : undefined };
      settle(head!.whole.chunk ?? new Uint8Array(0));
    } else {
      ended = true;
      if (!discarded) {
        if (data) enqueue(toBytes(data, encoding));
        controller.close();
      }
    }
    // As Node: the callback runs once the response is finished, when it really is.
    if (done) res.once('finish', done);
    if (restoreWhenEnded) putBack();
    return res;
  };

  const corks = corkMarks();
  const enqueue = (bytes: Uint8Array) => {
    corks.wrote(bytes);
    controller.enqueue(bytes);
  };
  const cork = function (this: ServerResponse) {
    if (corks.cork(patch.passing())) patch.original.cork!.call(res);
  };
  const uncork = function (this: ServerResponse) {
    if (corks.uncork(patch.passing())) patch.original.uncork!.call(res);
  };

  const flushHeaders = function (this: ServerResponse) {
    if (patch.passing()) return patch.original.flushHeaders!.call(res);
    if (abandoned || ended) return;
    implicitHeader();
    if (!wroteBody) head!.flushed = true;
    settle();
  };

  /** setHeader & co.: Node's own ERR_HTTP_HEADERS_SENT once the chain's head is out. */
  const guard = (name: PatchedName) =>
    function (this: ServerResponse, ...args: unknown[]) {
      if (patch.passing() || (!head && !abandoned)) return patch.original[name]!.apply(res, args);
      if (abandoned) return name === 'removeHeader' ? undefined : res;
      return (sentProbe() as unknown as Record<PatchedName, Method>)[name]!(...args);
    };

  const patch = patchResponse(
    res,
    {
      writeHead,
      write,
      end,
      flushHeaders,
      cork,
      uncork,
      setHeader: guard('setHeader'),
      appendHeader: guard('appendHeader'),
      removeHeader: guard('removeHeader'),
      setHeaders: guard('setHeaders'),
    },
    () => head !== undefined,
  );

  const putBack = () => {
    patch.remove();
    stopWatching();
  };

  return {
    response,
    chain: () => chain,
    passThrough: patch.passThrough,
    bodyIsRead: () => body.locked,
    abandon(force = false) {
      abandoned = true;
      if (force || !body.locked) discardBody();
    },
    restore() {
      // While the chain is still writing (into a discarded capture), its writes must not reach
      // the client: put the methods back only once it has ended.
      if (ended || res.destroyed) putBack();
      else restoreWhenEnded = true;
    },
  };
}

function isChunk(chunk: unknown): boolean {
  return typeof chunk === 'string' || chunk instanceof Uint8Array;
}

function toBytes(chunk: unknown, encoding: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}

function pickCallback(...args: unknown[]): Callback | undefined {
  return args.find((a) => typeof a === 'function') as Callback | undefined;
}

function noop(): void {}
