/**
 * multipart()'s refusals: a body over one of its limits (413), malformed (400) or of another type
 * (415). Each is one of the library's refusals (`status`, `statusCode`, `expose`, `code`), so it
 * reaches the app's error handler as a bodyLimit's 413 does, and `.fetch` answers its status in plain
 * text. The codes over a limit are multer's (`LIMIT_FILE_SIZE`, …): an error handler written for
 * multer's errors reads them.
 */
import { RequestRefusedError } from '../dispatch';
import type { MultipartLimits } from './limits';

/** multer's code for each limit. */
const LIMIT_CODES: Record<keyof MultipartLimits, string> = {
  fileSize: 'LIMIT_FILE_SIZE',
  files: 'LIMIT_FILE_COUNT',
  fields: 'LIMIT_FIELD_COUNT',
  fieldSize: 'LIMIT_FIELD_VALUE',
  parts: 'LIMIT_PART_COUNT',
  headerSize: 'LIMIT_HEADER_SIZE',
};

const WHAT: Record<keyof MultipartLimits, string> = {
  fileSize: 'a file is larger than the limit of',
  files: 'more files than the limit of',
  fields: 'more fields than the limit of',
  fieldSize: 'a field is larger than the limit of',
  parts: 'more parts than the limit of',
  headerSize: "a part's header is larger than the limit of",
};

const BYTES: ReadonlySet<keyof MultipartLimits> = new Set(['fileSize', 'fieldSize', 'headerSize']);

export class MultipartError extends RequestRefusedError {
  /** The limit that was crossed and its value (bytes, or a count), for a 413. */
  readonly limit: { name: keyof MultipartLimits; value: number } | undefined;
  /** The part being read when it happened, by its field name, when there was one. */
  readonly field: string | undefined;
  /** body-parser's `type` for a body too large, `'entity.too.large'`; `'entity.parse.failed'` for a 400. */
  readonly type: string;

  constructor(
    answer: { status: number; code: string; message: string },
    details: { limit?: MultipartError['limit']; field?: string; type?: string } = {},
  ) {
    super(answer);
    this.name = 'MultipartError';
    this.limit = details.limit;
    this.field = details.field;
    this.type = details.type ?? 'entity.parse.failed';
    this.stack = `${this.name}: ${this.message}`;
  }

  /** 413: past `name`, whose value is `value`. */
  static overLimit(name: keyof MultipartLimits, value: number, field?: string): MultipartError {
    const unit = BYTES.has(name) ? (value === 1 ? ' byte' : ' bytes') : '';
    const about = field === undefined ? '' : ` (field ${JSON.stringify(field)})`;
    return new MultipartError(
      {
        status: 413,
        code: LIMIT_CODES[name],
        message: `Payload Too Large: ${WHAT[name]} ${value}${unit}${about} (multipart limit ${name})`,
      },
      { limit: { name, value }, field, type: 'entity.too.large' },
    );
  }

  /** 400: the body is not multipart/form-data as it says it is. */
  static malformed(why: string): MultipartError {
    return new MultipartError({
      status: 400,
      code: 'MALFORMED_MULTIPART',
      message: `Bad Request: the multipart/form-data body is malformed: ${why}`,
    });
  }

  /** 415: the request is not multipart/form-data. */
  static unsupportedType(contentType: string | null): MultipartError {
    const said = contentType === null ? 'no Content-Type' : `Content-Type ${JSON.stringify(contentType)}`;
    return new MultipartError(
      {
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: `Unsupported Media Type: expected multipart/form-data, got ${said}`,
      },
      { type: 'unsupported.media.type' },
    );
  }
}
