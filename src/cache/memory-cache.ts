/** `memoryCache()`: answers kept in this process, the least recently used dropped past a count or a size. */
import type { CacheEntry, CacheStore } from '../types';

export interface MemoryCacheOptions {
  /** Default 1,000. */
  maxEntries?: number;
  /** Bytes of bodies kept in all. Default 64 MiB. */
  maxBytes?: number;
}

interface Kept {
  entry: CacheEntry;
  expires: number;
  pattern: string;
  tags: readonly string[];
}

export function memoryCache(options: MemoryCacheOptions = {}): CacheStore {
  const maxEntries = options.maxEntries ?? 1000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  // A Map keeps insertion order: a read moves an entry to the end, so the first is the least recently used.
  const kept = new Map<string, Kept>();
  const locks = new Map<string, number>();
  let bytes = 0;
  const drop = (key: string) => {
    const old = kept.get(key);
    if (!old) return;
    kept.delete(key);
    bytes -= old.entry.body.byteLength;
  };
  return {
    async get(key) {
      const found = kept.get(key);
      if (!found) return undefined;
      if (found.expires <= Date.now()) {
        drop(key);
        return undefined;
      }
      kept.delete(key);
      kept.set(key, found);
      return found.entry;
    },
    async set(key, entry, ttl, labels) {
      drop(key);
      if (entry.body.byteLength > maxBytes) return;
      kept.set(key, { entry, expires: Date.now() + ttl, ...labels });
      bytes += entry.body.byteLength;
      for (const oldest of kept.keys()) {
        if (kept.size <= maxEntries && bytes <= maxBytes) break;
        drop(oldest);
      }
    },
    async lock(key, ms) {
      const until = locks.get(key);
      if (until !== undefined && until > Date.now()) return false;
      locks.set(key, Date.now() + ms);
      return true;
    },
    async unlock(key) {
      locks.delete(key);
    },
    async invalidate(patternOrTag) {
      let count = 0;
      for (const [key, value] of [...kept]) {
        if (value.pattern === patternOrTag || value.tags.includes(patternOrTag)) {
          drop(key);
          count++;
        }
      }
      return count;
    },
  };
}
