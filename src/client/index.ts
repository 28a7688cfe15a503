/**
 * express-file-endpoints/client: a typed client for the tree, for browsers and Node, with no
 * dependencies. Typed from the `RouteRegistry` that `express-file-endpoints typegen` writes:
 *
 *   import type { RouteRegistry } from 'express-file-endpoints';
 *   const api = createClient<RouteRegistry>({ baseUrl: 'https://api.example.com' });
 *   const answer = await api.GET('/api/users/[id]', { params: { id: '1' } });
 *   if (answer.status === 200) answer.data.name;
 */
export { createClient, type ClientOptions } from './create-client';
export {
  EventStreamError,
  EventTooLargeError,
  type ClientEvent,
  type EventsOptions,
  type ReconnectOptions,
} from './events';
export type {
  Client,
  ClientAnswer,
  ClientMethod,
  ClientRegistry,
  ClientResult,
  CallOptions,
  EventDataOf,
  EventsCallOptions,
  PatternsFor,
  StatusCode,
  UntypedRegistry,
} from './types';
