/**
 * Drains what is left of a request body once the response is out, so a keep-alive connection
 * can carry the next request. Bounded: after DRAIN_MAX_BYTES more bytes or DRAIN_MAX_MS, the
 * connection is closed instead, so an unread (or over-limit) body never costs more than that —
 * which also bounds a handler that answers first and reads the body afterwards.
 * Reading and discarding before closing also spares the client a reset that could swallow the
 * response it has not read yet (the "lingering close" of other servers).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const DRAIN_MAX_BYTES = 1024 * 1024;
export const DRAIN_MAX_MS = 2000;

/**
 * Arms the drain for a request that announced a body. It runs at `prefinish`, before Node's
 * own unbounded `_dump()` on `finish`, and only takes what no handler read.
 */
export function drainAfterResponse(req: IncomingMessage, res: ServerResponse): void {
  const headers = req.headers;
  if (headers['transfer-encoding'] === undefined && (headers['content-length'] ?? '0') === '0') return;
  const own = req as DrainState;
  // Arming twice (a 413 after the route's own arming) is a no-op.
  if (own[ARMED] === true) return;
  own[ARMED] = true;
  res.once('prefinish', () => drainRequest(req));
}

// The drain's own state, kept on the request under symbols only this module holds.
const ARMED = Symbol('drain armed');
const DRAINING = Symbol('draining');

type DrainState = IncomingMessage & { [ARMED]?: true; [DRAINING]?: true };

/**
 * True once the response is out and the rest of the body is being drained: a body stream the
 * handler stopped reading no longer holds the request back (it would never pull again), while
 * one it still reads (answered first, reads on) keeps getting the data.
 */
export function isDraining(req: IncomingMessage): boolean {
  return (req as DrainState)[DRAINING] === true;
}

function drainRequest(req: IncomingMessage): void {
  if (req.readableEnded || req.destroyed) return;
  (req as DrainState)[DRAINING] = true;
  let seen = 0;
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_MAX_BYTES) close();
  };
  const done = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', done);
    req.off('close', done);
  };
  const close = () => {
    done();
    req.socket?.destroy();
  };
  const timer = setTimeout(close, DRAIN_MAX_MS);
  timer.unref();
  req.on('data', onData);
  req.once('end', done);
  req.once('close', done);
  req.resume();
}
