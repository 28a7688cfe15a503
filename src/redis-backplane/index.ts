/**
 * redis-backplane: `redisBackplane()`, the topics' backplane on Redis or Valkey pub/sub, through
 * the `redis` package (node-redis), an optional peer dependency loaded when a mount first uses it.
 */
export { redisBackplane, type RedisBackplaneOptions } from './redis-backplane';
export type { RedisClientLike } from './redis-client';
