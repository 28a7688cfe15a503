/**
 * `getContext()`: the context of the request being served, for code deep in a call stack that was
 * not handed one (a logger, a data layer). It rides on `AsyncLocalStorage`, which costs every
 * request of a mount that enables it (`asyncContext: true`) a context frame; a mount that does not
 * pays nothing, so it is off unless asked for. Like h3's `useEvent()`, it throws where there is no
 * request to give rather than returning `undefined` that would fail later, further away.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { EndpointContext } from '../types';

/**
 * One storage per process, kept on the global object: an app often holds two copies of the library, the
 * CommonJS build its server requires and the ES module build an endpoint imports `getContext` from (or a
 * bundle beside the package), and `getContext()` must find what either copy's mount put there.
 */
const STORAGE = Symbol.for('express-file-endpoints.asyncContext');

type WithStorage = typeof globalThis & { [STORAGE]?: AsyncLocalStorage<EndpointContext> };

/** Runs `run` with `context` as what `getContext()` returns, in it and in everything it starts. */
export function runInContext<T>(context: EndpointContext, run: () => T): T {
  const global = globalThis as WithStorage;
  return (global[STORAGE] ??= new AsyncLocalStorage()).run(context, run);
}

/**
 * The context of the request being served: its `params`, `locals`, `route`, `mountPath`, `node`
 * and `after`. Needs `mountEndpoints(…, { asyncContext: true })`; throws when called outside the
 * middleware and handlers of such a mount.
 */
export function getContext(): EndpointContext {
  const context = (globalThis as WithStorage)[STORAGE]?.getStore();
  if (context === undefined) {
    throw new Error(
      'express-file-endpoints: getContext() was called outside a request of a mount with asyncContext: true; ' +
        'mount with mountEndpoints(app, { asyncContext: true }), or pass the context down from the handler.',
    );
  }
  return context;
}
