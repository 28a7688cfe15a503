/** A route's `cache`, from the endpoint's export or the nearest folder's `middleware.ts` that states one. */
import type { CacheSettings } from '../types';

/** `endpoint` and `folders` as the modules' exports, folders outermost first. `undefined`: the route caches nothing. */
export function cacheSettingsOf(
  endpoint: { cache?: unknown },
  folders: readonly { cache?: unknown }[],
  file: string,
): CacheSettings | undefined {
  const stated = [endpoint, ...[...folders].reverse()].find((mod) => mod.cache !== undefined)?.cache;
  if (stated === undefined || stated === false) return undefined;
  const settings = stated as CacheSettings;
  const seconds = (name: keyof CacheSettings, value: unknown, required: boolean) => {
    if (value === undefined && !required) return;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw new TypeError(
        `${file}: cache.${name} must be a whole number of seconds, 0 or more; got ${JSON.stringify(value)}`,
      );
    }
  };
  if (typeof stated !== 'object' || stated === null) {
    throw new TypeError(
      `${file}: cache must be an object such as { maxAge: 60 }, or false; got ${JSON.stringify(stated)}`,
    );
  }
  seconds('maxAge', settings.maxAge, true);
  seconds('staleWhileRevalidate', settings.staleWhileRevalidate, false);
  seconds('staleIfError', settings.staleIfError, false);
  if (settings.key !== undefined && typeof settings.key !== 'function') {
    throw new TypeError(`${file}: cache.key must be a function (request, context) => string`);
  }
  return settings;
}
