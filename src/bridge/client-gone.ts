/**
 * Whether a response can still be written: the one place the bridge decides that the client is
 * gone. It left before the head, while the head went out or mid-body, or the connection was
 * closed after an error: either way nobody will receive the rest. What follows is the caller's
 * to do: a body stream is cancelled, `request.signal` aborted, an error that only says so is
 * not answered. A connection a closing mount cut past its timeout is gone too, for its own reason.
 */
import type { ServerResponse } from 'node:http';
import { ClientClosedError } from './node-body';
import { isStreamReset } from './stream-reset';
import { isClientClosedError } from '../dispatch';
import type { ResponseWriter } from './response-writer';

/** What tells whether a response can still be written: `res`, or a writer that stands for it. */
type Watched = Pick<ResponseWriter, 'req' | 'writableFinished' | 'destroyed' | 'socket' | 'once' | 'off'>;

/**
 * The response was not finished and its connection is gone. `socket.destroyed` is true as soon
 * as the connection is torn down; `res.destroyed` once Node has told the response ('close').
 */
export function isClientGone(res: Watched): boolean {
  return (!res.writableFinished && (res.destroyed || res.socket?.destroyed === true)) || isStreamReset(res);
}

/**
 * Calls `onGone` once, as soon as the response can no longer be written: at once when that is
 * already so (the client left while the handler was still working), else when it closes before
 * it finished. Returns a function that stops watching.
 */
export function whenClientGone(res: Watched, onGone: (reason: Error) => void): () => void {
  if (isClientGone(res)) {
    onGone(goneReason(res));
    return noop;
  }
  const onClose = () => {
    if (!res.writableFinished || isStreamReset(res)) onGone(goneReason(res));
  };
  res.once('close', onClose);
  return () => res.off('close', onClose);
}

/** The client is gone and the error only says so: there is nobody to answer or to tell. */
export function isClientGoneError(res: ServerResponse, error: unknown): boolean {
  if (!isClientGone(res)) return false;
  return (
    isClientClosedError(error) ||
    (error as { code?: unknown } | null)?.code === 'ECONNRESET' ||
    (error !== undefined && error === shutDown.get(res.req))
  );
}

/**
 * Responses a closing mount cut, and why: what their handlers and body streams are told instead.
 * By request, which a writer standing for `res` (bridgeMiddleware's) answers with as well.
 */
const shutDown = new WeakMap<object, Error>();

/**
 * Cuts the connection of a request the server will not wait for any longer (a closing mount's
 * timeout): everything watching the response hears `reason`, not that the client left.
 */
export function shutDownResponse(res: ServerResponse, reason: Error): void {
  if (res.writableFinished || res.destroyed) return;
  shutDown.set(res.req, reason);
  res.destroy();
}

function goneReason(res: Watched): Error {
  return shutDown.get(res.req) ?? new ClientClosedError('The client closed the connection');
}

function noop(): void {}
