/**
 * Type-level checks for topics: a node-redis client is what redisBackplane() takes, and the socket,
 * context and mount publish with the same signature. Checked by `npm run typecheck`, never run.
 */
import { createClient } from 'redis';
import {
  mountEndpoints,
  redisBackplane,
  type EndpointContext,
  type EndpointWebSocket,
  type TopicSubscription,
} from '../../src';

export function typeChecks(socket: EndpointWebSocket, context: EndpointContext): void {
  redisBackplane({ client: createClient({ url: 'redis://localhost:6379' }) });
  redisBackplane({ url: 'redis://localhost:6379', prefix: 'app:' });
  const endpoints = mountEndpoints({ topics: { backplane: redisBackplane(), backpressureLimit: 1024 } });
  endpoints.publish('news', { any: 'json' });
  socket.subscribe('news');
  socket.publish('news', new Uint8Array(2));
  context.publish?.('news', 'text');
  const subscription: TopicSubscription = context.subscribe!(['a', 'b']);
  void subscription.toEventStream();
  // @ts-expect-error a topic is a string
  socket.subscribe(1);
}
