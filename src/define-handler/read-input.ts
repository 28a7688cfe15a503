/**
 * Reads the parts of a request a contract declares, as plain values for its schemas:
 * the query and a form as objects (a repeated key gives an array of its values), the headers as
 * an object with lower-case names, the body by its Content-Type. Only what the contract
 * declares is read, so a contract on `params` alone leaves the body for the handler.
 *
 * A body that cannot be what its Content-Type says (JSON that does not parse, a broken
 * multipart body) is refused before any validation; one of a type no schema can be given (an
 * image, a PDF), or not the form a contract's `multipart` asks for, is refused with 415.
 */
import { jsonSchemaOf, type EndpointContract, type StandardSchemaV1 } from '../contract';
import { MultipartError, readForm, resolveLimits, type ReadFormOptions } from '../multipart';
import type { ContractIssue, EndpointContextInit } from '../types';
import { locationIssue } from './issues';

/** What reading a body gave: its value, or why it cannot be validated and with which status. */
export type BodyReading = { value: unknown } | { issue: ContractIssue; status: 400 | 415 };

/**
 * Keys and values as an object: one key, one value; a repeated key, an array of its values in order,
 * and so is a key in `arrays` sent once, for a schema that wants an array there.
 */
export function fieldsOf<V>(
  entries: Iterable<[string, V]>,
  arrays: ReadonlySet<string> = NO_KEYS,
): Record<string, V | V[]> {
  const fields = new Map<string, V | V[]>();
  for (const [key, value] of entries) {
    const earlier = fields.get(key);
    if (earlier === undefined) fields.set(key, arrays.has(key) ? [value] : value);
    else if (Array.isArray(earlier)) earlier.push(value);
    else fields.set(key, [earlier, value]);
  }
  // `fromEntries` defines each key as an own property: a `__proto__` field stays a field.
  return Object.fromEntries(fields);
}

const NO_KEYS: ReadonlySet<string> = new Set();

/**
 * The keys a schema of fields (a query, a form) declares as arrays (`type: 'array'` in its JSON
 * Schema), found when first asked: a form sends a list as its key repeated, so a list of one is the
 * key once, and it is still the array the schema wants. A union of one and many is left as sent.
 * A validator without Standard JSON Schema gets the fields as they were sent.
 */
export function arrayKeysOf(schema: StandardSchemaV1 | undefined): () => ReadonlySet<string> {
  let keys: ReadonlySet<string> | undefined;
  return () => (keys ??= schema === undefined ? NO_KEYS : declaredArrays(schema));
}

function declaredArrays(schema: StandardSchemaV1): ReadonlySet<string> {
  const converted = jsonSchemaOf(schema, 'input');
  if ('problem' in converted) return NO_KEYS;
  const properties = converted.schema.properties;
  if (typeof properties !== 'object' || properties === null) return NO_KEYS;
  const keys = Object.entries(properties)
    .filter(([, property]) => (property as { type?: unknown } | null)?.type === 'array')
    .map(([key]) => key);
  return keys.length === 0 ? NO_KEYS : new Set(keys);
}

export function queryOf(request: Request, arrays: ReadonlySet<string>): Record<string, string | string[]> {
  return fieldsOf(new URL(request.url).searchParams, arrays);
}

export function headersOf(request: Request): Record<string, string> {
  // A Headers object's names are lower case already; its repeated values are joined with `, `.
  return Object.fromEntries(request.headers);
}

/** How a contract reads a form: whether it asks for a multipart one, under which limits, and its array fields. */
export interface FormReading {
  /** The contract declares `multipart`: a body of any other type is refused. */
  required: boolean;
  options: Pick<ReadFormOptions, 'limits' | 'preservePath' | 'directory'>;
  /** The fields the body's schema wants as arrays (a form's, urlencoded or multipart). */
  arrays: () => ReadonlySet<string>;
}

/** How a contract reads its request, decided once per handler: its form, and the query's arrays. */
export interface InputReading {
  form: FormReading;
  queryArrays: () => ReadonlySet<string>;
}

/** The contract's reading, its multipart limits resolved at once (a mistake in them is the contract's, found at load). */
export function inputReadingOf(contract: EndpointContract): InputReading {
  const declared = contract.multipart === true ? {} : contract.multipart;
  let limits;
  try {
    limits = resolveLimits(declared?.limits);
  } catch (error) {
    throw new TypeError(`defineHandler: contract.${(error as Error).message}`);
  }
  return {
    form: {
      required: declared !== undefined,
      options: { limits, preservePath: declared?.preservePath ?? false, directory: declared?.directory },
      arrays: arrayKeysOf(contract.body),
    },
    queryArrays: arrayKeysOf(contract.query),
  };
}

/**
 * The body's value: `undefined` when there is none; otherwise by media type. A body an Express
 * parser already read arrives here re-encoded by the bridge, so it reads the same way. A
 * multipart form is read as it arrives, under the contract's limits (`readForm`).
 */
export async function readBody(
  request: Request,
  form: FormReading,
  context: EndpointContextInit | undefined,
): Promise<BodyReading> {
  if (request.body === null) return { value: undefined };
  const contentType = request.headers.get('content-type') ?? '';
  const type = mediaType(contentType);
  if (type === 'multipart/form-data') {
    if (request.headers.get('content-length') === '0') return { value: undefined };
    try {
      // A request no mount serves removes its files through the context's `after`, where it has one.
      const after = context?.after;
      return { value: fieldsOf(await readForm(request, { ...form.options, after }), form.arrays()) };
    } catch (error) {
      // Past a limit (413), the client gone, the route's bodyLimit: the host answers as for any body.
      if (!(error instanceof MultipartError) || error.status !== 400) throw error;
      return { issue: locationIssue('body', 'The body is not valid multipart/form-data'), status: 400 };
    }
  }
  if (form.required) {
    return {
      issue: locationIssue(
        'body',
        `${sentAs(type)} is not what this endpoint reads: send multipart/form-data`,
      ),
      status: 415,
    };
  }
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
    return { value: fieldsOf(new URLSearchParams(utf8(bytes)), form.arrays()) };
  }
  if (type.startsWith('text/')) return { value: utf8(bytes) };
  return {
    issue: locationIssue(
      'body',
      `${sentAs(type)} cannot be validated: send JSON, a form (urlencoded or multipart) or text`,
    ),
    status: 415,
  };
}

/** What the client sent, for a 415's message. */
function sentAs(type: string): string {
  return type === '' ? 'A body without a Content-Type' : `Content-Type ${type}`;
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
