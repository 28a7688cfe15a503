/**
 * Type-level checks of contracts, compiled by `npm run typecheck` (never run): the
 * context of a handler with a contract is typed from each schema's output, in Zod, Valibot and
 * ArkType alike; a wrong field is an error; the result is an endpoint handler.
 */
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import {
  defineHandler,
  mountEndpoints,
  ResponseContractError,
  EventContractError,
  type ContractIssue,
  type ContractOf,
  type ContractTypes,
  type EndpointHandler,
} from '../../src/index';
import { createTestRequest } from '../../src/testing';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(value?: T) => value;

const User = z.object({ id: z.number(), name: z.string() });

export const POST = defineHandler(
  {
    params: z.object({ id: z.string().transform(Number) }),
    query: z.object({ page: z.coerce.number().optional() }),
    headers: z.object({ 'x-api-key': z.string() }),
    body: z.object({ name: z.string(), tags: z.array(z.string()).default([]) }),
    responses: { 201: User },
  },
  async (request, { params, query, headers, body, route, mountPath, after, node }) => {
    assertType<Equal<typeof params, { id: number }>>();
    assertType<Equal<typeof query, { page?: number | undefined }>>();
    assertType<Equal<typeof headers, { 'x-api-key': string }>>();
    // The output type: the default applied, so `tags` is always there.
    assertType<Equal<typeof body, { name: string; tags: string[] }>>();
    const url: string = request.url;
    void [url, route, mountPath, after, node, headers['x-api-key']];
    // @ts-expect-error -- not a field of the body schema
    void body.email;
    // @ts-expect-error -- params.id is a number once transformed
    const id: string = params.id;
    // @ts-expect-error -- not a field of the query schema
    void query.limit;
    void id;
    return Response.json({ id: params.id, name: body.name }, { status: 201 });
  },
);

// Parts without a schema: params stay the route's strings; the others are not on the context.
export const GET = defineHandler({ query: v.object({ q: v.string() }) }, (_request, context) => {
  assertType<Equal<typeof context.params, Record<string, string | string[]>>>();
  const q: string = context.query.q;
  // @ts-expect-error -- no body schema, no body
  void context.body;
  // @ts-expect-error -- no headers schema, no headers
  void context.headers;
  return new Response(q);
});

// ArkType, with a morph: the handler gets the output type.
export const PUT = defineHandler(
  { params: type({ id: 'string.integer.parse' }), body: type({ email: 'string.email', 'age?': 'number' }) },
  (_request, { params, body }) => {
    assertType<Equal<typeof params, { id: number }>>();
    const age: number | undefined = body.age;
    // @ts-expect-error -- email is a string
    const wrong: number = body.email;
    void [age, wrong];
    return Response.json({ id: params.id, ...body });
  },
);

// Valibot async: the output type too.
export const PATCH = defineHandler(
  {
    body: v.objectAsync({
      email: v.pipeAsync(
        v.string(),
        v.checkAsync(async () => true),
      ),
    }),
  },
  (_request, { body }) => {
    assertType<Equal<typeof body, { email: string }>>();
    return Response.json(body);
  },
);

// What defineHandler returns is an endpoint handler, callable in a unit test with or without a context.
export const asHandler: EndpointHandler = POST;
export async function unitTest(): Promise<void> {
  const res: Response = await POST(createTestRequest('/users/1', { method: 'POST', body: '{"name":"x"}' }), {
    params: { id: '1' },
  });
  await GET(createTestRequest('/?q=x'));
  void res;
}

// The handler must answer a Response.
// @ts-expect-error -- a plain object is not a Response
defineHandler({}, () => ({ ok: true }));

// @ts-expect-error -- a contract part must be a Standard Schema
defineHandler({ body: { name: z.string() } }, () => new Response());

// Mount options, and what onError and onInvalid are told.
mountEndpoints({
  checkResponses: true,
  onInvalid: (issues: ContractIssue[], request: Request, { omittedIssues }: { omittedIssues: number }) =>
    Response.json({
      fields: issues.map((issue) => `${issue.location}:${issue.path}:${issue.pointer}`),
      url: request.url,
      omittedIssues,
    }),
  onError: (error) => {
    if (error instanceof ResponseContractError) void [error.status, error.issues[0]?.message];
  },
});

// For generated types (typed routes, clients): the contract of an export, and what a client sends and gets.
type PostTypes = ContractTypes<ContractOf<typeof POST>>;
assertType<Equal<PostTypes['params'], { id: string }>>();
assertType<Equal<PostTypes['body'], { name: string; tags?: string[] | undefined }>>();
assertType<Equal<PostTypes['responses'][201], { id: number; name: string }>>();
// @ts-expect-error -- no 200 in the contract
export type NoOk = PostTypes['responses'][200];
// @ts-expect-error -- GET has no body schema
export type NoBody = ContractTypes<ContractOf<typeof GET>>['body'];

// events: the context's eventStream sends data typed by the schema's input; a client reads its output.
const Tick = z.object({ n: z.number(), at: z.string().transform((text) => new Date(text)) });
export const STREAM = defineHandler({ events: Tick }, (_request, { eventStream }) =>
  eventStream(async (stream) => {
    await stream.send({ id: '1', data: { n: 1, at: '2026-01-01T00:00:00Z' } });
    // @ts-expect-error -- data the schema does not describe
    await stream.send({ data: { n: 'one', at: '' } });
    const resumedFrom: string | undefined = stream.lastEventId;
    void resumedFrom;
  }),
);
assertType<Equal<ContractTypes<ContractOf<typeof STREAM>>['events'], { n: number; at: Date }>>();
defineHandler({ body: z.string() }, (_request, context) => {
  // @ts-expect-error -- no events in the contract: no eventStream on the context
  void context.eventStream;
  return new Response();
});
// @ts-expect-error -- no events in the contract
export type NoEvents = ContractTypes<ContractOf<typeof POST>>['events'];
mountEndpoints({
  onError: (error) => {
    if (error instanceof EventContractError) void [error.event.event, error.event.id, error.issues[0]?.path];
  },
});

// A multipart contract: the body's files are Files, and its options are typed.
export const UPLOAD = defineHandler(
  {
    body: z.object({ title: z.string(), photos: z.array(z.file()) }),
    multipart: { limits: { fileSize: '5mb', files: 3 }, preservePath: false, directory: '/var/uploads' },
  },
  (_request, { body }) => {
    const photos: File[] = body.photos;
    assertType<Equal<typeof body.photos, File[]>>();
    return Response.json({ count: photos.length });
  },
);
// @ts-expect-error -- no such limit
defineHandler({ body: z.object({}), multipart: { limits: { size: 1 } } }, () => new Response());
