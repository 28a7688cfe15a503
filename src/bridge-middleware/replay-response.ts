/**
 * What bridgeMiddleware sends once the middleware has called next() and the rest of the chain has
 * answered into a capture (response-capture.ts).
 *
 * The middleware returned the chain's own Response, or a copy around its body
 * (`new Response(r.body, r)`): the chain's calls are made again on the real `res`, with the
 * methods from before the capture: the head the way the chain sent it (writeHead, or Node's
 * implicit head on the first write), flushHeaders, each chunk as written, one end() for a body
 * sent whole. So Node frames the response exactly as it would have without the bridge — status
 * line (even one a Response cannot hold, 101 or 700), header names as spelt and in their order,
 * Content-Length or chunked, trailers, HEAD. Only what the middleware changed on the Response is
 * applied first.
 *
 * Any other Response, or a failure, goes out on a `res` that has lost the chain's headers and
 * kept the ones set before the middleware ran (helmet, cors, cookies) that the chain kept.
 */
import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import { CORK_BEFORE, UNCORK_AFTER } from './cork-marks';
import type { ChainResponse, ResponseCapture, UpstreamHeaders } from './response-capture';
import { failRequest, frameKnownBody, pipeBody, sendWebResponse } from '../bridge';

/** The middleware returned `returned`: the chain's response replayed, or another one sent. */
export async function sendAfterNext(
  res: ServerResponse,
  capture: ResponseCapture,
  returned: Response,
  head: boolean,
): Promise<void> {
  // The chain's head is known before next() resolves; a middleware that did not wait for it
  // answered on its own.
  const chain = capture.chain;
  if (chain && isChainDerived(chain, returned)) {
    await replayResponse(res, capture, chain, returned);
    return;
  }
  // Another Response. A stream of the chain's body that it reads (`r.body.pipeThrough(…)`,
  // `r.clone()`) keeps flowing; one nobody reads by the time the answer starts is cancelled.
  capture.passThrough(() => {
    resetHeaders(res, capture.upstream, returned);
    res.statusMessage = '';
  });
  const sending = sendWebResponse(capture.writer, returned, { head });
  capture.abandon();
  await sending;
}

/** A failure once the chain has answered: nothing of the chain's goes out, `answer` does. */
export function failAfterNext(
  req: IncomingMessage,
  res: ServerResponse,
  capture: ResponseCapture,
  error: unknown,
  answer: () => void,
): void {
  capture.abandon(true);
  capture.passThrough(() =>
    failRequest(
      req,
      res,
      () => {
        // The chain's head stays off the answer: its headers and its status line's text.
        resetHeaders(res, capture.upstream);
        res.statusMessage = '';
        answer();
      },
      error,
    ),
  );
  capture.restore();
}

/** The returned Response carries the chain's body: the same object, or a copy sharing its stream. */
function isChainDerived(chain: ChainResponse, returned: Response): boolean {
  if (returned === chain.response) return true;
  if (chain.body === null) return returned.body === null && returned.status === chain.response.status;
  return returned.body === chain.body;
}

/**
 * Sends `returned` (derived from the chain's response) by replaying the chain's calls. A promise
 * only while a streamed body is still being written.
 */
function replayResponse(
  res: ServerResponse,
  capture: ResponseCapture,
  chain: ChainResponse,
  returned: Response,
): Promise<void> | undefined {
  // Checked before anything is set on `res`: the 500 that answers instead carries none of it.
  if (returned.bodyUsed || returned.body?.locked) {
    throw new TypeError('A bridged middleware returned a Response whose body was read or is locked');
  }
  const { head } = chain;
  const statusKept =
    returned.status === chain.response.status && returned.statusText === chain.response.statusText;
  capture.passThrough(() => {
    // A copy is "another Response": the headers set before the middleware stay unless it set them.
    applyHeaderChanges(
      res,
      chain.headers,
      returned.headers,
      returned === chain.response ? undefined : capture.upstream,
    );
    res.statusCode = statusKept ? head.statusCode : returned.status;
    res.statusMessage = statusKept ? head.statusMessage : returned.statusText;
    // The body the chain sent whole goes out under its own length, whatever the copy declares.
    if (head.whole) frameKnownBody(res, head.whole.chunk?.byteLength ?? 0);
    if (head.explicit) res.writeHead(res.statusCode);
    if (head.flushed) res.flushHeaders();
    if (head.whole) {
      if (head.whole.chunk) res.end(head.whole.chunk);
      else res.end();
    }
  });
  if (head.whole) return;
  if (returned.body === null) {
    capture.writer.end();
    return;
  }
  return pump(res, capture, returned.body, chain.corks);
}

/** Takes the chain's headers off `res`, keeping those set before the chain that `returned` does not set. */
function resetHeaders(res: ServerResponse, upstream: UpstreamHeaders, returned?: Response): void {
  const own = returned?.headers.getSetCookie() ?? [];
  for (const name of res.getHeaderNames()) {
    const before = upstream.get(name);
    if (!before || (name !== 'set-cookie' && returned?.headers.has(name))) {
      res.removeHeader(name);
    } else if (name === 'set-cookie') {
      const kept = toList(before.value).filter((cookie) => !own.includes(cookie));
      if (kept.length > 0) res.setHeader(before.name, kept);
      else res.removeHeader(name);
    } else res.setHeader(before.name, before.value);
  }
}

/**
 * Applies to `res` (which holds the chain's headers) what differs between the Response the chain
 * produced (`before`) and the one returned (`after`). Untouched headers keep their spelling and
 * place. With `upstream`, a header set before the chain and missing from `after` is put back.
 */
function applyHeaderChanges(
  res: ServerResponse,
  before: [string, string][],
  after: Headers,
  upstream: UpstreamHeaders | undefined,
): void {
  const was = groupHeaders(before);
  const now = groupHeaders(after);
  for (const name of new Set([...was.keys(), ...now.keys()])) {
    const old = was.get(name);
    const current = now.get(name);
    if (old && current && sameList(old, current)) continue;
    const kept = upstream?.get(name);
    if (current && name === 'set-cookie' && kept) {
      const restored = toList(kept.value).filter((cookie) => !current.includes(cookie));
      res.setHeader(name, [...restored, ...current]);
    } else if (current) {
      res.setHeader(name, current.length === 1 ? current[0]! : current);
    } else if (kept) {
      res.setHeader(kept.name, kept.value);
    } else {
      res.removeHeader(name);
    }
  }
}

function groupHeaders(headers: Iterable<[string, string]>): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const [name, value] of headers) {
    const list = grouped.get(name);
    if (list) list.push(value);
    else grouped.set(name, [value]);
  }
  return grouped;
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function toList(value: OutgoingHttpHeader): string[] {
  return Array.isArray(value) ? value : [String(value)];
}

/** Writes a body chunk by chunk, as the chain wrote it (its cork()/uncork() included). */
function pump(
  res: ServerResponse,
  capture: ResponseCapture,
  body: ReadableStream<Uint8Array>,
  corks: ChainResponse['corks'],
): Promise<void> {
  return pipeBody(capture.writer, body.getReader(), {
    flushHeaders: false,
    write: (chunk) =>
      capture.passThrough(() => {
        const cork = corks.get(chunk) ?? 0;
        if (cork & CORK_BEFORE) res.cork();
        const accepted = res.write(chunk);
        if (cork & UNCORK_AFTER) res.uncork();
        return accepted;
      }),
  });
}
