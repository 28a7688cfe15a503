/**
 * cache: response caching by route, from `export const cache = { maxAge }`: Cache-Control for CDNs and browsers,
 * and with a store on the mount, answers kept server-side, stale-while-revalidate with one refresh per key.
 */
export { cacheStep } from './cache-step';
export { cacheSettingsOf } from './cache-settings';
export { memoryCache, type MemoryCacheOptions } from './memory-cache';
export type { CacheEntry, CacheOptions, CacheSettings, CacheStore } from '../types';
