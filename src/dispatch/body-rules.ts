/**
 * A request body's rules, the same for every host. The limit: a request that declares more than `bodyLimit` bytes
 * (Content-Length) is answered 413 before its handler runs, and a body sent without a length, or
 * with a length that is not true, is counted as it is read and cut the moment it crosses the
 * limit: the read fails with `BodyLimitError`, and the client gets 413 if nothing was sent yet. A
 * body is never buffered beyond the limit. And a body that cannot be read to its end because the client
 * left fails with `ClientClosedError`, which is nobody's fault to report. The Node bridge reads its
 * socket (src/bridge/node-body.ts); `.fetch` reads the Request's body stream here.
 */

/** Default `bodyLimit`: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Raised when a body is larger than the endpoint's limit; answered with 413. It goes to the app's
 * error handler in the shape of body-parser's own 413 (`status`, `statusCode`, `expose`, and `type`
 * `'entity.too.large'`), so a handler written for that one answers this one too.
 */
export class BodyLimitError extends Error {
  readonly status = 413;
  readonly statusCode = 413;
  readonly expose = true;
  readonly type = 'entity.too.large';
  readonly code = 'PAYLOAD_TOO_LARGE';
  constructor(readonly limit: number) {
    super(`Request body too large: the limit is ${limit} bytes`);
    this.name = 'BodyLimitError';
  }
}

/**
 * The client went away before the exchange was over. Nobody is left to answer, so it is not
 * passed to the host's error handler (which would log a 500 for a request no one waits for).
 */
export class ClientClosedError extends Error {
  readonly code = 'CLIENT_CLOSED';
  constructor(message = 'The client closed the connection before the body was complete') {
    super(message);
    this.name = 'ClientClosedError';
  }
}

/**
 * `error` says that the client went away: the one test of it, for every host. By name as well as by
 * class, as isResponse takes Responses of other copies: the ES module and CommonJS builds each have
 * their own ClientClosedError.
 */
export function isClientClosedError(error: unknown): boolean {
  return (
    error instanceof ClientClosedError || (error as { name?: unknown } | null)?.name === 'ClientClosedError'
  );
}

/** Whether the request's Content-Length (as sent, or `null`/`undefined` when absent) is over the limit. */
export function declaresMoreThan(contentLength: string | null | undefined, limit: number | false): boolean {
  return limit !== false && contentLength != null && Number(contentLength) > limit;
}

/** `error` says that a body crossed its limit, as itself or as the cause a runtime wrapped it in. */
export function isBodyLimitError(error: unknown): boolean {
  let at = error;
  for (let depth = 0; depth < 4 && at instanceof Error; depth++, at = at.cause) {
    if (at instanceof BodyLimitError) return true;
  }
  return false;
}

/**
 * `body`, read through a count: past `limit` bytes the stream fails with `BodyLimitError` and the
 * rest of `body` is cancelled, unread. A read of `body` that fails (Bun and Deno fail it when the
 * client leaves mid-body) fails the stream with `ClientClosedError`, the cause kept, and so does the
 * client leaving as `onClientGone` tells it, even while a read waits on a body that trickles. It
 * pulls only when its reader asks, so nothing is read before the handler reads.
 */
export function countedBody(
  body: ReadableStream<Uint8Array>,
  limit: number | false,
  onClientGone?: (listener: (reason: unknown) => void) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let size = 0;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onClientGone?.((reason) => {
          try {
            controller.error(Object.assign(new ClientClosedError(), { cause: reason }));
          } catch {
            // already closed, errored or cancelled
          }
          reader.cancel(reason).catch(() => {});
        });
      },
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          return controller.error(Object.assign(new ClientClosedError(), { cause: error }));
        }
        if (chunk.done) return controller.close();
        size += chunk.value.byteLength;
        if (limit === false || size <= limit) return controller.enqueue(chunk.value);
        const error = new BodyLimitError(limit);
        controller.error(error);
        reader.cancel(error).catch(() => {});
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
