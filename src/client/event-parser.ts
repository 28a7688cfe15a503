/**
 * An event stream's text, parsed as the WHATWG HTML standard says a browser's EventSource parses it
 * (section 9.2.6): lines end at CRLF, LF or CR (a CR at the end of one chunk and an LF at the start
 * of the next are one line end); `:` starts a comment; a blank line dispatches the event; `data`
 * lines join with LF; an `id` holding NUL is ignored, and the last id holds until another replaces
 * it; `retry` takes ASCII digits only; other fields are ignored. An event without data is not one.
 * Decoding is the caller's: UTF-8, a byte order mark at the start dropped, as `TextDecoder` does.
 *
 * The standard sets no bound, and a browser grows its buffers until the tab runs out of memory. This
 * parser holds an event to `maxSize` characters, its data and the line it is reading together: a
 * stream that never ends a line costs that much at the most, then fails with an `EventTooLargeError`.
 */

/** An event (its data, or a line) longer than the reader's `maxEventSize`: the stream is given up. */
export class EventTooLargeError extends Error {
  constructor(readonly maxEventSize: number) {
    super(
      `An event of the stream grew past maxEventSize (${maxEventSize} characters) before it ended: the stream was closed`,
    );
    this.name = 'EventTooLargeError';
  }
}

/** One event, as an EventSource dispatches it. */
export interface ParsedEvent {
  /** The event's type: `message` when the stream named none. */
  type: string;
  data: string;
  /** The last event id the stream set, this event's or an earlier one's; `''` when none. */
  lastEventId: string;
}

export class EventParser {
  /** The last event id: carried over from the connection before, for a stream that sets none. */
  lastEventId: string;
  /** The reconnection time the stream asked for (`retry:`), in milliseconds. */
  retry: number | undefined;
  #line = '';
  #skipLineFeed = false;
  #data = '';
  #hasData = false;
  #type = '';
  #idBuffer: string;
  #events: ParsedEvent[] = [];
  readonly #maxSize: number;

  constructor(lastEventId = '', maxSize = Infinity) {
    this.lastEventId = lastEventId;
    this.#idBuffer = lastEventId;
    this.#maxSize = maxSize;
  }

  /** Parses a chunk of decoded text; returns the events it completed. */
  push(text: string): ParsedEvent[] {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === LF && this.#skipLineFeed) {
        this.#skipLineFeed = false;
        start = i + 1;
        continue;
      }
      this.#skipLineFeed = false;
      if (code !== CR && code !== LF) continue;
      this.#line += text.slice(start, i);
      this.#lineEnded(this.#line);
      this.#line = '';
      this.#skipLineFeed = code === CR;
      start = i + 1;
    }
    this.#line += text.slice(start);
    // A line is no longer than one chunk past the bound: it was checked at the end of the chunk before.
    if (this.#line.length + this.#data.length > this.#maxSize) throw new EventTooLargeError(this.#maxSize);
    const events = this.#events;
    this.#events = [];
    return events;
  }

  #lineEnded(line: string): void {
    if (line === '') return this.#dispatch();
    if (line.charCodeAt(0) === COLON) return;
    const colon = line.indexOf(':');
    let field = line;
    let value = '';
    if (colon !== -1) {
      field = line.slice(0, colon);
      value = line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    }
    switch (field) {
      case 'event':
        this.#type = value;
        break;
      case 'data':
        this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
        this.#hasData = true;
        if (this.#data.length > this.#maxSize) throw new EventTooLargeError(this.#maxSize);
        break;
      case 'id':
        if (!value.includes('\0')) this.#idBuffer = value;
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.retry = Number(value);
        break;
    }
  }

  #dispatch(): void {
    this.lastEventId = this.#idBuffer;
    if (this.#hasData) {
      this.#events.push({ type: this.#type || 'message', data: this.#data, lastEventId: this.lastEventId });
    }
    this.#data = '';
    this.#hasData = false;
    this.#type = '';
  }
}

const CR = 13;
const LF = 10;
const COLON = 58;
const SPACE = 32;
