/**
 * One Operation Object (OpenAPI 3.1/3.2, section 4.8.10) from an endpoint's handler export and its
 * contract, if any: the path, query and header parameters, the request body, the responses, and the
 * contract's description fields. Requests are described by each schema's input, responses by its
 * output (a transform's result is what a client receives).
 */
import {
  DESCRIPTION_FIELDS,
  jsonSchemaOf,
  type Direction,
  type EndpointContract,
  type StandardSchemaV1,
} from '../contract';
import { isNullBodyStatus } from '../dispatch';
import { isObject, type SchemaComponents } from './components';
import type { PathParam } from './paths';
import type { JsonSchema } from './types';
import type { OpenAPIVersion } from '../types';

export interface OperationSource {
  /** Lower-case method, as the Path Item Object names it: `get`, `query`. */
  method: string;
  /** The handler export that serves it: `GET`, or `ANY`/`default` for a fallback. */
  exportName: string;
  contract: EndpointContract | undefined;
  params: readonly PathParam[];
  /** The endpoint file, for warnings. */
  file: string;
}

export interface OperationSettings {
  version: OpenAPIVersion;
  components: SchemaComponents;
  warn(message: string): void;
}

type Json = { [key: string]: unknown };

/** Header parameters named so are ignored by the spec (section 4.8.12.2): the Media Type and Security objects say them. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

export function buildOperation(source: OperationSource, settings: OperationSettings): Json {
  const { contract } = source;
  const schema = (part: string, value: StandardSchemaV1 | undefined, direction: Direction): JsonSchema => {
    if (!value) return {};
    const converted = jsonSchemaOf(value, direction);
    if ('problem' in converted) {
      settings.warn(
        `${source.file}: ${source.exportName} ${part} is documented as an open schema: ${converted.problem}`,
      );
      return {};
    }
    return settings.components.place(converted.schema, direction);
  };

  const operation: Json = {};
  for (const field of DESCRIPTION_FIELDS) {
    if (contract?.[field] !== undefined) operation[field] = contract[field];
  }
  if (source.exportName === 'ANY' || source.exportName === 'default') {
    if (typeof operation.operationId === 'string') operation.operationId += `_${source.method}`;
    operation['x-handler'] = source.exportName;
  }

  const paramsSchema = schema('params', contract?.params, 'input');
  const parameters = [
    ...source.params.map((param) => pathParameter(param, propertiesOf(paramsSchema, settings.components))),
    ...objectParameters('query', schema('query', contract?.query, 'input'), settings.components),
    ...objectParameters('header', schema('headers', contract?.headers, 'input'), settings.components).filter(
      (parameter) => !IGNORED_HEADERS.has(String(parameter.name).toLowerCase()),
    ),
  ];
  if (parameters.length > 0) operation.parameters = parameters;

  if (contract?.body) {
    const body = schema('body', contract.body, 'input');
    const type = requestMediaType(contract, body, propertiesOf(body, settings.components));
    operation.requestBody = { required: true, content: { [type]: { schema: body } } };
  }

  const responses: Json = {};
  for (const [status, responseSchema] of Object.entries(contract?.responses ?? {})) {
    // A 204, 205 or 304 has no content (RFC 9110, sections 15.3.5, 15.3.6 and 15.4.5): nothing to convert.
    if (isNullBodyStatus(Number(status))) {
      responses[status] = { description: phrase(status) };
      continue;
    }
    responses[status] = {
      description: phrase(status),
      content: { 'application/json': { schema: schema(`responses[${status}]`, responseSchema, 'output') } },
    };
  }
  if (contract?.events) {
    const existing = (responses['200'] as Json | undefined) ?? { description: phrase('200') };
    const content = (existing.content as Json | undefined) ?? {};
    content['text/event-stream'] = eventStream(schema('events', contract.events, 'output'), settings.version);
    responses['200'] = { ...existing, content };
  }
  if (
    contract &&
    (contract.params || contract.query || contract.headers || contract.body) &&
    !contract.onInvalid
  ) {
    // What defineHandler answers an invalid request with (docs/contracts.md), unless the contract lists its own.
    responses['400'] ??= problem('The request does not match the contract', settings.components);
    if (contract.body)
      responses['415'] ??= problem('The body cannot be read as its Content-Type says', settings.components);
  }
  if (Object.keys(responses).length === 0) responses.default = { description: 'The endpoint’s response' };
  operation.responses = responses;
  return operation;
}

/**
 * What a client sends the body as: a form where the contract reads one (`multipart`) or where the
 * schema has a file in it (a binary string, as Zod's `z.file()` describes one: OpenAPI 3.1's
 * section 4.8.14.3 on uploads), text for a string schema, JSON otherwise.
 */
function requestMediaType(contract: EndpointContract, body: JsonSchema, properties: Json): string {
  if (contract.multipart !== undefined || Object.values(properties).some(isBinary)) {
    return 'multipart/form-data';
  }
  return body.type === 'string' ? 'text/plain' : 'application/json';
}

/** A file's schema, or an array of them. */
function isBinary(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  if (schema.format === 'binary' || schema.contentEncoding === 'binary') return true;
  return schema.type === 'array' && isBinary(schema.items);
}

/**
 * Server-Sent Events: OpenAPI 3.2 describes each event with `itemSchema` (section 4.8.14.4), an
 * object of the event's fields whose `data` holds JSON. 3.1 has no way to say it: the stream is a
 * string, and the same schema goes under an extension.
 */
function eventStream(data: JsonSchema, version: OpenAPIVersion): Json {
  const itemSchema = {
    type: 'object',
    properties: {
      event: { type: 'string' },
      data: { type: 'string', contentMediaType: 'application/json', contentSchema: data },
      id: { type: 'string' },
      retry: { type: 'integer', minimum: 0 },
    },
    required: ['data'],
  };
  return version === '3.2' ? { itemSchema } : { schema: { type: 'string' }, 'x-itemSchema': itemSchema };
}

/** A response with problem details: the schema is a component, written once and only when used. */
function problem(description: string, components: SchemaComponents): Json {
  const schema = components.share('ProblemDetails', PROBLEM_DETAILS);
  return { description, content: { 'application/problem+json': { schema } } };
}

function pathParameter(param: PathParam, properties: Json): Json {
  const declared = properties[param.name];
  return {
    name: param.name,
    in: 'path',
    required: true,
    ...(param.catchAll ? { description: 'The rest of the path: one or more segments, `/`-separated' } : {}),
    // A catch-all's schema describes an array of segments; in the URL it is one string.
    schema: !param.catchAll && isObject(declared) ? declared : { type: 'string' },
  };
}

/** Each property of an object schema as a parameter (query: a repeated key is an array, `form` style). */
function objectParameters(
  where: 'query' | 'header',
  schema: JsonSchema,
  components: SchemaComponents,
): Json[] {
  const properties = propertiesOf(schema, components);
  const { required: names } = resolved(schema, components);
  const required = new Set(Array.isArray(names) ? (names as string[]) : []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: required.has(name),
    schema: isObject(property) ? property : {},
  }));
}

/** A top-level `$ref` to a component (Zod's schemas with an id) followed once. */
function resolved(schema: JsonSchema, components: SchemaComponents): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) return schema;
  return components.schemas[ref.slice('#/components/schemas/'.length)] ?? schema;
}

function propertiesOf(schema: JsonSchema, components: SchemaComponents): Json {
  const properties = resolved(schema, components).properties;
  return isObject(properties) ? properties : {};
}

const PHRASES: { [status: string]: string } = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No Content',
  '301': 'Moved Permanently',
  '302': 'Found',
  '303': 'See Other',
  '304': 'Not Modified',
  '307': 'Temporary Redirect',
  '308': 'Permanent Redirect',
  '400': 'Bad Request',
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '404': 'Not Found',
  '405': 'Method Not Allowed',
  '409': 'Conflict',
  '410': 'Gone',
  '412': 'Precondition Failed',
  '413': 'Content Too Large',
  '415': 'Unsupported Media Type',
  '422': 'Unprocessable Content',
  '429': 'Too Many Requests',
  '500': 'Internal Server Error',
  '502': 'Bad Gateway',
  '503': 'Service Unavailable',
};

/** A Response Object's `description` is required in 3.1 (section 4.8.17.1): the status's reason phrase. */
function phrase(status: string): string {
  return PHRASES[status] ?? `Status ${status}`;
}

/** RFC 9457 problem details, with the `issues` member a contract's 400 lists (docs/contracts.md). */
const PROBLEM_DETAILS = {
  type: 'object',
  description: 'RFC 9457 problem details',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    issues: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          location: { type: 'string', enum: ['params', 'query', 'headers', 'body'] },
          path: { type: 'string' },
          pointer: { type: 'string' },
          message: { type: 'string' },
        },
        required: ['location', 'path', 'pointer', 'message'],
      },
    },
  },
  required: ['type', 'title', 'status'],
};
