/**
 * The typed client's types, compiled by `npm run typecheck` (never run): params, query, body and
 * the JSON result typed from the registry typegen writes; each mistake below must be a type error.
 */
import { createClient } from '../../src/client';
import type { Api } from './registry';

const api = createClient<Api>({ baseUrl: 'http://localhost:3000' });

export async function calls(): Promise<void> {
  const one = await api.GET('/api/users/[id]', { params: { id: '1' } });
  if (one.status === 200) {
    const name: string = one.data.name;
    const ok: true = one.ok;
    void [name, ok];
    // @ts-expect-error -- a User has no password
    void one.data.password;
  } else if (one.status === 404) {
    const error: 'not found' = one.data.error;
    void error;
  } else {
    // Any other status: nothing is known of its body.
    // @ts-expect-error -- data is unknown
    void one.data.name;
  }

  // @ts-expect-error -- the folder is [id]: there is no params.userId
  await api.GET('/api/users/[id]', { params: { userId: '1' } });
  // @ts-expect-error -- params are required for a route with a param
  await api.GET('/api/users/[id]');

  const created = await api.POST('/api/users', { body: { name: 'Ada', email: 'ada@example.com' } });
  if (created.status === 201) void created.data.id.toUpperCase();
  // @ts-expect-error -- the body misses email
  await api.POST('/api/users', { body: { name: 'Ada' } });
  // @ts-expect-error -- the body is required
  await api.POST('/api/users');

  // A multipart contract's body: its fields and its files, sent as a form.
  const photo = new File(['x'], 'x.png', { type: 'image/png' });
  const uploaded = await api.POST('/uploads', { body: { title: 'Holiday', photos: [photo] } });
  if (uploaded.status === 201) void uploaded.data.count.toFixed();
  // @ts-expect-error -- photos are Files, not names
  await api.POST('/uploads', { body: { title: 'Holiday', photos: ['x.png'] } });

  // The query is typed from the contract's input: limit may be given as a string, coerced by the schema.
  const list = await api.GET('/api/users', { query: { limit: 10, tag: ['a', 'b'] } });
  if (list.status === 200) void list.data.users[0]?.email;
  // @ts-expect-error -- tag is an array of strings
  await api.GET('/api/users', { query: { tag: 3 } });

  // @ts-expect-error -- /api/users/[id] serves no POST
  await api.POST('/api/users/[id]', { params: { id: '1' } });
  // @ts-expect-error -- not a route of the tree
  await api.GET('/api/user/[id]', { params: { id: '1' } });

  // QUERY with a body; ANY for every method a client calls; an endpoint without a contract.
  const found = await api.QUERY('/search', { body: { text: 'ada' } });
  if (found.status === 200) void found.data.hits.map((hit) => hit.toUpperCase());
  const anything = await api.DELETE('/anything');
  if (anything.status === 200) void anything.data.method;
  const plain = await api.GET('/plain');
  const data: unknown = plain.data;
  void data;
  await api.GET('/docs/[[...slug]]');
  await api.GET('/files/[...path]', { params: { path: ['a', 'b'] } });
}

// Without a registry: any pattern and method, params as strings, nothing known of the answer.
export async function untyped(): Promise<void> {
  const loose = createClient({ baseUrl: 'http://localhost:3000' });
  const answer = await loose.POST('/anything/[id]', { params: { id: '1' }, body: { any: 'thing' } });
  const data: unknown = answer.data;
  void data;
  // @ts-expect-error -- nothing is known of the answer's body
  void answer.data.id;
  // @ts-expect-error -- params are strings or arrays of strings
  await loose.GET('/users/[id]', { params: { id: 1 } });
}

export async function eventStreams(): Promise<void> {
  // A contract's events type each event's data; the event's type and id are strings.
  for await (const event of api.events('/events', { signal: AbortSignal.timeout(1000), lastEventId: '7' })) {
    const n: number = event.data.n;
    const type: string = event.event;
    const id: string = event.id;
    void [n, type, id];
    // @ts-expect-error -- a Tick has no m
    void event.data.m;
  }
  // Without a contract's events, the data is text.
  for await (const event of api.events('/plain', { reconnect: false })) {
    const text: string = event.data;
    void text;
  }
  // @ts-expect-error -- not a route of the tree
  void api.events('/nope');
  // @ts-expect-error -- the folder is [id]: params are required
  void api.events('/api/users/[id]');
  // @ts-expect-error -- an event stream is asked for with a GET, which sends no body
  void api.events('/events', { body: {} });
  void api.events('/api/users/[id]', { params: { id: '1' }, reconnect: { delay: 500, maxDelay: 10_000 } });
}
