/**
 * The default `onError`: errors are never silent. It logs what nobody else will see — on a bare
 * node:http server, under `.fetch()`, in `after()` callbacks, mid-stream — and stays quiet when the
 * host's error handler gets the error through `next(err)`, which logs it already in most apps.
 */
import type { EndpointErrorInfo, ErrorReporter } from '../types';
import { isClientClosedError } from './body-rules';

/**
 * Errors `onError` was told about when they happened, outside any request: a module that failed to
 * load. The requests they fail afterwards (their route answers with the error) go to the app's error
 * handler without telling `onError` again, once per request.
 */
const toldAlready = new WeakSet<object>();

/** Marks `error` as told: a request it fails does not tell `onError` about it again. */
export function markTold(error: unknown): void {
  if (typeof error === 'object' && error !== null) toldAlready.add(error);
}

export function wasTold(error: unknown): boolean {
  return typeof error === 'object' && error !== null && toldAlready.has(error);
}

/** Tells `onError`; one that throws must not take a request or startup down with it, so it is logged. */
export function tellOnError(onError: ErrorReporter, error: unknown, info: EndpointErrorInfo): void {
  try {
    onError(error, info);
  } catch (thrown) {
    console.error('express-file-endpoints: onError threw', thrown);
  }
}

export function logError(error: unknown, info: EndpointErrorInfo): void {
  if (info.passedToNext) return;
  const request = info.request;
  if (info.export.startsWith('topics.')) {
    const topic = info.topic === undefined ? '' : ` (topic ${info.topic})`;
    console.error(`express-file-endpoints: ${info.file}: ${info.export} failed${topic}:`, error);
    return;
  }
  if (request === undefined) {
    console.error(
      `express-file-endpoints: ${info.file} failed to load (the mount rejects with this error; an app that serves without waiting for it answers ${info.route} with it):`,
      error,
    );
    return;
  }
  console.error(
    `express-file-endpoints: ${info.file} (export ${info.export}) failed on ${request.method} ${urlOf(request)}:`,
    error,
  );
}

/**
 * The request's URL for a log line. A bridged middleware's request has none when the Host header
 * makes no URL (reading `url` throws then), and the error must still be logged as itself.
 */
function urlOf(request: Request): string {
  try {
    return request.url;
  } catch {
    return '(a Host header that makes no URL)';
  }
}

/**
 * The error only says that the client went away (its request's signal aborted): nobody to tell.
 * `request` is absent when none was built, so no signal of it can have aborted.
 */
export function isClientAbort(request: Request | undefined, error: unknown): boolean {
  if (isClientClosedError(error)) return true;
  if (request === undefined) return false;
  const signal = request.signal;
  return signal.aborted && (error === signal.reason || (error as Error | null)?.name === 'AbortError');
}
