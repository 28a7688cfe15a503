/**
 * Why a file was not sent, as an error for the app's error handler: `res.sendFile` and
 * `express.static` pass theirs to `next(err)` with `status`, and the error handler the app has
 * answers them, in its own shape. These carry the same fields as the library's other refusals
 * (`status`, `statusCode`, `expose`, `code`, `headers`); a bare node:http server answers them with
 * short plain text.
 */
import { RequestRefusedError } from '../dispatch';

const MESSAGES: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  412: 'Precondition Failed',
  416: 'Range Not Satisfiable',
};

/**
 * `code` says why, and stays the same across versions: a missing file's own (`ENOENT`, `ENOTDIR`,
 * `ENAMETOOLONG`), `EISDIR` for a folder sendFile was given, `DOTFILE` (403 under `dotfiles: 'deny'`),
 * `PATH_TRAVERSAL` (a `..` that would leave the root), `NULL_BYTE`, `PRECONDITION_FAILED`,
 * `RANGE_NOT_SATISFIABLE`, and `NOT_FOUND` for serveStatic's fallthrough.
 */
export class FileError extends RequestRefusedError {
  constructor(
    status: number,
    code: string,
    options: { headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    const allow = status === 405 ? 'GET, HEAD' : undefined;
    super({ status, code, message: MESSAGES[status] ?? String(status), ...(allow && { allow }) });
    this.name = 'FileError';
    this.stack = `${this.name}: ${this.message}`;
    // Headers for the error's answer, which Express's default error handler sets: a 416's
    // Content-Range, and the file's validators that send has left on the response by then.
    if (options.headers) (this as { headers: Record<string, string> }).headers = options.headers;
    if (options.cause !== undefined)
      Object.defineProperty(this, 'cause', { value: options.cause, configurable: true, writable: true });
  }
}

/** An error of the file system past the ones that mean "not there" (EACCES, EMFILE…): a 500, as send's. */
export function internalFileError(error: unknown): Error {
  const failure = error instanceof Error ? error : new Error(String(error));
  // Its message names the path on disk: not for the client.
  return Object.assign(failure, { status: 500, statusCode: 500, expose: false });
}
