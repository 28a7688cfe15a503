/**
 * What a Response body has ready without waiting on I/O: a body made of a string, bytes, JSON,
 * form data or a blob yields all its bytes at once, and can be sent whole (with a Content-Length,
 * an ETag); a stream whose source waits on the network or a timer cannot. Nothing reads undici's
 * internals to tell: the body is read like any stream, and what it yields without waiting tells.
 * Shared by the Node bridge (send-response) and `.fetch`.
 */

/** What a body had ready without waiting on I/O, and the read still under way if it did not end. */
export interface Available {
  chunks: Uint8Array[];
  done: boolean;
  pending?: Promise<ReadableStreamReadResult<Uint8Array>>;
}

// How long "ready without waiting" is. Bodies built from strings and bytes answer a read within a
// microtask or two, form data within six (Node 20); a Blob's parts are read off the main thread on
// Node 24, each within a turn or two of the event loop. A stream whose source waits on the network
// or a timer stays pending past that and is streamed. The turns waited are bounded per response.
const READY_TICKS = 8;
const READY_TURNS_PER_READ = 3;
const READY_TURNS = 16;
// Past this much buffered, a body that keeps producing chunks without waiting is streamed instead:
// collecting a large stream only to copy it into one buffer cost more CPU than writing it as it comes.
const MAX_BUFFERED = 64 * 1024;
/** What a HEAD reads of a body at most: a Blob yields a chunk per part, a FormData two per field. */
export const HEAD_CHUNKS = 16;

/**
 * `maxChunks`: past that many, what is read so far is returned, the body not yet ended. A HEAD, which
 * sends none of it, reads a few (`HEAD_CHUNKS`): a blob or a form still ends within them, and gets the
 * length a GET would, while a stream that keeps producing is not pulled for nothing.
 */
export async function readAvailable(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxChunks = Infinity,
): Promise<Available> {
  const chunks: Uint8Array[] = [];
  let buffered = 0;
  let turns = 0;
  // One state and one pair of callbacks for every read of this body, waited on here: no async
  // function, context and closures per read.
  let settled = false;
  let failed = false;
  let value: ReadableStreamReadResult<Uint8Array> | undefined;
  let error: unknown;
  const onValue = (result: ReadableStreamReadResult<Uint8Array>) => {
    settled = true;
    value = result;
  };
  const onError = (reason: unknown) => {
    settled = failed = true;
    error = reason;
  };
  for (;;) {
    settled = false;
    const read = reader.read();
    read.then(onValue, onError);
    for (let i = 0; i < READY_TICKS && !settled; i++) await undefined;
    for (let turn = 0; !settled && turn < READY_TURNS_PER_READ && turns < READY_TURNS; turn++) {
      turns++;
      await new Promise<void>((resolve) => setImmediate(resolve));
      for (let i = 0; i < READY_TICKS && !settled; i++) await undefined;
    }
    if (!settled) return { chunks, done: false, pending: read };
    if (failed) throw error;
    const result = value!;
    if (result.done) return { chunks, done: true };
    chunks.push(bodyChunk(result.value));
    // Checked before counting this chunk: one large chunk and its end still go out as one write.
    if (buffered > MAX_BUFFERED || chunks.length > maxChunks) return { chunks, done: false };
    buffered += result.value.byteLength;
  }
}

/**
 * A chunk of a Response's body stream, which the Fetch standard has be bytes: a string, say, is
 * refused with one error whenever it comes, before the head is sent or after, as `response.text()`
 * refuses it.
 */
export function bodyChunk(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  throw new TypeError(
    `A Response body stream yielded ${describeChunk(value)} where the Fetch standard takes bytes (a Uint8Array): enqueue \`new TextEncoder().encode(text)\`, pipe the stream through a TextEncoderStream, or pass the text itself as the body.`,
  );
}

function describeChunk(value: unknown): string {
  if (typeof value === 'string') return 'a string';
  if (value === null) return 'null';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  return typeof value === 'object'
    ? `an object (${value.constructor?.name ?? 'Object'})`
    : `a ${typeof value}`;
}

/** The chunks as one array of bytes; the chunk itself when there is one. */
export function joinChunks(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const joined = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined;
}
