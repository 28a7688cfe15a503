/**
 * A Response body the library made from something Node can stream itself (a file on disk): the
 * Web ReadableStream is the body every host reads, and a Node host's bridge may open the source
 * instead and pipe it, as `res.sendFile` pipes `fs.createReadStream`, which spares each chunk the
 * trip through a Web stream. The source is kept on the stream under a registered symbol, so a
 * second copy of the library (its ESM and CommonJS builds side by side) knows it as well.
 */
import type { Readable } from 'node:stream';

const NODE_SOURCE = Symbol.for('express-file-endpoints.node-source');

export interface NodeSource {
  /** The body's length in bytes. */
  readonly length: number;
  /** The same bytes as a Node stream; rejects as the Web stream's first read would. */
  open(): Promise<Readable>;
  /** Why the Node stream ended before `length` bytes, as the Web stream would have failed. */
  endedShort(): Error;
}

/** `stream`, known to be `source`'s bytes. */
export function withNodeSource<T extends ReadableStream>(stream: T, source: NodeSource): T {
  Object.defineProperty(stream, NODE_SOURCE, { value: source });
  return stream;
}

/** The source `body` was made from, when the library made it from one. */
export function nodeSourceOf(body: ReadableStream): NodeSource | undefined {
  return (body as { [NODE_SOURCE]?: NodeSource })[NODE_SOURCE];
}
