/**
 * `createClient<RouteRegistry>({ baseUrl })`: calls name the route pattern and the method, and the
 * client builds the URL (as `url()` does), the query (a repeated key per array item), the headers and
 * the body (JSON unless it is already a body `fetch` takes, a form when it holds a file), then reads the answer: JSON when its
 * Content-Type says so and it parses, text otherwise, nothing for a body-less status. Any status
 * resolves; only what `fetch` itself rejects with (the network) rejects.
 */
import { url } from '../typed-routes';
import { readEvents, type EventsOptions } from './events';
import type { BodyLike, Client, ClientMethod, ClientRegistry, HeadersLike, UntypedRegistry } from './types';

export interface ClientOptions {
  /**
   * Where the tree is served: `https://api.example.com/v1`. Default: the page's origin in a browser,
   * `http://localhost` elsewhere (enough with `fetch: middleware.fetch`).
   */
  baseUrl?: string | URL;
  /** What sends each request. Default: the global `fetch`. `middleware.fetch` calls the tree in-process. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request (a call's own headers win). */
  headers?: HeadersLike;
}

interface CallOptions {
  params?: Record<string, string | readonly string[] | undefined>;
  query?: Record<string, unknown>;
  headers?: HeadersLike;
  body?: unknown;
  init?: RequestInit;
}

const METHODS: readonly ClientMethod[] = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'QUERY',
  'OPTIONS',
];

/** Statuses whose answers have no content (RFC 9110, sections 15.3.5, 15.3.6 and 15.4.5). */
const NO_CONTENT = new Set([204, 205, 304]);

export function createClient<R extends ClientRegistry<R> = UntypedRegistry>(
  options: ClientOptions = {},
): Client<R> {
  const base = baseUrlOf(options.baseUrl);
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const call = async (method: ClientMethod, pattern: string, callOptions: CallOptions = {}) => {
    const target = targetOf(base, pattern, callOptions);
    const headers = headersOf(options.headers, callOptions.headers);
    const body = encodeBody(callOptions.body, headers);
    // A stream body needs `duplex: 'half'` (Fetch); it is harmless for the others.
    const init = {
      ...callOptions.init,
      method,
      headers,
      body,
      ...(body !== undefined && { duplex: 'half' }),
    };
    const request = new Request(target, init as RequestInit);
    const response = await send(request);
    const data = await readBody(method, response).catch((error: unknown) => {
      throw new TypeError(`${method} ${target.href}: ${(error as Error).message}`, { cause: error });
    });
    return { status: response.status, ok: response.ok, data, response };
  };
  const events = (pattern: string, eventsOptions: CallOptions & EventsOptions = {}) => {
    const target = targetOf(base, pattern, eventsOptions);
    return readEvents(
      send,
      (lastEventId, signal) => {
        const headers = headersOf(options.headers, eventsOptions.headers);
        headers.set('accept', 'text/event-stream');
        headers.set('cache-control', 'no-cache');
        if (lastEventId !== '') headers.set('last-event-id', utf8Bytes(lastEventId));
        return new Request(target, { ...eventsOptions.init, headers, signal });
      },
      eventsOptions,
    );
  };
  return Object.assign(
    Object.fromEntries(
      METHODS.map((method) => [
        method,
        (pattern: string, callOptions?: CallOptions) => call(method, pattern, callOptions),
      ]),
    ),
    { events },
  ) as unknown as Client<R>;
}

/** The URL of `pattern` below the base. Only the path changes: the origin stays the base's, whatever the params hold. */
function targetOf(base: URL, pattern: string, callOptions: CallOptions): URL {
  const target = new URL(base);
  target.pathname = base.pathname.replace(/\/$/, '') + url(pattern as never, callOptions.params as never);
  target.search = '';
  target.hash = '';
  for (const [key, value] of Object.entries(callOptions.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) target.searchParams.append(key, String(item));
    }
  }
  return target;
}

/**
 * `text` as its UTF-8 bytes, a character per byte: what EventSource sends as `Last-Event-ID` (WHATWG
 * HTML, section 9.2.3: the id "encoded as UTF-8"). A header value is a byte sequence (Fetch), and
 * `Headers` refuses a character above U+00FF rather than encode it.
 */
function utf8Bytes(text: string): string {
  if (!/[\u0080-\uffff]/.test(text)) return text;
  let bytes = '';
  for (const byte of encoder.encode(text)) bytes += String.fromCharCode(byte);
  return bytes;
}

const encoder = new TextEncoder();

/** The client's headers, then the call's (which win). */
function headersOf(client: HeadersLike | undefined, call: HeadersLike | undefined): Headers {
  const headers = new Headers(client);
  new Headers(call).forEach((value, name) => headers.set(name, value));
  return headers;
}

function baseUrlOf(given: string | URL | undefined): URL {
  if (given !== undefined) return new URL(given);
  const location = (globalThis as { location?: { origin?: string } }).location;
  return new URL(location?.origin ?? 'http://localhost');
}

/**
 * A body `fetch` takes as it is; an object with a file in it (a `Blob`, or an array of them) as a
 * form, which `fetch` sends as multipart/form-data; anything else (an object, an array, a number)
 * as JSON.
 */
function encodeBody(body: unknown, headers: Headers): BodyLike | undefined {
  if (body === undefined || body === null) return undefined;
  if (
    typeof body === 'string' ||
    body instanceof Blob ||
    body instanceof FormData ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof ReadableStream
  ) {
    return body as BodyLike;
  }
  if (hasFile(body)) return formOf(body as Record<string, unknown>);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return JSON.stringify(body);
}

function hasFile(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  return Object.values(body).some(
    (value) => value instanceof Blob || (Array.isArray(value) && value.some((item) => item instanceof Blob)),
  );
}

/** Each field once per value: an array is the field repeated, as a form's `multiple` input sends it. */
function formOf(fields: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      if (item instanceof Blob) form.append(name, item);
      else if (
        typeof item === 'string' ||
        typeof item === 'number' ||
        typeof item === 'boolean' ||
        typeof item === 'bigint'
      )
        form.append(name, String(item));
      else
        throw new TypeError(
          `createClient: the form field ${JSON.stringify(name)} is an object; a form holds strings, numbers, booleans and files`,
        );
    }
  }
  return form;
}

async function readBody(method: ClientMethod, response: Response): Promise<unknown> {
  if (method === 'HEAD' || NO_CONTENT.has(response.status) || response.body === null) return undefined;
  const type = response.headers.get('content-type') ?? '';
  // application/json, application/problem+json, and any other +json type (RFC 6839, section 3.1).
  if (/^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i.test(type)) {
    const text = await response.text();
    if (text === '') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // A proxy's or a load balancer's error page (a 502 in HTML) often keeps the JSON label of the API
      // it stands for. Its caller handles the status, and wants what it says: the text, as for any
      // answer that is not JSON.
      return text;
    }
  }
  return response.text();
}
