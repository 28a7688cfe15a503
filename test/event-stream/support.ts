/**
 * Reading event streams in tests: the body's text, parsed by eventsource-parser (an implementation of
 * the WHATWG rules that is not ours), into events with the type a browser would give them.
 */
import { createParser } from 'eventsource-parser';

export interface ParsedEvent {
  /** `message` when the stream named none, as a browser's EventSource says. */
  event: string;
  data: string;
  id: string | undefined;
}

export interface ParsedStream {
  events: ParsedEvent[];
  comments: string[];
  retries: number[];
}

export function parseEventStream(text: string): ParsedStream {
  const parsed: ParsedStream = { events: [], comments: [], retries: [] };
  const parser = createParser({
    onEvent: (message) =>
      parsed.events.push({ event: message.event || 'message', data: message.data, id: message.id }),
    onComment: (comment) => parsed.comments.push(comment),
    onRetry: (retry) => parsed.retries.push(retry),
  });
  parser.feed(text);
  return parsed;
}

/** The whole body, read to its end, then parsed. */
export async function readEventStream(response: Response): Promise<ParsedStream> {
  return parseEventStream(await response.text());
}

/** Reads a body chunk by chunk, as text, handing each to `onChunk`, until it ends or `onChunk` says stop. */
export async function readChunks(
  body: ReadableStream<Uint8Array>,
  onChunk: (text: string) => boolean | void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (onChunk(decoder.decode(value, { stream: true })) === true) {
      await reader.cancel();
      return;
    }
  }
}
