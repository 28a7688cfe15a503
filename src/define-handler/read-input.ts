/**
 * Reads the parts of a request a contract declares, as plain values for its schemas:
 * the query and a form as objects (a repeated key gives an array of its values), the headers as
 * an object with lower-case names, the body by its Content-Type. Only what the contract
 * declares is read, so a contract on `params` alone leaves the body for the handler.
 *
 * A body that cannot be what its Content-Type says (JSON that does not parse, a broken
 * multipart body) is refused before any validation; one of a type no schema can be given (an
 * image, a PDF) is refused with 415.
 */
import type { ContractIssue } from '../types';
import { locationIssue } from './issues';

/** What reading a body gave: its value, or why it cannot be validated and with which status. */
export type BodyReading = { value: unknown } | { issue: ContractIssue; status: 400 | 415 };

/** Keys and values as an object: one key, one value; a repeated key, an array of its values in order. */
export function fieldsOf<V>(entries: Iterable<[string, V]>): Record<string, V | V[]> {
  const fields = new Map<string, V | V[]>();
  for (const [key, value] of entries) {
    const earlier = fields.get(key);
    if (earlier === undefined) fields.set(key, value);
    else if (Array.isArray(earlier)) earlier.push(value);
    else fields.set(key, [earlier, value]);
  }
  // `fromEntries` defines each key as an own property: a `__proto__` field stays a field.
  return Object.fromEntries(fields);
}

export function queryOf(request: Request): Record<string, string | string[]> {
  return fieldsOf(new URL(request.url).searchParams);
}

export function headersOf(request: Request): Record<string, string> {
  // A Headers object's names are lower case already; its repeated values are joined with `, `.
  return Object.fromEntries(request.headers);
}

/**
 * The body's value: `undefined` when there is none; otherwise by media type. A body an Express
 * parser already read arrives here re-encoded by the bridge, so it reads the same way.
 */
export async function readBody(request: Request): Promise<BodyReading> {
  if (request.body === null) return { value: undefined };
  const contentType = request.headers.get('content-type') ?? '';
  const type = mediaType(contentType);
  // Read whole first, so that an error of the stream (a body over the limit, a client that left)
  // stays itself for the host to answer, and only the parsing below can make a 400.
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.length === 0) return { value: undefined };

  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return { value: JSON.parse(utf8(bytes)) };
    } catch {
      return { issue: locationIssue('body', 'The body is not valid JSON'), status: 400 };
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    return { value: fieldsOf(new URLSearchParams(utf8(bytes))) };
  }
  if (type === 'multipart/form-data') {
    try {
      // The Fetch standard's own multipart parser: fields are strings, files stay `File`s.
      const form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
      return { value: fieldsOf(form) };
    } catch {
      return { issue: locationIssue('body', 'The body is not valid multipart/form-data'), status: 400 };
    }
  }
  if (type.startsWith('text/')) return { value: utf8(bytes) };
  const sent = type === '' ? 'A body without a Content-Type' : `Content-Type ${type}`;
  return {
    issue: locationIssue(
      'body',
      `${sent} cannot be validated: send JSON, a form (urlencoded or multipart) or text`,
    ),
    status: 415,
  };
}

/** `application/json; charset=utf-8` -> `application/json`. */
export function mediaType(contentType: string): string {
  const end = contentType.indexOf(';');
  return (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
}

const decoder = new TextDecoder();

/** UTF-8, a byte order mark dropped, as `request.text()` decodes. */
function utf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
