/**
 * multipart()'s limits and their defaults. busboy's (and so multer's) are Infinity for sizes and
 * counts of files, fields and parts, which leaves a server to whoever uploads; these are meant to
 * protect one, and a route that takes more says so.
 */
import { byteSize } from '../dispatch';

export interface MultipartLimits {
  /** Bytes of one file. Default 10 MiB. */
  fileSize: number;
  /** Number of files. Default 10. */
  files: number;
  /** Number of fields (parts without a filename). Default 100. */
  fields: number;
  /** Bytes of one field's value. Default 100 KiB (`express.urlencoded()`'s limit for a whole form). */
  fieldSize: number;
  /** Number of parts, files and fields together. Default 110. */
  parts: number;
  /**
   * Bytes of one part's header block. Default 16 KiB (Node's limit for a request's headers). Past it
   * busboy keeps reading but drops the rest of the header, so memory stays bounded.
   */
  headerSize: number;
}

export const DEFAULT_LIMITS: Readonly<MultipartLimits> = Object.freeze({
  fileSize: 10 * 1024 * 1024,
  files: 10,
  fields: 100,
  fieldSize: 100 * 1024,
  parts: 110,
  headerSize: 16 * 1024,
});

/** What a caller may pass: a number, a size as multer and body-parser spell it (`'50mb'`), or `Infinity`. */
export type LimitsInput = { [Name in keyof MultipartLimits]?: number | string };

export function resolveLimits(given: LimitsInput | undefined): MultipartLimits {
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
