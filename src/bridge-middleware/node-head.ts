/**
 * What Node does with a response head, for a capture that must behave like Node without
 * sending anything: the checks and errors come from Node itself, by asking a throwaway
 * ServerResponse (no socket, nothing sent) to do the same, so the chain gets Node's own
 * RangeError for a bad status or ERR_HTTP_HEADERS_SENT for a late header, on every version.
 */
import { ServerResponse, STATUS_CODES, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { isNullBodyStatus } from '../dispatch';

/** The status a Response carries when the chain's cannot be held by one (1xx, 600-999). */
const UNREPRESENTABLE_STATUS = 599;

const PROBE_REQUEST = {
  method: 'GET',
  httpVersionMajor: 1,
  httpVersionMinor: 1,
  headers: {},
} as unknown as IncomingMessage;
let sent: ServerResponse | undefined;

export function freshProbe(): ServerResponse {
  const probe = new ServerResponse(PROBE_REQUEST);
  // Express always has a header on res by then (X-Powered-By): Node's writeHead takes the same path.
  probe.setHeader('x-probe', '1');
  return probe;
}

/** A response whose head is out: every header change on it throws as Node does. */
export function sentProbe(): ServerResponse {
  if (!sent) {
    sent = new ServerResponse(PROBE_REQUEST);
    sent.writeHead(200);
  }
  return sent;
}

/** The status writeHead would set, or Node's own error for the call (status, reason, headers). */
export function checkHead(res: ServerResponse, args: unknown[]): number {
  const statusCode = (args[0] as number) | 0;
  const simple = args.length <= 1 && !res.statusMessage;
  if (simple && statusCode >= 100 && statusCode <= 999) return statusCode;
  const probe = freshProbe();
  probe.statusMessage = res.statusMessage;
  (probe.writeHead as (...a: unknown[]) => void)(...args);
  return statusCode;
}

/** writeHead(status, [reason], [headers]) applied to `res` without sending, as Node applies it. */
export function applyWriteHead(res: ServerResponse, statusCode: number, args: unknown[]): void {
  const [, reason] = args;
  let headers = args[2];
  if (typeof reason === 'string') res.statusMessage = reason;
  else {
    if (!res.statusMessage) res.statusMessage = STATUS_CODES[statusCode] || 'unknown';
    headers ??= reason;
  }
  res.statusCode = statusCode;
  if (Array.isArray(headers)) {
    const flat = (headers as unknown[]).flat() as string[];
    for (let i = 0; i < flat.length; i += 2) if (flat[i]) res.removeHeader(flat[i]!);
    for (let i = 0; i < flat.length; i += 2) if (flat[i]) res.appendHeader(flat[i]!, flat[i + 1]!);
  } else if (headers && typeof headers === 'object') {
    for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) {
      if (name && value !== undefined) res.setHeader(name, value);
    }
  }
}

/** The captured status and headers as a Response; the headers stay on `res` as well. */
export function responseFromHead(
  res: ServerResponse,
  head: Pick<ServerResponse, 'statusCode' | 'statusMessage'>,
  body: Uint8Array | ReadableStream<Uint8Array>,
): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.append(name, String(value));
  }
  const representable = head.statusCode >= 200 && head.statusCode <= 599;
  const status = representable ? head.statusCode : UNREPRESENTABLE_STATUS;
  return new Response(isNullBodyStatus(status) ? null : (body as BodyInit), {
    status,
    statusText: head.statusMessage,
    headers,
  });
}
