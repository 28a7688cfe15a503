/**
 * `jsonBody(request, options)`: a request's JSON body read by the rules of Express's `express.json()`
 * (body-parser), so a route moved from `req.body` answers the requests it answered before, and
 * refuses those it refused: the same type check, empty body, strictness, charsets and limit, and
 * errors with body-parser's `status`, `type` and `expose`, which the app's error handler already
 * answers. `request.json()` has none of these rules (docs/migrating.md lists what it does instead).
 */
import { BodyLimitError, byteSize, joinChunks, RequestRefusedError } from '../dispatch';

export interface JsonBodyOptions {
  /**
   * The largest body read, in bytes, or as body-parser spells it (`'100kb'`, `'1mb'`). Default
   * `'100kb'`, as `express.json()`'s.
   */
  limit?: number | string;
  /** Only objects and arrays (`true`, the default, as `express.json()`), or any JSON value. */
  strict?: boolean;
  /**
   * Which Content-Types hold JSON: a type (`'application/json'`, the default), a list, or a function
   * of the request's Content-Type. A request of any other type has no JSON body: `undefined`.
   */
  type?: string | string[] | ((contentType: string) => boolean);
}

/** A body the JSON parser refused, as body-parser's: 400, `type: 'entity.parse.failed'`. */
const PARSE_FAILED = {
  status: 400,
  code: 'MALFORMED_JSON',
  message: 'Bad Request: the request body is not valid JSON',
} as const;
const NOT_STRICT = {
  status: 400,
  code: 'MALFORMED_JSON',
  message: 'Bad Request: the JSON body must be an object or an array',
} as const;
const UNSUPPORTED_CHARSET = {
  status: 415,
  code: 'UNSUPPORTED_CHARSET',
  message: 'Unsupported Media Type: a JSON body is UTF-8',
} as const;

/**
 * The parsed body; `undefined` when the request's Content-Type is not JSON (as `req.body` is then
 * under Express 5); `{}` for an empty body, as `express.json()` gives. Rejects with a 400
 * (`entity.parse.failed`), 413 (`entity.too.large`) or 415 (`charset.unsupported`) error for the app's
 * error handler.
 */
export async function jsonBody(request: Request, options: JsonBodyOptions = {}): Promise<unknown> {
  const contentType = request.headers.get('content-type') ?? '';
  if (request.body === null || !isJsonType(contentType, options.type ?? 'application/json')) return undefined;
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType)?.[1]?.toLowerCase();
  if (charset !== undefined && !charset.startsWith('utf-'))
    throw refusal(UNSUPPORTED_CHARSET, 'charset.unsupported');
  const text = await readText(request, limitOf(options.limit ?? '100kb'));
  if (text.length === 0) return {};
  const strict = options.strict ?? true;
  // body-parser's strict check: the first character that is not white space opens an object or an array.
  const first = /^[ \t\n\r]*(.)/.exec(text)?.[1];
  if (strict && first !== '{' && first !== '[') throw refusal(NOT_STRICT, 'entity.parse.failed');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw refusal(PARSE_FAILED, 'entity.parse.failed');
  }
}

function refusal(
  answer: { status: number; code: string; message: string },
  type: string,
): RequestRefusedError {
  return Object.assign(new RequestRefusedError(answer), { type });
}

/** Read up to `limit` bytes: past it, a `BodyLimitError` (413), the rest left unread. */
async function readText(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (declared > limit) throw new BodyLimitError(limit);
  const reader = request.body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new BodyLimitError(limit);
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8', { ignoreBOM: false }).decode(
    chunks.length === 0 ? new Uint8Array(0) : joinChunks(chunks),
  );
}

function isJsonType(contentType: string, type: NonNullable<JsonBodyOptions['type']>): boolean {
  const mime = contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (typeof type === 'function') return type(contentType);
  return (Array.isArray(type) ? type : [type]).some((wanted) => matchesType(mime, wanted.toLowerCase()));
}

/** `application/json`, a wildcard (`*\/*`, `application/*`), or a suffix (`+json` matches `application/ld+json`). */
function matchesType(mime: string, wanted: string): boolean {
  if (mime === '') return false;
  if (wanted === '*/*' || wanted === mime) return true;
  if (wanted.startsWith('+')) return mime.endsWith(wanted);
  if (wanted.startsWith('*/+')) return mime.endsWith(wanted.slice(2));
  if (wanted.endsWith('/*')) return mime.startsWith(wanted.slice(0, -1));
  return false;
}

/** A limit in bytes from a number or body-parser's spelling (`'100kb'`, `'1.5mb'`). */
function limitOf(limit: number | string): number {
  const bytes = byteSize(limit);
  if (bytes === undefined) {
    throw new TypeError(
      `jsonBody: limit must be a number of bytes or like '100kb', got ${JSON.stringify(limit)}`,
    );
  }
  return bytes;
}
