/**
 * sendWebResponse: writes a Web `Response` to Node's ServerResponse.
 *
 * Headers that earlier middleware set on `res` (helmet, cors, `res.cookie`) stay; the handler's
 * headers override them by name, except `Set-Cookie`, whose values are added beside them.
 * Bodies built from a string or bytes are written in one `end()` with Content-Length; streams
 * are written as they come, with backpressure, and cancelled if the client goes away.
 */
import type { ServerResponse } from 'node:http';
import { ClientClosedError } from './request-body';
import { internalBodySource } from './response-internals';

// Never forwarded: they describe one connection, and Node sets its own.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);
// What fetch() decodes itself; a fetched body with these codings arrives already decoded.
const DECODED_BY_FETCH = new Set(['gzip', 'x-gzip', 'deflate', 'br', 'zstd']);

export interface SendOptions {
  /** HEAD: headers only. */
  head?: boolean;
  /**
   * Runs each call that writes to `res`. `bridgeMiddleware` uses it to let its own writes
   * through while it captures what the rest of the chain writes.
   */
  around?: <T>(write: () => T) => T;
}

const direct = <T>(write: () => T): T => write();

/**
 * String and byte bodies are written at once and this returns `undefined` (no promise to wait
 * for on the hot path); a streamed body returns the promise of its end. Throws synchronously
 * when Node refuses a header.
 */
export function sendWebResponse(
  res: ServerResponse,
  response: Response,
  options: SendOptions = {},
): Promise<void> | undefined {
  const dropEncoding =
    response.type !== 'default' && isDecodedByFetch(response.headers.get('content-encoding'));
  copyHeaders(res, response.headers, dropEncoding);
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;

  const around = options.around ?? direct;
  if (response.body === null || isNullBodyStatus(response.status)) {
    around(() => res.end());
    return;
  }
  const source = internalBodySource(response);
  if (source !== undefined) {
    if (!res.hasHeader('content-length') && !dropEncoding) {
      res.setHeader(
        'content-length',
        typeof source === 'string' ? Buffer.byteLength(source) : source.byteLength,
      );
    }
    around(() => res.end(options.head ? undefined : source));
    return;
  }
  if (options.head) {
    response.body.cancel().catch(noop);
    around(() => res.end());
    return;
  }
  return pipeBody(res, response.body, around);
}

function copyHeaders(res: ServerResponse, headers: Headers, dropEncoding: boolean): void {
  let cookiesDone = false;
  headers.forEach((value, name) => {
    if (HOP_BY_HOP.has(name)) return;
    if (name === 'set-cookie') {
      if (cookiesDone) return;
      cookiesDone = true;
      const upstream = res.getHeader('set-cookie');
      const own = headers.getSetCookie();
      res.setHeader('set-cookie', upstream === undefined ? own : [...toArray(upstream), ...own]);
      return;
    }
    if (dropEncoding && (name === 'content-encoding' || name === 'content-length')) return;
    res.setHeader(name, value);
  });
}

async function pipeBody(
  res: ServerResponse,
  body: ReadableStream<Uint8Array>,
  around: NonNullable<SendOptions['around']>,
): Promise<void> {
  const reader = body.getReader();
  // One 'drain' listener for the whole body, registered through `around` like the writes: a
  // compression() in front of us moves 'drain' listeners to its zlib stream, where `off` cannot
  // reach them, so a listener per wait would pile up there.
  let wake: (() => void) | undefined;
  const onDrainOrClose = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const onClose = () => {
    if (!res.writableFinished)
      reader.cancel(new ClientClosedError('The client closed the connection')).catch(noop);
    onDrainOrClose();
  };
  res.once('close', onClose);
  around(() => res.on('drain', onDrainOrClose));
  try {
    // Headers go out now, so the client sees them before the first chunk is ready.
    if (!res.headersSent) around(() => res.flushHeaders());
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!around(() => res.write(value)) && !res.destroyed) {
        await new Promise<void>((resolve) => (wake = resolve));
      }
    }
    around(() => res.end());
  } catch (error) {
    // Headers are out: the only honest signal left to the client is a broken connection.
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    res.off('close', onClose);
    res.off('drain', onDrainOrClose);
  }
}

function isDecodedByFetch(encoding: string | null): boolean {
  if (!encoding) return false;
  return encoding.split(',').every((coding) => DECODED_BY_FETCH.has(coding.trim().toLowerCase()));
}

function isNullBodyStatus(status: number): boolean {
  return status === 204 || status === 205 || status === 304;
}

function toArray(value: string | number | string[]): string[] {
  return Array.isArray(value) ? value : [String(value)];
}

function noop(): void {}
