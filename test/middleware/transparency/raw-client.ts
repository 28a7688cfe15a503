/**
 * A raw-socket HTTP/1.x client for the transparency suite: it sends exactly the bytes it is given
 * and keeps every byte the server sends back — interim 1xx responses, the status line with its
 * text, each header line as written (spelling, order, repeats), the framing (Content-Length,
 * chunked with its chunk sizes and trailers, or read-until-close) and the body. It parses only
 * enough to know where a response ends, so several requests can share one connection.
 */
import net from 'node:net';

export interface RawRequest {
  method?: string;
  path: string;
  /** Header lines in order; `Host: example.test` is added first unless a host header is given. */
  headers?: [string, string][];
  body?: string | Buffer;
  /** `HTTP/1.0` for the old framing rules; default `HTTP/1.1`. */
  version?: string;
}

export interface Exchange {
  /** Everything the server sent, as received. */
  bytes: Buffer;
  /** How the last response ended. */
  ending: 'complete' | 'closed' | 'left' | 'timeout' | 'error';
}

export interface ExchangeOptions {
  /** Hang up once the bytes received contain this text (a response that never ends by itself). */
  leaveAfter?: string;
  /** Hang up after this many ms, whatever arrived (default: wait up to `timeout`). */
  leaveAfterMs?: number;
  timeout?: number;
}

export function requestBytes(request: RawRequest): Buffer {
  const headers = request.headers ?? [];
  const lines = [`${request.method ?? 'GET'} ${request.path} ${request.version ?? 'HTTP/1.1'}`];
  if (!headers.some(([name]) => name.toLowerCase() === 'host')) lines.push('Host: example.test');
  for (const [name, value] of headers) lines.push(`${name}: ${value}`);
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  if (body && !headers.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name)))
    lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), body ?? Buffer.alloc(0)]);
}

/** Sends the requests one after another on one connection; resolves with everything received. */
export function exchange(
  port: number,
  requests: RawRequest[],
  options: ExchangeOptions = {},
): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let parsedUpTo = 0;
    let index = 0;
    let settled = false;
    const finish = (ending: Exchange['ending']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(leaveTimer);
      socket.destroy();
      resolve({ bytes: received, ending });
    };
    const timer = setTimeout(() => finish('timeout'), options.timeout ?? 3000);
    const leaveTimer =
      options.leaveAfterMs === undefined ? undefined : setTimeout(() => finish('left'), options.leaveAfterMs);
    const sendNext = () => socket.write(requestBytes(requests[index]!));

    socket.on('connect', sendNext);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (options.leaveAfter && received.includes(options.leaveAfter)) return finish('left');
      for (;;) {
        const end = responseEnd(received, parsedUpTo, requests[index]!.method === 'HEAD');
        if (end === undefined) return;
        parsedUpTo = end;
        if (++index === requests.length) return finish('complete');
        sendNext();
      }
    });
    socket.on('end', () => finish('closed'));
    socket.on('error', () => finish('error'));
  });
}

/**
 * Where the final response starting at `from` ends (interim 1xx responses skipped), or
 * `undefined` while it is incomplete. A response framed by the connection's close never ends here.
 */
function responseEnd(data: Buffer, from: number, head: boolean): number | undefined {
  let start = from;
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', start);
    if (headEnd === -1) return undefined;
    const lines = data.subarray(start, headEnd).toString('latin1').split('\r\n');
    const status = Number(lines[0]!.split(' ')[1]);
    const bodyStart = headEnd + 4;
    if (status >= 100 && status < 200 && status !== 101) {
      start = bodyStart; // interim: 100 Continue, 103 Early Hints
      continue;
    }
    const header = (name: string) =>
      lines
        .slice(1)
        .filter((line) => line.toLowerCase().startsWith(`${name}:`))
        .map((line) => line.slice(name.length + 1).trim());
    if (head || status === 101 || status === 204 || status === 304) return bodyStart;
    if (header('transfer-encoding').some((value) => /chunked/i.test(value)))
      return chunkedEnd(data, bodyStart);
    const length = header('content-length')[0];
    if (length !== undefined) {
      const end = bodyStart + Number(length);
      return data.length >= end ? end : undefined;
    }
    return undefined;
  }
}

function chunkedEnd(data: Buffer, from: number): number | undefined {
  let at = from;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return data.length; // not chunked after all: let the comparison show it
    if (size === 0) {
      // Trailers, then an empty line.
      const trailersEnd = data.indexOf('\r\n\r\n', lineEnd);
      if (data.subarray(lineEnd, lineEnd + 4).toString() === '\r\n\r\n') return lineEnd + 4;
      return trailersEnd === -1 ? undefined : trailersEnd + 4;
    }
    at = lineEnd + 2 + size + 2;
    if (data.length < at) return undefined;
  }
}
