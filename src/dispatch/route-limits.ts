/**
 * A route's limits, from the innermost place that states each: the endpoint's own export, then the
 * `middleware.ts` of each folder above it, nearest first, then the mount's option, then the default.
 * `export const bodyLimit = '50mb'` in an endpoint raises one upload route's limit; the same export in
 * a folder's `middleware.ts` sets it for every endpoint beneath.
 */
import { DEFAULT_BODY_LIMIT } from './body-rules';

/**
 * What a module may state: `bodyLimit` (bytes, `'50mb'`, or `false`), also as `config.bodyLimit`, and
 * `timeout` (milliseconds, or `false`).
 */
type LimitExports = { bodyLimit?: unknown; config?: unknown; timeout?: unknown };

export interface RouteLimits {
  bodyLimit: number | false;
  /** For a body the app's parser already read: only a limit someone stated, never the default. */
  parsedBodyLimit: number | false;
  /** Milliseconds the route has to answer, or `false`. */
  timeout: number | false;
}

/**
 * `endpoint` and `folders` are the modules' exports, folders outermost first (as the middleware run).
 * `file` names the endpoint in the error for a limit that is not one.
 */
export function routeLimits(
  endpoint: LimitExports,
  folders: readonly LimitExports[],
  mounted: { bodyLimit?: number | false; timeout?: number | false },
  file: string,
): RouteLimits {
  const innermostFirst = [endpoint, ...[...folders].reverse()];
  return {
    ...bodyLimits(innermostFirst, mounted.bodyLimit, file),
    timeout: timeoutOf(innermostFirst, mounted.timeout, file),
  };
}

function bodyLimits(
  innermostFirst: readonly LimitExports[],
  mounted: number | false | undefined,
  file: string,
): Omit<RouteLimits, 'timeout'> {
  for (const mod of innermostFirst) {
    const stated = statedBodyLimit(mod, file);
    if (stated !== undefined) return { bodyLimit: stated, parsedBodyLimit: stated };
  }
  if (mounted !== undefined) return { bodyLimit: mounted, parsedBodyLimit: mounted };
  return { bodyLimit: DEFAULT_BODY_LIMIT, parsedBodyLimit: false };
}

function timeoutOf(
  innermostFirst: readonly LimitExports[],
  mounted: number | false | undefined,
  file: string,
): number | false {
  const stated = innermostFirst.find((mod) => mod.timeout !== undefined)?.timeout ?? mounted ?? false;
  if (stated === false || (typeof stated === 'number' && stated > 0 && stated < 2 ** 31)) return stated;
  throw new TypeError(
    `${file}: timeout must be a number of milliseconds above 0 (below 2^31), or false; got ${JSON.stringify(stated)}`,
  );
}

function statedBodyLimit(mod: LimitExports, file: string): number | false | undefined {
  const config = mod.config as { bodyLimit?: unknown } | undefined;
  const value = mod.bodyLimit ?? config?.bodyLimit;
  if (value === undefined) return undefined;
  if (value === false) return false;
  const bytes = typeof value === 'number' || typeof value === 'string' ? byteSize(value) : undefined;
  if (bytes === undefined) {
    throw new TypeError(
      `${file}: bodyLimit must be a number of bytes, a size such as '50mb', or false; got ${JSON.stringify(value)}`,
    );
  }
  return bytes;
}

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/**
 * A size in bytes, from a number or as body-parser and multer spell it (`'100kb'`, `'1.5mb'`, `'2gb'`);
 * `undefined` for anything else.
 */
export function byteSize(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(value);
  if (!match) return undefined;
  return Math.floor(Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()]!);
}
