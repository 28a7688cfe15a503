/**
 * Reading responses back the way a strict HTTP/1.1 client (or a proxy reusing the connection)
 * would: one after the other, each framed by its own head, nothing in between. A body longer
 * than its Content-Length shows as bytes that are not a response; a shorter one, as a response
 * that never completes (a hang) unless the server closes the connection.
 */
import { expect } from 'chai';
import { exchange, type Exchange, type RawRequest } from '../middleware/transparency/raw-client';

export interface ParsedResponse {
  status: number;
  /** The status line's reason phrase. */
  reason: string;
  /** Header lines, names lower-cased, in order. */
  headers: [string, string][];
  body: Buffer;
  /** The body is all there by the response's own framing. */
  complete: boolean;
}

export interface Conversation {
  responses: ParsedResponse[];
  /** Bytes after the last response that do not start a response. */
  garbage: Buffer;
  ending: Exchange['ending'];
}

/** `requests` sent one after another on one connection, each once the previous answer is complete. */
export async function converse(port: number, requests: RawRequest[], timeout = 1500): Promise<Conversation> {
  const x = await exchange(port, requests, { timeout });
  const closed = x.ending === 'closed' || x.ending === 'error';
  return { ...parseResponses(x.bytes, requests, closed), ending: x.ending };
}

const STATUS_LINE = /^HTTP\/1\.1 (\d{3}) ([^\r\n]*)$/;

export function parseResponses(bytes: Buffer, requests: RawRequest[], closed: boolean) {
  const responses: ParsedResponse[] = [];
  let at = 0;
  while (at < bytes.length) {
    const headEnd = bytes.indexOf('\r\n\r\n', at);
    const lines = bytes
      .subarray(at, headEnd === -1 ? bytes.length : headEnd)
      .toString('latin1')
      .split('\r\n');
    const match = STATUS_LINE.exec(lines[0]!);
    if (!match || headEnd === -1) break;
    const status = Number(match[1]);
    const headers = lines.slice(1).map((line): [string, string] => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    });
    const start = headEnd + 4;
    const noBody = requests[responses.length]?.method === 'HEAD' || status === 204 || status === 304;
    const lengths = headers.filter(([name]) => name === 'content-length').map(([, v]) => v);
    const chunked = headers.some(([name, v]) => name === 'transfer-encoding' && /chunked/i.test(v));
    let end: number;
    let body: Buffer;
    let complete: boolean;
    if (noBody) {
      [end, body, complete] = [start, Buffer.alloc(0), true];
    } else if (chunked) {
      ({ end, body, complete } = readChunked(bytes, start));
    } else if (lengths.length > 0) {
      expect(lengths, 'one valid Content-Length').to.have.length(1);
      expect(lengths[0]).to.match(/^\d+$/);
      end = Math.min(bytes.length, start + Number(lengths[0]));
      body = bytes.subarray(start, end);
      complete = end === start + Number(lengths[0]);
    } else {
      // Framed by the connection's close.
      [end, body, complete] = [bytes.length, bytes.subarray(start), closed];
    }
    responses.push({ status, reason: match[2]!, headers, body, complete });
    at = end;
    if (!complete) break;
  }
  return { responses, garbage: bytes.subarray(at) };
}

function readChunked(bytes: Buffer, from: number) {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd === -1) return { end: bytes.length, body: Buffer.concat(parts), complete: false };
    const line = bytes.subarray(at, lineEnd).toString('latin1');
    expect(line, 'a chunk size').to.match(/^[0-9a-f]+$/i);
    const size = parseInt(line, 16);
    if (size === 0) {
      const end = bytes.indexOf('\r\n\r\n', lineEnd);
      return { end: end === -1 ? bytes.length : end + 4, body: Buffer.concat(parts), complete: end !== -1 };
    }
    const dataEnd = lineEnd + 2 + size;
    parts.push(bytes.subarray(lineEnd + 2, Math.min(dataEnd, bytes.length)));
    if (bytes.length < dataEnd + 2) return { end: bytes.length, body: Buffer.concat(parts), complete: false };
    at = dataEnd + 2;
  }
}

/**
 * The framing invariant: each response on the connection is exactly its own answer, or the
 * connection closes. The first answer, when complete, carries `first` byte for byte (a complete
 * response with other bytes would be a silent truncation); an incomplete one, or none, ends with
 * the connection; nothing follows a response but the next response.
 */
export function expectOwnAnswers(c: Conversation, first: Buffer, second: Buffer | string): void {
  expect(c.ending, 'the connection hung').not.to.equal('timeout');
  expect(c.garbage.toString('latin1'), 'bytes that belong to no response').to.equal('');
  const [one, two] = c.responses;
  if (one === undefined || !one.complete) {
    expect(c.responses.length).to.be.at.most(1);
    expect(c.ending).to.be.oneOf(['closed', 'error']);
    return;
  }
  expect(one.body.equals(first), `first body: got ${one.body.length} bytes, want ${first.length}`).to.equal(
    true,
  );
  if (two === undefined) {
    expect(c.ending, 'no second answer: the connection must be closed').to.be.oneOf(['closed', 'error']);
    return;
  }
  expect(two.complete).to.equal(true);
  expect(two.body.toString('latin1')).to.equal(Buffer.from(second).toString('latin1'));
}

/** The first answer was cut short, or never came: either way the client sees that it failed. */
export function expectCut(c: Conversation): void {
  expect(c.responses[0]?.complete ?? false, 'the truncation shows').to.equal(false);
  expect(c.ending).to.be.oneOf(['closed', 'error']);
}

/** The value of a header in a parsed response, every line of it. */
export function headerValues(response: ParsedResponse, name: string): string[] {
  return response.headers.filter(([n]) => n === name).map(([, v]) => v);
}
