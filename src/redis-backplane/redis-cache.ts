/**
 * `redisCache()`: the answers of `export const cache` kept in Redis (or Valkey), so every process of
 * the app serves and refreshes the same ones. Keys, under `<prefix>:`:
 *
 *   entry:<key>        one answer, with a PX ttl: a version byte, a 4-byte length, a JSON head
 *                      (status, headers, storedAt), then the body's bytes as they are
 *   lock:<key>         the right to refresh `<key>`: a random token, SET NX PX, dropped only by its holder
 *   pattern:<pattern>  the entry keys of a route, and tag:<tag> those of a tag: sorted sets scored by
 *                      expiry, so an expired member is pruned on the next set instead of piling up
 *
 * The cache is not the app: while Redis is away, `get` misses and `set` and `lock` do nothing (told
 * to `onError`), so requests run their handlers; `invalidate` rejects, since its caller must know.
 */
import { randomBytes } from 'node:crypto';
import type { CacheEntry, CacheStore } from '../types';
import { shut, type RedisClientLike } from './redis-client';
import { loadRedisLibrary } from './redis-library';

export interface RedisCacheOptions {
  /** Where Redis or Valkey listens: `redis://[[user]:password@]host[:port][/db]`, `rediss://` for TLS. Default `redis://localhost:6379`. */
  url?: string;
  /**
   * A node-redis client (`createClient()` of `redis` 5 or later), connected or not, whose settings the
   * store copies (`duplicate()`) for its connection. It is never used nor closed by the store. Takes the place of `url`.
   */
  client?: RedisClientLike;
  /** Begins every key the store writes, so apps sharing a Redis keep apart. Default `'express-file-endpoints:cache'`. */
  prefix?: string;
  /** Told of a command that failed while requests went on without the cache. Default: nothing. */
  onError?: (error: unknown) => void;
}

/** A CacheStore on Redis; `close()` ends its connection (the mount's `close()` calls it). */
export interface RedisCacheStore extends CacheStore {
  close(): Promise<void>;
}

const VERSION = 1;
/** RESP's bulk string, mapped to a Buffer so bodies come back as bytes, not as UTF-8 text. */
const BLOB_STRING = 36;
const AS_BYTES = { typeMapping: { [BLOB_STRING]: Buffer } };
/** Members deleted per command by `invalidate`. */
const CHUNK = 500;

/** Keeps the entry and indexes it, atomically; the indexes live at least as long as it does. */
const SET_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
local ttl = tonumber(ARGV[2])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
for i = 2, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  redis.call('ZADD', KEYS[i], now + ttl, KEYS[1])
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return 1`;

/** Drops the lock only if this holder's token is still in it: an expired lock may be another's now. */
const UNLOCK_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export function redisCache(options: RedisCacheOptions = {}): RedisCacheStore {
  const prefix = options.prefix ?? 'express-file-endpoints:cache';
  if (typeof prefix !== 'string') {
    throw new TypeError(`redisCache({ prefix }): a prefix is a string; got ${JSON.stringify(prefix)}`);
  }
  const onError = options.onError ?? (() => {});
  const entryKey = (key: string) => `${prefix}:entry:${key}`;
  const lockKey = (key: string) => `${prefix}:lock:${key}`;
  // The sets that list a route pattern's entries and a tag's.
  const patternIndex = (pattern: string) => `${prefix}:pattern:${pattern}`;
  const tagIndex = (tag: string) => `${prefix}:tag:${tag}`;
  /** The tokens of the locks this process holds. */
  const held = new Map<string, string>();
  let client: RedisClientLike | undefined;
  let connecting: Promise<RedisClientLike> | undefined;
  let closed = false;
  const unrecoverable = new WeakSet<object>();

  /** The client, once its first attempt to connect has succeeded or failed; it goes on retrying by itself. */
  const connect = async (): Promise<RedisClientLike> => {
    let base = options.client;
    if (base === undefined) {
      const { createClient } = await loadRedisLibrary('redisCache()').catch((error: unknown) => {
        // A missing package is the app's mistake, not an outage: it fails the request, saying so.
        if (typeof error === 'object' && error !== null) unrecoverable.add(error);
        throw error;
      });
      base = createClient({ url: options.url });
    }
    if (closed) throw new Error('redisCache() is closed');
    // A command while Redis is away fails at once, so a request waits for its handler, not for Redis.
    const made = base.duplicate({ disableOfflineQueue: true });
    client = made;
    await new Promise<void>((settled) => {
      made.on('ready', settled);
      made.on('error', (error) => {
        onError(error);
        settled();
      });
      made.connect().catch(() => {});
    });
    return made;
  };
  const send = async <T>(args: (string | Buffer)[], bytes = false): Promise<T> => {
    if (closed) throw new Error('redisCache() is closed');
    connecting ??= connect().catch((error: unknown) => {
      connecting = undefined;
      throw error;
    });
    const ready = await connecting;
    return (await ready.sendCommand(args, bytes ? AS_BYTES : undefined)) as T;
  };
  /** A command of a request's way through the cache: its failure leaves the request uncached. */
  const quietly = async <T>(fallback: T, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (typeof error === 'object' && error !== null && unrecoverable.has(error)) throw error;
      onError(error);
      return fallback;
    }
  };

  return {
    get: (key) =>
      quietly(undefined, async () => {
        const value = await send<Buffer | null>(['GET', entryKey(key)], true);
        return value === null ? undefined : decodeEntry(value);
      }),
    set: (key, entry, ttl, { pattern, tags }) =>
      quietly(undefined, async () => {
        const indexes = [patternIndex(pattern), ...tags.map(tagIndex)];
        const keys = [entryKey(key), ...indexes];
        await send([
          'EVAL',
          SET_SCRIPT,
          String(keys.length),
          ...keys,
          encodeEntry(entry),
          String(Math.max(1, Math.ceil(ttl))),
        ]);
      }),
    lock: (key, ms) =>
      quietly(false, async () => {
        const token = randomBytes(16).toString('hex');
        const ok = await send<string | null>(['SET', lockKey(key), token, 'NX', 'PX', String(ms)]);
        if (ok !== 'OK') return false;
        held.set(key, token);
        return true;
      }),
    unlock: (key) =>
      quietly(undefined, async () => {
        const token = held.get(key);
        if (token === undefined) return;
        held.delete(key);
        await send(['EVAL', UNLOCK_SCRIPT, '1', lockKey(key), token]);
      }),
    async invalidate(patternOrTag) {
      const indexes = [patternIndex(patternOrTag), tagIndex(patternOrTag)];
      const members = new Set<string>();
      for (const index of indexes) {
        for (const member of await send<string[]>(['ZRANGE', index, '0', '-1'])) members.add(member);
      }
      const all = [...members];
      let count = 0;
      for (let at = 0; at < all.length; at += CHUNK) {
        const chunk = all.slice(at, at + CHUNK);
        count += await send<number>(['DEL', ...chunk]);
        // Only what was read is dropped from the index: an entry kept meanwhile stays findable.
        for (const index of indexes) await send(['ZREM', index, ...chunk]);
      }
      return count;
    },
    async close() {
      closed = true;
      const open = client;
      client = undefined;
      if (open !== undefined) await shut(open);
    },
  };
}

function encodeEntry(entry: CacheEntry): Buffer {
  const head = Buffer.from(
    JSON.stringify({ status: entry.status, headers: entry.headers, storedAt: entry.storedAt }),
    'utf8',
  );
  const value = Buffer.allocUnsafe(5 + head.length + entry.body.byteLength);
  value[0] = VERSION;
  value.writeUInt32BE(head.length, 1);
  head.copy(value, 5);
  value.set(entry.body, 5 + head.length);
  return value;
}

/** The entry in `value`; `undefined` for one this version cannot read, which then counts as a miss. */
function decodeEntry(value: Buffer): CacheEntry | undefined {
  if (value.length < 5 || value[0] !== VERSION) return undefined;
  const end = 5 + value.readUInt32BE(1);
  if (value.length < end) return undefined;
  try {
    const head = JSON.parse(value.toString('utf8', 5, end)) as Omit<CacheEntry, 'body'>;
    return { ...head, body: new Uint8Array(value.subarray(end)) };
  } catch {
    return undefined;
  }
}
