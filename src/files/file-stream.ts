/**
 * A file's bytes, read at once when they fit in one chunk, or as a Web ReadableStream, read from disk
 * as they are pulled: one chunk at a time,
 * so a slow client holds at most a chunk or two of a large file in memory, never the file. The file
 * is opened at the first read (a Response nobody reads holds no descriptor) and checked to be the
 * one whose size and date the head described; its descriptor is closed at the end, on an error, and
 * when the reader cancels (the client went away). A file that ends short of the bytes the head
 * promised (truncated while it is sent) or that cannot be read errors the stream: the response is
 * then cut, never left hanging.
 */
import { open, type FileHandle } from 'node:fs/promises';
import {
  close as closeFd,
  constants,
  createReadStream,
  fstat,
  open as openCallback,
  type Stats,
} from 'node:fs';
import { promisify } from 'node:util';
import { withNodeSource } from '../node-source';

/** send reads 64 KiB at a time (fs.createReadStream's default). */
export const CHUNK_SIZE = 64 * 1024;
// O_NONBLOCK: a FIFO put where the file was between the stat and the open does not block a thread
// of libuv's pool forever; a regular file reads the same with it. Windows has no such flag.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
// The Node stream reads a plain descriptor with fs's callbacks, as send's does: a FileHandle's stream reads
// through promises, and a FileHandle not closed by hand is closed, with a warning, when it is collected.
const openDescriptor = promisify(openCallback);
const statDescriptor = promisify(fstat);

/** The file changed between the stat its head was made from and the open: its bytes are not that head's. */
export class FileChangedError extends Error {
  constructor(path: string) {
    super(`The file ${path} changed while it was being sent`);
    this.name = 'FileChangedError';
  }
}

/** Bytes `start` to `end` (inclusive) of the file at `path`, which `stat` described. */
export function fileStream(
  path: string,
  stat: Stats,
  start: number,
  end: number,
): ReadableStream<Uint8Array> {
  let handle: FileHandle | undefined;
  let position = start;
  let done = false;
  const finish = async () => {
    done = true;
    const opened = handle;
    handle = undefined;
    // close() waits for a read still under way.
    await opened?.close().catch(noop);
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (handle === undefined) {
            const opened = await open(path, OPEN_FLAGS);
            // Cancelled while it opened: nobody will close it later.
            if (done) return void (await opened.close().catch(noop));
            handle = opened;
            const now = await opened.stat();
            if (!sameFile(stat, now)) throw new FileChangedError(path);
          }
          const size = Math.min(CHUNK_SIZE, end - position + 1);
          const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(size), 0, size, position);
          if (done) return;
          if (bytesRead === 0) throw new FileChangedError(path);
          position += bytesRead;
          controller.enqueue(bytesRead === size ? buffer : buffer.subarray(0, bytesRead));
          if (position > end) {
            await finish();
            controller.close();
          }
        } catch (error) {
          await finish();
          controller.error(error);
        }
      },
      cancel: finish,
    },
    // Nothing is read before it is asked for: backpressure is the reader's.
    { highWaterMark: 0 },
  );
  return withNodeSource(stream, {
    length: end - start + 1,
    async open() {
      const fd = await openDescriptor(path, OPEN_FLAGS);
      try {
        if (!sameFile(stat, await statDescriptor(fd))) throw new FileChangedError(path);
      } catch (error) {
        closeFd(fd, noop);
        throw error;
      }
      return createReadStream('', { fd, start, end, highWaterMark: CHUNK_SIZE });
    },
    endedShort: () => new FileChangedError(path),
  });
}

/**
 * Bytes `start` to `start + length - 1` of the file at `path`, which `stat` described, read now: for
 * a part no larger than one chunk, sent whole (with its Content-Length, in one write) rather than
 * streamed. Rejects with FileChangedError when the file is no longer the one `stat` described.
 */
export async function readPart(
  path: string,
  stat: Stats,
  start: number,
  length: number,
): Promise<Uint8Array> {
  const handle = await open(path, OPEN_FLAGS);
  try {
    if (!sameFile(stat, await handle.stat())) throw new FileChangedError(path);
    const bytes = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(bytes, read, length - read, start + read);
      if (bytesRead === 0) throw new FileChangedError(path);
      read += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close().catch(noop);
  }
}

/** The same file, of the same size and date: a file replaced or rewritten since is another body. */
function sameFile(before: Stats, now: Stats): boolean {
  return (
    before.ino === now.ino &&
    before.dev === now.dev &&
    before.size === now.size &&
    before.mtimeMs === now.mtimeMs &&
    now.isFile()
  );
}

function noop(): void {}
