/**
 * `saveFile(part, options)`: a part written to a file, its size and hash computed on the way, as
 * multer's `diskStorage` saves a file. Without a `path`, a temporary file in the system's temporary
 * folder, removed once the request is over unless the handler keeps it (`saved.keep()`, or moving
 * it). A write that fails (the part over its limit, the client gone, the disk full) leaves nothing
 * behind, and neither do the files saved before it when the reading of the body fails.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Part } from './part';

export interface SaveFileOptions {
  /** Where to write. Default: a new file in `directory`, removed once the request is over unless kept. */
  path?: string;
  /** The folder of a file without a `path`. Default `os.tmpdir()`. */
  directory?: string;
  /** The hash computed on the way (an algorithm of `node:crypto`), hex; `false` for none. Default `'sha256'`. */
  hash?: string | false;
}

export interface SavedFile {
  /** Where the file is. */
  path: string;
  /** Its size in bytes. */
  size: number;
  /** Its hash in hex (`sha256` unless told otherwise); `undefined` with `hash: false`. */
  hash: string | undefined;
  /** The field's name. */
  name: string;
  /** The file's name as the client sent it (`undefined` for a field saved to a file). */
  filename: string | undefined;
  /** Its Content-Type as the client sent it. */
  type: string;
  /** Keeps a temporary file once the request is over. (A file saved to a `path` is kept anyway.) */
  keep(): void;
}

export async function saveFile(part: Part, options: SaveFileOptions = {}): Promise<SavedFile> {
  if (!(part instanceof Part)) throw new TypeError('saveFile: expected a part of multipart()');
  const temporary = options.path === undefined;
  const path = options.path ?? join(options.directory ?? tmpdir(), `upload-${randomUUID()}`);
  const hash = options.hash === false ? undefined : createHash(options.hash ?? 'sha256');
  const file = createWriteStream(path, { flags: temporary ? 'wx' : 'w' });
  let size = 0;
  // A file that could not be opened is not this call's to remove: a path that names a read-only file, a folder.
  let opened = false;
  let saved: ReturnType<typeof Part.saved> | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      file.once('open', () => resolve());
      file.once('error', reject);
    });
    opened = true;
    // Registered before the first byte is written: a reading that fails removes it.
    saved = Part.saved(part, path, temporary);
    // Read as `part.body` would be, without making the Web stream: one less layer per chunk and per part.
    for (let value; (value = await Part.take(part)) !== null;) {
      size += value.byteLength;
      hash?.update(value);
      // The next chunk is read while this one is written, and no further: the disk sets the pace.
      if (!file.write(value)) await drained(file);
    }
    await new Promise<void>((resolve, reject) => {
      file.once('error', reject);
      file.end(() => resolve());
    });
  } catch (error) {
    file.destroy();
    if (opened) await rm(path, { force: true });
    throw error;
  }
  return {
    path,
    size,
    hash: hash?.digest('hex'),
    name: part.name,
    filename: part.filename,
    type: part.type,
    keep: saved!.keep,
  };
}

function drained(
  file: NodeJS.WritableStream & { once(event: string, fn: (error?: Error) => void): unknown },
) {
  return new Promise<void>((resolve, reject) => {
    const onDrain = () => {
      file.off('error', onError);
      resolve();
    };
    const onError = (error?: Error) => {
      file.off('drain', onDrain);
      reject(error);
    };
    file.once('drain', onDrain);
    file.once('error', onError);
  });
}
