/**
 * Response contracts: in development and tests, what a handler returns is checked against the
 * schema its contract lists for the status, and a mismatch is reported — never answered
 * differently: the response goes out as the handler made it, when it would have without the check.
 *
 * The body is read from a clone, as its Content-Type says: JSON parsed, `text/*` as a string,
 * none as `undefined` (so `204: z.undefined()` checks a 204 has no body). Other bodies (files,
 * event streams, which may never end) are not read, and not checked.
 *
 * A body that is all there (a string, bytes, `Response.json()`) is checked before the response is
 * handed on, so its report comes first, as a test expects. A body still streaming (a log tail, a
 * model's tokens) is not waited for: the response goes on at once, with its chunks as they come,
 * and the copy is checked once it ends. The copy is read ahead of the client, so it costs memory:
 * past MAX_COPY the body is not checked, and the copy is dropped when the client leaves.
 */
import type { ContractIssue } from '../types';
import { FoundIssues, locationIssue, validateWith } from './issues';
import { mediaType } from './read-input';
import type { EndpointContract } from '../contract';

/** A handler answered with a body its contract's `responses` schema rejects. */
export class ResponseContractError extends Error {
  constructor(
    /** The response's status, whose schema rejected its body. */
    readonly status: number,
    /** What the schema found, located under `response`: `response.email`; the first 100. */
    readonly issues: ContractIssue[],
    /** How many more the schema found. */
    readonly omittedIssues = 0,
  ) {
    super(
      `The handler answered ${status} with a body that does not match its contract's responses[${status}]: ` +
        issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ') +
        (omittedIssues > 0 ? `; and ${omittedIssues} more` : ''),
    );
    this.name = 'ResponseContractError';
  }
}

/** What a check tells: a body the schema rejects, or an error of the schema itself. */
export type ResponseReport = (error: unknown) => void;

/**
 * The most of a body the check copies; a longer one is not checked. It bounds the memory a stream
 * that never ends costs, and the time a stream that never waits would hold the event loop.
 */
export const MAX_COPY = 4 * 1024 * 1024;

/**
 * Turns of the event loop a body has to be read whole before it counts as streaming: bodies made of
 * strings and bytes are read within microtasks, a Blob's parts within a turn or two.
 */
const READY_TURNS = 4;

const UNCHECKED = Symbol('unchecked');

/**
 * Checks `response` against its status's schema and tells `report` what is wrong. Resolves once
 * the check is done, or, for a body that streams, once that is known: the check goes on, and
 * reports when the body ends. Never rejects: a schema that throws is reported too.
 *
 * `after` is the call's `context.after` (absent when a test calls the handler without one): it
 * runs once the response has been sent or its client has left, under `.fetch` too, where the
 * caller's cancelling the body is how a client leaves.
 */
export async function checkResponse(
  responses: NonNullable<EndpointContract['responses']>,
  response: Response,
  request: Request,
  report: ResponseReport,
  after?: (fn: () => void) => void,
): Promise<void> {
  const schema = responses[response.status];
  if (schema === undefined) return;
  const copy = new BodyCopy(response);
  const checked = copy.value
    .then(async (value) => {
      if (value === UNCHECKED) return;
      const issues = new FoundIssues();
      if (value instanceof Issue) issues.add(value.issue);
      else await validateWith(schema, value, 'response', issues);
      if (issues.count > 0) report(new ResponseContractError(response.status, issues.list, issues.omitted));
    })
    .catch(report);
  const whole = await Promise.race([checked.then(() => true), turns(READY_TURNS).then(() => false)]);
  if (whole) return;
  // A streaming body: the copy lasts as long as the response. Once that is over, a copy still
  // reading has been left by the client, and keeping it would keep the stream's source open.
  // It is given the turns to take what is queued: a response sent whole has all of it there.
  const over = () => void turns(2).then(() => copy.stop());
  if (typeof after === 'function') return after(over);
  const signal = request.signal;
  if (signal.aborted) return over();
  signal.addEventListener('abort', over, { once: true });
  const unwatch = () => signal.removeEventListener('abort', over);
  checked.then(unwatch, unwatch);
}

/** A whole-body issue found before any schema ran: a body that says JSON and is not. */
class Issue {
  constructor(readonly issue: ContractIssue) {}
}

/** The body of a clone, read as its Content-Type says: what the schema is given. */
class BodyCopy {
  readonly value: Promise<unknown>;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** The copy was cancelled: what it read is not the whole body. */
  #stopped = false;
  #ended = false;

  constructor(response: Response) {
    this.value = this.#read(response);
  }

  /**
   * Cancels the copy unless it has been read to its end. The response's own body is left to its
   * reader: pulled as it reads from now on, and its source cancelled once it is cancelled too.
   */
  stop(): void {
    if (this.#ended) return;
    this.#stopped = true;
    this.#reader?.cancel().catch(noop);
  }

  async #read(response: Response): Promise<unknown> {
    if (response.body === null) return undefined;
    const type = mediaType(response.headers.get('content-type') ?? '');
    const json = type === 'application/json' || type.endsWith('+json');
    if (!json && !(type.startsWith('text/') && type !== 'text/event-stream')) return UNCHECKED;
    let text: string | typeof UNCHECKED;
    try {
      text = await this.#text(response.clone().body!);
    } catch {
      return UNCHECKED; // the body fails for whoever reads it: the host reports that
    }
    if (text === UNCHECKED || !json) return text;
    if (text === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return new Issue(locationIssue('response', 'The body is not valid JSON'));
    }
  }

  /** UTF-8, a byte order mark dropped, as `response.text()` decodes; UNCHECKED past the copy's limit. */
  async #text(body: ReadableStream<Uint8Array>): Promise<string | typeof UNCHECKED> {
    const reader = (this.#reader = body.getReader());
    const decoder = new TextDecoder();
    let text = '';
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (this.#stopped) return UNCHECKED;
      if (done) {
        this.#ended = true;
        return text + decoder.decode();
      }
      size += value.byteLength;
      if (size > MAX_COPY) {
        this.stop();
        return UNCHECKED;
      }
      text += decoder.decode(value, { stream: true });
    }
  }
}

/** Resolves after `count` turns of the event loop. */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

function noop(): void {}
