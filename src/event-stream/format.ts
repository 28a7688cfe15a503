/**
 * The text of one server-sent event, framed as the WHATWG HTML standard parses an event stream
 * (section 9.2.6, "Interpreting an event stream"): a field per line, `data` split into as many
 * `data:` lines as it has lines, a blank line to end the event.
 *
 * A value that a line break would split into another field (an event name or an id holding CR or
 * LF) is refused, never written: user data must not be able to forge fields, end an event early
 * or start one of its own. An id holding NUL is refused too, since the client ignores such an id
 * and would resume from the one before. `data` is the only field that may span lines; its line
 * breaks (CRLF, CR or LF) arrive as LF, the only one the format gives back.
 */

/** One event, as a handler sends it. */
export interface EventMessage<Data = unknown> {
  /**
   * The event's data. A string is sent as it is, any other value as JSON; in a stream whose data is
   * JSON (a contract's `events`, or `{ json: true }`), every value is sent as JSON, a string too.
   */
  data: Data;
  /** The event's type: `addEventListener(event)` in a browser; `message` when left out. */
  event?: string;
  /** The event's id: what a reconnecting client sends back as `Last-Event-ID`. */
  id?: string;
  /** Milliseconds the client waits before it reconnects, from this event on. */
  retry?: number;
}

/** The framed text of `message`, its data already turned into text by `dataText`. */
export function formatEvent(message: EventMessage, dataText: string): string {
  let text = '';
  const { event, id, retry } = message;
  if (event !== undefined && event !== '') text += `event: ${checkedLine('event', event)}\n`;
  if (id !== undefined) text += `id: ${checkedId(id)}\n`;
  if (retry !== undefined) text += `retry: ${checkedRetry(retry)}\n`;
  return `${text}${dataLines(dataText)}\n`;
}

/** `data: …` lines for `text`: one per line it holds. */
function dataLines(text: string): string {
  // Most data (JSON above all) holds no line break: one line, and no split to pay for.
  if (!LINE_BREAK.test(text)) return `data: ${text}\n`;
  let lines = '';
  for (const line of text.split(LINE_BREAKS)) lines += `data: ${line}\n`;
  return lines;
}

/** A comment: lines starting with `:`, which clients skip. Line breaks make more comment lines. */
export function formatComment(text: string): string {
  if (text === '') return ':\n';
  let lines = '';
  for (const line of text.split(LINE_BREAKS)) lines += `: ${line}\n`;
  return lines;
}

/** A `retry:` line alone: sets the client's reconnection time without sending an event. */
export function formatRetry(retry: number): string {
  return `retry: ${checkedRetry(retry)}\n\n`;
}

const LINE_BREAK = /[\r\n]/;
const LINE_BREAKS = /\r\n|\r|\n/;

function checkedLine(field: string, value: unknown): string {
  if (typeof value !== 'string')
    throw new TypeError(`An event's ${field} must be a string, not ${typeof value}`);
  if (LINE_BREAK.test(value)) {
    throw new TypeError(
      `An event's ${field} cannot hold a line break (CR or LF): it would end the field there. Got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function checkedId(id: unknown): string {
  const value = checkedLine('id', id);
  if (value.includes('\0')) {
    throw new TypeError(
      `An event's id cannot hold NUL: clients ignore such an id, and would resume from the one before. Got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function checkedRetry(retry: unknown): number {
  if (typeof retry !== 'number' || !Number.isSafeInteger(retry) || retry < 0) {
    throw new TypeError(
      `An event's retry must be a whole number of milliseconds, 0 or more; got ${String(retry)}`,
    );
  }
  return retry;
}
