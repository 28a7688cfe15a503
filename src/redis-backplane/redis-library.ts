/**
 * The `redis` package (node-redis), an optional peer dependency: imported only when a mount uses
 * the Redis backplane or cache, so an app without one neither installs nor loads it.
 */
import { importPackage } from '../load';
import type { RedisClientLike } from './redis-client';

export interface RedisLibrary {
  createClient(options: Record<string, unknown>): RedisClientLike;
}

let loading: Promise<RedisLibrary> | undefined;

/** Resolves to `redis`, once per process; rejects with the install command, for `user`, when it is missing. */
export function loadRedisLibrary(user: string): Promise<RedisLibrary> {
  if (loading === undefined) loading = importRedis();
  return loading.catch((error: unknown) => {
    throw error instanceof MissingRedis
      ? new Error(`${user} needs the redis package: npm install redis`, { cause: error.cause })
      : error;
  });
}

class MissingRedis extends Error {}

async function importRedis(): Promise<RedisLibrary> {
  let mod: unknown;
  try {
    mod = await importPackage('redis');
  } catch (error) {
    loading = undefined;
    const code = (error as { code?: unknown } | null)?.code;
    throw code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND'
      ? new MissingRedis('the redis package is not installed', { cause: error })
      : error;
  }
  // Under `import()`, a CommonJS package's exports may sit on `default` as well as beside it.
  const library = mod as RedisLibrary & { default?: RedisLibrary };
  return typeof library.createClient === 'function' ? library : library.default!;
}
