/**
 * Reads a Node request's whole body and puts it back into the stream, for a bridged middleware:
 * the host's own readers after it (express.json(), a route reading `req`) must still find the body
 * the middleware read, e.g. to verify a webhook signature first.
 *
 * Node lets `unshift()` return data to a stream until its 'end' event has been emitted. Reading with
 * `read()` (paused mode) until the message is complete, then unshifting everything in the same tick,
 * keeps 'end' from being emitted: the stream looks untouched to whoever reads it next.
 */
import type { IncomingMessage } from 'node:http';
import { asClientClosed, BodyLimitError, ClientClosedError } from './node-body';

export function readAndRestoreBody(req: IncomingMessage, limit: number | false): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error?: Error) => {
      req.off('readable', onReadable);
      req.off('error', onError);
      req.off('close', onClose);
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      if (body.length > 0 && !req.readableEnded && !req.destroyed) req.unshift(body);
      if (error) reject(error);
      else resolve(body);
    };
    const onReadable = () => {
      let chunk: Buffer | null;
      while ((chunk = req.read() as Buffer | null) !== null) {
        chunks.push(chunk);
        size += chunk.length;
        if (limit !== false && size > limit) return settle(new BodyLimitError(limit));
      }
      // `complete` is set with the message's last byte, in the same call that ends the stream.
      if (req.complete) settle();
    };
    const onError = (error: Error) => settle(asClientClosed(error));
    const onClose = () => {
      if (!req.complete) settle(new ClientClosedError());
    };
    req.on('readable', onReadable);
    req.on('error', onError);
    req.on('close', onClose);
    onReadable();
  });
}
