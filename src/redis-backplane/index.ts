/**
 * redis-backplane: `redisBackplane()`, the topics' backplane on Redis or Valkey pub/sub, and
 * `redisCache()`, the answers of `export const cache` shared by every process, through the `redis`
 * package (node-redis), an optional peer dependency loaded when a mount first uses it.
 */
export { redisBackplane, type RedisBackplaneOptions } from './redis-backplane';
export { redisCache, type RedisCacheOptions, type RedisCacheStore } from './redis-cache';
export type { RedisClientLike } from './redis-client';
