/**
 * `multipart(request, options)`: the parts of a `multipart/form-data` body as they arrive, parsed by
 * @fastify/busboy from `request.body`, the Web stream every host gives (the Node bridge, `.fetch`,
 * Bun, Deno). The body is read only as fast as the handler reads the parts: one part is handed out
 * at a time, its bytes are pulled from busboy as the handler reads them, and busboy is written the next
 * chunk of the body only once it has taken the last, so what waits in memory is a chunk or two
 * whatever the client sends. Past a limit, on a malformed body, when the client leaves or the request's
 * signal aborts (the route's `timeout`), the iteration throws, the rest of the body is left unread, and
 * the files saved from it are removed.
 */
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import { whenRequestOver } from '../dispatch';
import { MultipartError } from './errors';
import type { MultipartFormOptions } from '../types';
import { resolveLimits, type MultipartLimits } from './limits';
import { Part, type PartOwner } from './part';

/** multipart()'s options: the limits and `preservePath` a contract's `multipart` takes too, and `after`. */
export interface MultipartOptions extends MultipartFormOptions {
  /**
   * Runs a function once the request is over. The temporary files `saveFile()` writes are removed
   * then. A Request a mount serves needs none; for one made elsewhere (a unit test), pass the
   * context's `after`.
   */
  after?: (fn: () => unknown) => void;
}

/** The parts of `request`'s multipart/form-data body, one at a time: see the module's comment. */
export function multipart(request: Request, options: MultipartOptions = {}): AsyncIterableIterator<Part> {
  return new MultipartReader(request, options);
}

const MULTIPART_TYPE = /^multipart\/form-data\s*(?:;|$)/i;

class MultipartReader implements AsyncIterableIterator<Part>, PartOwner {
  readonly #request: Request;
  readonly #limits: MultipartLimits;
  readonly #options: MultipartOptions;
  #busboy: BusboyInstance | undefined;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** Parts busboy has emitted that the loop has not taken yet. */
  readonly #waiting: Part[] = [];
  #current: Part | undefined;
  #wanted: { resolve(result: IteratorResult<Part>): void; reject(error: unknown): void } | undefined;
  #error: unknown;
  #failed = false;
  #finished = false;
  #pumping = false;
  #counts = { parts: 0, files: 0, fields: 0 };
  /** Files saved from parts; removed if the reading fails. */
  readonly #files: { path: string; kept: boolean }[] = [];
  #cleanupScheduled = false;
  #stopSignal: (() => void) | undefined;

  constructor(request: Request, options: MultipartOptions) {
    this.#request = request;
    this.#options = options;
    this.#limits = resolveLimits(options.limits);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Part> {
    return this;
  }

  async next(): Promise<IteratorResult<Part>> {
    if (this.#busboy === undefined && !this.#failed) this.#start();
    const current = this.#current;
    this.#current = undefined;
    if (current) await current.skip();
    if (this.#failed) throw this.#error;
    const part = this.#waiting.shift();
    if (part) {
      // The part has ended (busboy emits a part once the one before it has), but the next may need more.
      this.pump();
      return this.#hand(part);
    }
    if (this.#finished) return this.#done();
    const wanted = new Promise<IteratorResult<Part>>(
      (resolve, reject) => (this.#wanted = { resolve, reject }),
    );
    this.pump();
    return wanted;
  }

  /** The loop left early (`break`, `return`, a throw in its body): the rest of the body stays unread. */
  async return(): Promise<IteratorResult<Part>> {
    if (!this.#finished && !this.#failed) {
      this.#failed = true;
      this.#error = new Error('multipart: the loop over the parts ended');
      this.#stop(this.#error);
    }
    return { done: true, value: undefined };
  }

  fail(error: unknown): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#error = error;
    this.#stop(error);
    const wanted = this.#wanted;
    this.#wanted = undefined;
    wanted?.reject(error);
    this.#removeFiles(() => true).catch(() => {});
  }

  partFailed(error: unknown): unknown {
    // busboy's own error for a part cut short is a malformed body; where the body's stream failed first
    // (the client gone, a limit), its error stands.
    if (!this.#failed)
      this.fail(error instanceof MultipartError ? error : MultipartError.malformed(messageOf(error)));
    return this.#error;
  }

  overLimit(part: Part): Error {
    return part.filename === undefined
      ? MultipartError.overLimit('fieldSize', this.#limits.fieldSize, part.name)
      : MultipartError.overLimit('fileSize', this.#limits.fileSize, part.name);
  }

  saved(path: string, temporary: boolean): { keep(): void } {
    const file = { path, kept: !temporary };
    this.#files.push(file);
    if (this.#failed) this.#removeFiles(() => true).catch(() => {});
    if (temporary && !this.#cleanupScheduled) {
      this.#cleanupScheduled = true;
      const removeTemporary = () => this.#removeFiles((saved) => !saved.kept);
      if (!whenRequestOver(this.#request, removeTemporary)) this.#options.after?.(removeTemporary);
    }
    return { keep: () => void (file.kept = true) };
  }

  #hand(part: Part): IteratorResult<Part> {
    this.#current = part;
    return { done: false, value: part };
  }

  #done(): IteratorResult<Part> {
    this.#stopSignal?.();
    return { done: true, value: undefined };
  }

  #start(): void {
    const request = this.#request;
    const contentType = request.headers.get('content-type');
    try {
      if (contentType === null || !MULTIPART_TYPE.test(contentType))
        throw MultipartError.unsupportedType(contentType);
      if (request.body === null) throw MultipartError.malformed('the request has no body');
      if (request.bodyUsed || request.body.locked)
        throw MultipartError.malformed('the request body was already read');
      this.#busboy = this.#parser(contentType);
      this.#reader = request.body.getReader();
    } catch (error) {
      this.fail(error instanceof MultipartError ? error : MultipartError.malformed(messageOf(error)));
      return;
    }
    const signal = request.signal;
    if (signal.aborted) return this.fail(signal.reason);
    const onAbort = () => this.fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    this.#stopSignal = () => signal.removeEventListener('abort', onAbort);
  }

  #parser(contentType: string): BusboyInstance {
    const busboy = new Busboy({
      headers: { 'content-type': contentType },
      // Every part comes as a stream, fields too: their sizes are counted here, against their own limit.
      isPartAFile: () => true,
      preservePath: this.#options.preservePath ?? false,
      limits: { headerSize: this.#limits.headerSize },
      fileHwm: 64 * 1024,
    });
    busboy.on('file', (name, stream, filename, encoding, type) =>
      this.#onPart(stream, { name, filename, encoding, type }),
    );
    busboy.on('error', (error) => this.fail(MultipartError.malformed(messageOf(error))));
    busboy.on('finish', () => {
      this.#finished = true;
      const wanted = this.#wanted;
      if (wanted && this.#waiting.length === 0) {
        this.#wanted = undefined;
        wanted.resolve(this.#done());
      }
    });
    return busboy;
  }

  #onPart(
    stream: Readable,
    info: { name: string; filename: string | undefined; encoding: string; type: string },
  ): void {
    if (this.#failed) {
      stream.on('error', () => {});
      stream.resume();
      return;
    }
    const isFile = info.filename !== undefined;
    const counts = this.#counts;
    const limits = this.#limits;
    const over =
      ++counts.parts > limits.parts
        ? MultipartError.overLimit('parts', limits.parts)
        : isFile && ++counts.files > limits.files
          ? MultipartError.overLimit('files', limits.files, info.name)
          : !isFile && ++counts.fields > limits.fields
            ? MultipartError.overLimit('fields', limits.fields, info.name)
            : undefined;
    if (over) {
      stream.on('error', () => {});
      stream.resume();
      return this.fail(over);
    }
    const part = new Part(this, stream, { ...info, limit: isFile ? limits.fileSize : limits.fieldSize });
    const wanted = this.#wanted;
    if (wanted) {
      this.#wanted = undefined;
      wanted.resolve(this.#hand(part));
    } else {
      this.#waiting.push(part);
    }
  }

  pump(): void {
    if (!this.#pumping && this.#busboy !== undefined) void this.#pump();
  }

  /**
   * Writes the body to busboy, a chunk once busboy has taken the last, and stops while a part it has
   * emitted waits for the loop to take it: reading on would only fill memory.
   */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    const busboy = this.#busboy!;
    const reader = this.#reader!;
    try {
      while (!this.#failed && !this.#finished && this.#waiting.length === 0) {
        const { done, value } = await reader.read();
        if (this.#failed) break;
        if (done) {
          busboy.end();
          break;
        }
        const chunk = Buffer.isBuffer(value)
          ? value
          : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
        await new Promise<void>((resolve, reject) =>
          busboy.write(chunk, (error) => (error ? reject(error) : resolve())),
        );
      }
    } catch (error) {
      // The body's own error as it is: the route's bodyLimit (413), the client gone, a parser in front.
      this.fail(error);
    } finally {
      this.#pumping = false;
    }
  }

  /** Reading stops for good: the rest of the body is not read, and busboy is let go. */
  #stop(reason: unknown): void {
    this.#stopSignal?.();
    this.#reader?.cancel(reason).catch(() => {});
    const busboy = this.#busboy;
    if (busboy) {
      busboy.removeAllListeners('file');
      busboy.on('error', () => {});
      busboy.destroy();
    }
    const current = this.#current;
    if (current) Part.abort(current, reason);
    for (const part of this.#waiting.splice(0)) Part.abort(part, reason);
  }

  /**
   * Removes the files `which` picks. A removal that fails is thrown once all have been tried: from an
   * `after()` callback, to the mount's `onError`. Where nothing waits (the reading failed), the
   * request's end tries again.
   */
  async #removeFiles(which: (file: { path: string; kept: boolean }) => boolean): Promise<void> {
    const removing = this.#files.filter((file) => which(file));
    const results = await Promise.allSettled(removing.map((file) => rm(file.path, { force: true })));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
