/**
 * One part of a multipart body: its name, filename, type and headers, and its bytes as a Web stream
 * read from busboy's stream of it, one chunk per read, with nothing read ahead: a consumer that does
 * not read holds busboy, and busboy holds the request. Bytes past the part's limit fail it.
 */
import type { Readable } from 'node:stream';

/** What a part reports to the multipart() reading it. */
export interface PartOwner {
  /**
   * The part crossed its size limit, or busboy's stream of it failed: the reading fails, and the error
   * it fails with (the first, whichever part or the body had it) is what the part's stream fails with.
   */
  partFailed(error: unknown): unknown;
  /** The part's size limit, as a 413 error, made by the owner. */
  overLimit(part: Part): Error;
  /** The part wants more of the body: busboy is written more of it, if it is not already. */
  pump(): void;
  /** A file saved from this part: removed if the request fails, or when it ends unless kept. */
  saved(path: string, temporary: boolean): { keep(): void };
}

const MOVED_ON = (name: string) =>
  `multipart: part ${JSON.stringify(name)} was read after the loop moved past it; read a part before asking for the next`;

export class Part {
  /** The field's name (Content-Disposition's `name`). */
  readonly name: string;
  /** The file's name as the client sent it, without its folders; `undefined` for a field. */
  readonly filename: string | undefined;
  /** The part's Content-Type (`text/plain` when it has none, as RFC 7578 says). */
  readonly type: string;
  #headers: Headers | undefined;
  readonly #info: { name: string; filename: string | undefined; type: string; encoding: string };
  #body: ReadableStream<Uint8Array> | undefined;

  readonly #file: Readable;
  readonly #owner: PartOwner;
  readonly #limit: number;
  #size = 0;
  #reading: Promise<unknown> | undefined;
  #ended = false;
  #skipped = false;

  constructor(
    owner: PartOwner,
    file: Readable,
    info: { name: string; filename: string | undefined; type: string; encoding: string; limit: number },
  ) {
    this.#owner = owner;
    this.#file = file;
    this.#limit = info.limit;
    this.name = info.name;
    this.filename = info.filename;
    this.type = info.type;
    this.#info = info;
    // Errors of busboy's stream are the owner's to report: a part nobody reads must not throw them.
    file.on('error', () => {});
  }

  /**
   * The part's bytes. Read it, or leave it: the loop moving on drains it. Made on first use:
   * `saveFile()`, `text()` and `bytes()` read the part without one.
   */
  get body(): ReadableStream<Uint8Array> {
    return (this.#body ??= new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          const chunk = await this.#take();
          if (chunk === null) controller.close();
          else controller.enqueue(chunk);
        },
        cancel: () => this.skip(),
      },
      { highWaterMark: 0 },
    ));
  }

  /**
   * The part's headers as busboy read them: Content-Disposition, Content-Type, Content-Transfer-Encoding.
   * Made on first use: most handlers read `name`, `filename` and `type` only.
   */
  get headers(): Headers {
    return (this.#headers ??= partHeaders(this.#info));
  }

  /** The whole part as bytes: for small parts (a field, a file under a small limit). */
  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (let chunk; (chunk = await this.#take()) !== null;) {
      chunks.push(chunk);
      size += chunk.byteLength;
    }
    const whole = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      whole.set(chunk, at);
      at += chunk.byteLength;
    }
    return whole;
  }

  /** The whole part as UTF-8 text. */
  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  /** The bytes read so far. */
  get size(): number {
    return this.#size;
  }

  /** @internal What a saved file reports to the reading: see PartOwner.saved. */
  static saved(part: Part, path: string, temporary: boolean): { keep(): void } {
    return part.#owner.saved(path, temporary);
  }

  /** @internal The reading failed: the part's stream fails with `reason`, if it has not ended. */
  static abort(part: Part, reason: unknown): void {
    if (!part.#ended) part.#file.destroy(reason instanceof Error ? reason : new Error(String(reason)));
  }

  /**
   * The rest of the part read and dropped, still counted against its limit; the body's reader, if
   * any, then finds it closed. Settles once the part has ended.
   */
  async skip(): Promise<void> {
    if (this.#ended || this.#skipped) return;
    this.#skipped = true;
    await this.#reading?.catch(() => {});
    while ((await this.#next().catch(() => null)) !== null);
  }

  /** @internal The next chunk of the part, for saveFile: as a read of `body` gives it. */
  static take(part: Part): Promise<Uint8Array | null> {
    return part.#take();
  }

  /** The next chunk for a reader of the part; a part the loop moved past fails, saying so. */
  #take(): Promise<Uint8Array | null> {
    if (this.#skipped) return Promise.reject(new TypeError(MOVED_ON(this.name)));
    return this.#next();
  }

  /** The next chunk, counted; `null` at the part's end. One read at a time. */
  #next(): Promise<Uint8Array | null> {
    const reading = this.#read();
    this.#reading = reading;
    return reading;
  }

  async #read(): Promise<Uint8Array | null> {
    if (this.#ended) return null;
    let chunk: Buffer | null;
    this.#owner.pump();
    try {
      chunk = await readChunk(this.#file);
    } catch (error) {
      this.#ended = true;
      throw this.#owner.partFailed(error);
    }
    if (chunk === null) {
      this.#ended = true;
      return null;
    }
    this.#size += chunk.byteLength;
    if (this.#size > this.#limit) {
      this.#ended = true;
      throw this.#owner.partFailed(this.#owner.overLimit(this));
    }
    return chunk;
  }
}

/** One chunk of a paused Node stream: `null` once it has ended. */
function readChunk(file: Readable): Promise<Buffer | null> {
  const chunk = file.read() as Buffer | null;
  if (chunk !== null) return Promise.resolve(chunk);
  if (file.readableEnded) return Promise.resolve(null);
  if (file.errored) return Promise.reject(file.errored);
  return new Promise((resolve, reject) => {
    const settle = () => {
      file.off('readable', onReadable);
      file.off('end', onEnd);
      file.off('error', onError);
    };
    const onReadable = () => {
      settle();
      readChunk(file).then(resolve, reject);
    };
    const onEnd = () => {
      settle();
      resolve(null);
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    file.on('readable', onReadable);
    file.on('end', onEnd);
    file.on('error', onError);
  });
}

/** busboy reports a part's disposition, type and encoding, not its raw header: rebuilt from them. */
function partHeaders(info: { name: string; filename: string | undefined; type: string; encoding: string }) {
  const quoted = (value: string) => `"${value.replace(/["\\\r\n]/g, (c) => encodeURIComponent(c))}"`;
  const headers = new Headers();
  let disposition = `form-data; name=${quoted(asLatin1(info.name))}`;
  if (info.filename !== undefined) disposition += `; filename=${quoted(asLatin1(info.filename))}`;
  headers.set('content-disposition', disposition);
  headers.set('content-type', info.type);
  if (info.encoding !== '7bit') headers.set('content-transfer-encoding', info.encoding);
  return headers;
}

/** A header value holds bytes: UTF-8 names as the client sent them, byte for byte. */
function asLatin1(value: string): string {
  return Buffer.from(value, 'utf8').toString('latin1');
}
