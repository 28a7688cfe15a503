/**
 * multipart()'s limits and their defaults. busboy's (and so multer's) are Infinity for sizes and
 * counts of files, fields and parts, which leaves a server to whoever uploads; these are meant to
 * protect one, and a route that takes more says so.
 */
import { byteSize } from '../dispatch';
import type { MultipartLimits, MultipartLimitsInput } from '../types';

export type { MultipartLimits, MultipartLimitsInput };

export const DEFAULT_LIMITS: Readonly<MultipartLimits> = Object.freeze({
  fileSize: 10 * 1024 * 1024,
  files: 10,
  fields: 100,
  fieldSize: 100 * 1024,
  parts: 110,
  headerSize: 16 * 1024,
});

export function resolveLimits(given: MultipartLimitsInput | undefined): MultipartLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const [name, value] of Object.entries(given ?? {}) as [keyof MultipartLimits, unknown][]) {
    if (value === undefined) continue;
    if (!(name in DEFAULT_LIMITS)) {
      throw new TypeError(
        `multipart: unknown limit ${JSON.stringify(name)}; the limits are ${Object.keys(DEFAULT_LIMITS).join(', ')}`,
      );
    }
    const bytes =
      value === Infinity
        ? Infinity
        : typeof value === 'number' || typeof value === 'string'
          ? byteSize(value)
          : undefined;
    if (bytes === undefined) {
      throw new TypeError(
        `multipart: limits.${name} must be a number, a size such as '10mb', or Infinity; got ${JSON.stringify(value)}`,
      );
    }
    limits[name] = bytes;
  }
  return limits;
}
