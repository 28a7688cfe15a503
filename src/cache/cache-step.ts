/**
 * A route's `cache` export as the innermost step of its middleware, so a guard around it still runs
 * for every request, a cached answer included. It sets `Cache-Control` (and `Vary`) on the answers a
 * shared cache may keep, for CDNs and browsers; with a store on the mount it keeps them server-side too:
 * a fresh answer is served without the handler, a stale one at once while one request refreshes it in the
 * background (one per key at a time, across processes where the store is shared), and a stale one stands
 * in for a failing handler within `staleIfError`. Only GET and HEAD; never an answer with `Set-Cookie`, or
 * to a request with `Authorization` unless `authorized` says so. A route without the export has no such step.
 */
import { requestFor, requestIfBuilt, WITHOUT_REQUEST } from '../dispatch';
import type {
  CacheEntry,
  CacheSettings,
  CacheStore,
  EndpointContext,
  NodeContext,
  WebMiddleware,
} from '../types';

/** Bodies larger than this are sent, never kept. */
const MAX_ENTRY = 1024 * 1024;
/** How long a refresh may hold its key before another request may try. */
const REFRESH_LOCK = 30_000;

export function cacheStep(
  settings: CacheSettings,
  store: CacheStore | undefined,
  pattern: string,
): WebMiddleware {
  const maxAge = settings.maxAge * 1000;
  const swr = (settings.staleWhileRevalidate ?? 0) * 1000;
  const sie = (settings.staleIfError ?? settings.staleWhileRevalidate ?? 0) * 1000;
  const cacheControl = [
    `public, max-age=${settings.maxAge}`,
    ...(settings.staleWhileRevalidate ? [`stale-while-revalidate=${settings.staleWhileRevalidate}`] : []),
    ...(settings.staleIfError ? [`stale-if-error=${settings.staleIfError}`] : []),
  ].join(', ');
  const vary = (settings.vary ?? []).map((name) => name.toLowerCase());
  const tags = settings.tags ?? [];
  // In this process, one fill or refresh per key at a time: the others wait for it, or serve what is there.
  const filling = new Map<string, Promise<CacheEntry | undefined>>();
  // The answers this step marked for shared caches: the ones a store may keep.
  const keepable = new WeakSet<Response>();

  /** Headers for a shared cache on a successful answer that has none of its own, and no cookie. */
  const withHeaders = (response: Response): Response => {
    if (!isShareable(response)) return response;
    const headers = new Headers(response.headers);
    headers.set('cache-control', cacheControl);
    for (const name of vary) headers.append('vary', name);
    const marked = new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
    if (store && response.status === 200) keepable.add(marked);
    return marked;
  };

  /** Runs the rest of the route and keeps what it answered, if it may be kept: a 200 this step marked, of at most MAX_ENTRY bytes. */
  const fill = async (
    key: string,
    next: () => Promise<Response>,
  ): Promise<{ response: Response; entry?: CacheEntry }> => {
    const response = withHeaders(await next());
    if (!keepable.has(response)) return { response };
    const read = await readUpTo(response, MAX_ENTRY);
    // Too large to keep: sent as it comes, the bytes read so far first.
    if (read.rest) return { response: read.rest };
    const entry: CacheEntry = {
      status: response.status,
      headers: [...response.headers],
      body: read.body,
      storedAt: Date.now(),
    };
    // A store that fails keeps nothing; the answer goes out all the same.
    await store!.set(key, entry, maxAge + Math.max(swr, sie), { pattern, tags }).catch(noop);
    return { response: answerOf(entry), entry };
  };

  /** What `promise` settles to, kept as the key's one fill or refresh until it does. */
  const inFlight = (key: string, promise: Promise<CacheEntry | undefined>) => {
    filling.set(key, promise);
    void promise.then(() => {
      // A later fill may have taken the key meanwhile: only this one's entry is dropped.
      if (filling.get(key) === promise) filling.delete(key);
    });
  };

  const refresh = (key: string, next: () => Promise<Response>) => {
    if (filling.has(key)) return;
    inFlight(
      key,
      (async () => {
        try {
          if (!(await store!.lock(key, REFRESH_LOCK))) return undefined;
        } catch {
          return undefined;
        }
        try {
          // Another process may have refreshed it between this request's read and its lock.
          const current = await store!.get(key);
          if (current && Date.now() - current.storedAt < maxAge) return current;
          return (await fill(key, next)).entry;
        } catch {
          // The stale answer stays: the handler's error was told to onError as its call reported it.
          return undefined;
        } finally {
          await store!.unlock(key).catch(noop);
        }
      })(),
    );
  };

  const cache: WebMiddleware = async function cache(given, next, context) {
    const asked = askedOf(given, context);
    const method = asked.method;
    if (method !== 'GET' && method !== 'HEAD') return next();
    if (headerOf(asked, 'authorization') !== null && settings.authorized !== true) return next();
    if (!store) return withHeaders(await next());
    // A route with a key function has no WITHOUT_REQUEST mark: the chain hands this step its Request.
    const own = settings.key && context && given ? settings.key(given, context) : undefined;
    const key = keyOf(asked, pattern, vary, own);
    // A store that fails is a miss: the handler answers.
    const entry = await store.get(key).catch(noop);
    const age = entry ? Date.now() - entry.storedAt : Infinity;
    if (entry && age < maxAge) return answerOf(entry);
    // A HEAD is answered from what a GET stored, and refreshes or stores nothing itself: its handler may
    // send no body.
    if (method === 'HEAD') return entry && age < maxAge + swr ? answerOf(entry) : withHeaders(await next());
    if (entry && age < maxAge + swr) {
      // Stale: this request gets it now; one request refreshes it behind.
      refresh(key, next);
      return answerOf(entry);
    }
    const pending = filling.get(key);
    if (pending) {
      const filled = await pending;
      if (filled) return answerOf(filled);
    }
    const run = fill(key, next);
    inFlight(
      key,
      run.then(
        ({ entry }) => entry,
        () => undefined,
      ),
    );
    try {
      const { response } = await run;
      if (response.status >= 500 && entry && age < maxAge + sie) return answerOf(entry);
      return response;
    } catch (error) {
      if (entry && age < maxAge + sie) return answerOf(entry);
      throw error;
    }
  };
  // A hit needs only the method, the path and a few headers, which Node's request has: no Request is built
  // for it (the costliest part of bridging a request). A key function is handed one.
  if (!settings.key) Object.defineProperty(cache, WITHOUT_REQUEST, { value: true });
  return cache;
}

/** What a cached answer is decided and keyed by: Node's request's parts, or a Request's. */
interface Asked {
  method: string;
  /** The path and the query, without the origin. */
  target: string;
  /** The Request it was read from; else Node's request's headers. */
  request?: Request;
  headers?: NodeContext['req']['headers'];
}

/**
 * The request's method, target and headers: from a Request already built (handed to the step, or built for a
 * step before it), else from Node's request, else from the call's Request, built now (`.fetch`, Bun, Deno).
 */
function askedOf(given: Request | undefined, context: EndpointContext | undefined): Asked {
  let request = given ?? (context && requestIfBuilt(context));
  const req = context?.node?.req;
  if (request === undefined && req !== undefined) {
    const target = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    return { method: req.method ?? 'GET', target, headers: req.headers };
  }
  request ??= context && requestFor(context);
  if (request === undefined) throw new Error('The cache step was given neither a Request nor a context.');
  const url = request.url;
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return { method: request.method, target: url.slice(pathStart), request };
}

/** A header's value, repeats joined as a Request joins them. */
function headerOf({ request, headers }: Asked, name: string): string | null {
  if (request !== undefined) return request.headers.get(name);
  const value = headers?.[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}

const noop = (): undefined => undefined;

/**
 * The body whole when it has at most `limit` bytes; else `rest`, the same answer with what was read put
 * back in front of what was not, so that a large answer is streamed rather than held.
 */
async function readUpTo(
  response: Response,
  limit: number,
): Promise<{ body: Uint8Array; rest?: undefined } | { rest: Response }> {
  const reader = response.body?.getReader();
  if (!reader) return { body: new Uint8Array(0) };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > limit) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
        },
        async pull(controller) {
          const next = await reader.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel: (reason) => reader.cancel(reason),
      });
      return {
        rest: new Response(body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        }),
      };
    }
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return { body };
}

/** A stored answer, as a new Response each time, with its age. */
function answerOf(entry: CacheEntry): Response {
  const headers = new Headers(entry.headers);
  headers.set('age', String(Math.floor((Date.now() - entry.storedAt) / 1000)));
  // A Response copies the bytes it is given: the entry's stay as they are for the next hit.
  return new Response(entry.body as Uint8Array<ArrayBuffer>, { status: entry.status, headers });
}

/** A success a shared cache may keep: no cookie, no Cache-Control of the handler's own. */
function isShareable(response: Response): boolean {
  return (
    response.ok &&
    !response.headers.has('cache-control') &&
    !response.headers.has('set-cookie') &&
    !response.headers.get('content-type')?.startsWith('text/event-stream')
  );
}

/** The method's answers are one: the route, the URL with its query in a stable order, the varied headers, the key function's part. */
function keyOf(asked: Asked, pattern: string, vary: readonly string[], own: string | undefined): string {
  // The path and the query, without the origin: processes behind one proxy may each see another Host (their
  // own address), and must share. The query in a stable order, parsed only when there is one.
  const target = asked.target;
  const at = target.indexOf('?');
  let text = at === -1 ? target : target.slice(0, at);
  if (at !== -1) {
    const query = new URLSearchParams(target.slice(at + 1));
    query.sort();
    text += `?${query}`;
  }
  const parts = [pattern, text];
  for (const name of vary) parts.push(`${name}=${headerOf(asked, name) ?? ''}`);
  if (own !== undefined) parts.push(own);
  return JSON.stringify(parts);
}
