/**
 * toWebRequest: the handler's `Request`, built from Node's IncomingMessage.
 *
 * It is a native `Request`, not a look-alike: undici keeps a Request's state in private class
 * fields, so only a real one works with `new Request(req)`, `fetch(req)`, `clone()` and
 * `console.log(req)` on every Node version. What stays lazy is the body: its stream reads from
 * the Node request only when the handler reads it, so a handler that never reads pays nothing
 * for it, and an unread body is drained (bounded) after the response.
 */
import type { ServerResponse } from 'node:http';
import { readAndRestoreBody } from './restore-body';
import { whenClientGone } from './client-gone';
import {
  BodyLimitError,
  bodyFromParsedRequest,
  isAsSent,
  keepRawBody,
  nodeBodyToWebStream,
  NO_READ_AHEAD,
} from './node-body';
import type { ExpressRequest } from './express-request';
import { methodHasBody } from '../http-methods';
import { assertFetchGlobals } from '../fetch-globals';

export interface WebRequestOptions {
  /** Largest body in bytes a handler may read (`BodyLimitError` past it), or `false`. */
  bodyLimit: number | false;
  /**
   * The same for a body earlier middleware already read (a parser, under its own limit): a limit the
   * app stated itself, or `false` (the default).
   */
  parsedBodyLimit?: number | false;
  /**
   * Leave the body in the Node stream for the host's readers after us (`bridgeMiddleware`):
   * what the middleware reads is put back, and kept as `req.rawBody` for endpoints behind it.
   */
  restoreBody?: boolean;
}

type RequestInitWithDuplex = RequestInit & { duplex?: 'half' };

export function toWebRequest(
  req: ExpressRequest,
  res: ServerResponse | undefined,
  url: string,
  options: WebRequestOptions,
): Request {
  const method = req.method ?? 'GET';
  // GET is the default: an init with fewer members is less for the constructor to convert.
  let init: RequestInitWithDuplex | undefined;
  let parsed: Uint8Array | undefined;
  if (method !== 'GET') init = { method };
  if (init && methodHasBody(method)) {
    try {
      parsed = bodyFromParsedRequest(req);
      const limit = options.parsedBodyLimit ?? false;
      if (parsed && limit !== false && parsed.byteLength > limit) throw new BodyLimitError(limit);
      // A body parser ran first: its bytes, with a known length (fetch(req) can send it as is).
      init.body = parsed ? (parsed as Uint8Array<ArrayBuffer>) : streamedBody(req, options);
    } catch (error) {
      // Raised when the handler reads the body, as any other body error would be.
      init.body = lazyBytes(() => Promise.reject(error));
    }
    init.duplex = 'half';
  }
  const request = res ? new IncomingRequest(url, init, res) : new Request(url, init);
  appendHeaders(request.headers, req.rawHeaders);
  // Bytes that are neither req.rawBody's nor req.body's own were encoded by the bridge, from text: UTF-8.
  if (parsed) {
    const utf8 = parsed !== req.rawBody && parsed !== req.body;
    describeParsedBody(request.headers, parsed, isAsSent(req, parsed), utf8);
  }
  return request;
}

/**
 * The headers of a body a parser read first describe the bytes handed over, not those the client
 * sent: body-parser inflates gzip and the handler gets JSON re-encoded from `req.body`,
 * so a handler that forwards the request (`fetch(new Request(upstream, request))`) sends a
 * request whose headers match its body. Text a parser decoded from another charset (express.text()
 * of `charset=iso-8859-1`) is handed over as UTF-8, and its Content-Type says so. Transfer-Encoding
 * is left as it is: it has no length.
 */
function describeParsedBody(headers: Headers, bytes: Uint8Array, asSent: boolean, utf8: boolean): void {
  if (headers.has('content-length')) headers.set('content-length', String(bytes.byteLength));
  if (!asSent) headers.delete('content-encoding');
  if (utf8) {
    const type = headers.get('content-type');
    const said = type === null ? undefined : CHARSET.exec(type);
    if (said && !/^"?utf-?8"?$/i.test(said[1]!))
      headers.set('content-type', type!.replace(CHARSET, '; charset=utf-8'));
  }
}

/** The charset parameter of a Content-Type (RFC 9110, section 8.3.2), quoted or not. */
const CHARSET = /;\s*charset\s*=\s*("[^"]*"|[^;\s]*)/i;

// Before `extends Request` needs it: without the global, the import of the package fails saying why.
assertFetchGlobals();

/**
 * A native Request whose `signal` (aborted when the client goes away) is made when first read.
 * Building a Request around a signal, with a 'close' listener per response to abort it, costs
 * more CPU than the rest of the bridge together (measured on Node 24 under load: about half of
 * the bridge's time per request), and most handlers never read it. `new Request(url, req)` reads
 * `req.signal`, so a proxied copy still follows the client; `new Request(req)`, `req.clone()` and
 * `fetch(req)` take undici's own signal, which does not (pass `signal: req.signal` to them).
 */
class IncomingRequest extends Request {
  #res: ServerResponse;
  #controller: AbortController | undefined;

  constructor(url: string, init: RequestInitWithDuplex | undefined, res: ServerResponse) {
    super(url, init);
    this.#res = res;
  }

  override get signal(): AbortSignal {
    return this.#closeController().signal;
  }

  /** Aborts the signal of a Request the bridge made (the route's timeout passed); another is left be. */
  static abort(request: Request, reason: Error): void {
    if (request instanceof IncomingRequest) request.#closeController().abort(reason);
  }

  #closeController(): AbortController {
    return (this.#controller ??= closeController(this.#res));
  }
}

/** Aborts `request.signal` with `reason`, for a Request of the bridge's. */
export const abortRequest = (request: Request, reason: Error): void => IncomingRequest.abort(request, reason);

/**
 * The request's headers from rawHeaders, appended as the client sent them: a Request joins repeats
 * as it joins them (", ", and "; " for Cookie), so nothing the client sent is lost. HTTP/2
 * pseudo-headers (`:path`) are left out. Appending to the new Request's headers costs less than
 * passing them in the init, which the constructor converts and copies before appending the same way.
 */
function appendHeaders(headers: Headers, raw: string[]): void {
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.charCodeAt(0) !== 58 /* : */) headers.append(name, raw[i + 1]!);
  }
}

/** Aborted when the response can no longer be written: at once if the client is already gone. */
function closeController(res: ServerResponse): AbortController {
  const controller = new AbortController();
  whenClientGone(res, (reason) => controller.abort(reason));
  return controller;
}

/** The body still in the Node stream, read when the handler reads it. */
function streamedBody(req: ExpressRequest, options: WebRequestOptions): BodyInit {
  if (options.restoreBody) {
    return lazyBytes(async () => {
      const bytes = await readAndRestoreBody(req, options.bodyLimit);
      // Endpoints mounted behind a bridged middleware find the bytes here, exactly as sent.
      keepRawBody(req, bytes);
      return bytes;
    });
  }
  return nodeBodyToWebStream(req, options.bodyLimit);
}

/** A one-chunk stream whose bytes are fetched on the first read. */
function lazyBytes(read: () => Promise<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const bytes = await read();
        if (bytes.byteLength > 0) controller.enqueue(bytes);
        controller.close();
      },
    },
    NO_READ_AHEAD,
  );
}
