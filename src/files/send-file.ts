/**
 * `sendFile(request, path, options)`: a file as `res.sendFile` answers with it, and with `download`
 * as `res.download` does, in a Response. Whatever keeps the file from being sent (not there, a
 * dotfile, a path that climbs out of `root`, a failed precondition, a Range it cannot satisfy) is
 * thrown as a FileError with `status`, as `res.sendFile` passes it to `next(err)`: the app's error
 * handler answers it, in the app's shape.
 */
import { basename, isAbsolute, resolve } from 'node:path';
import { create as contentDisposition } from 'content-disposition';
import { FileError } from './file-error';
import { fileSettings, type FileOptions } from './options';
import { serveFile } from './serve-file';

export interface SendFileOptions extends FileOptions {
  /**
   * Send it as `res.download` does: `Content-Disposition: attachment` with the file's own name
   * (`true`), or with this name, which the client saves it as. A relative path is then read from the
   * working directory, as `res.download` reads it.
   */
  download?: boolean | string;
}

/**
 * The file at `path` (absolute, or inside `options.root`) as the answer to `request`: 200 with its
 * bytes streamed from disk, 206 for one Range, 304 when the client's copy is fresh, headers only for
 * HEAD. Rejects with a FileError (404, 403, 400, 412 or 416, `expose: true`) where `res.sendFile`
 * would call `next(err)`, and with the file system's error (500, `expose: false`) for any other
 * failure to read it.
 */
export async function sendFile(
  request: Request,
  path: string,
  options: SendFileOptions = {},
): Promise<Response> {
  if (!path) throw new TypeError('sendFile: path argument is required');
  if (typeof path !== 'string') throw new TypeError('sendFile: path must be a string');
  const { download, ...rest } = options;
  let filePath = path;
  const fileOptions: FileOptions = rest;
  if (download !== undefined && download !== false) {
    const name = typeof download === 'string' ? download : path;
    const headers = new Headers(rest.headers);
    // Set last: it wins over a Content-Disposition in `headers`, as res.download's does.
    headers.set('content-disposition', contentDisposition(basename(name)));
    fileOptions.headers = headers;
    if (!rest.root) filePath = resolve(path);
  }
  if (!fileOptions.root && !isAbsolute(filePath)) {
    throw new TypeError('sendFile: path must be absolute or specify root');
  }
  const served = await serveFile(request, filePath, fileSettings(fileOptions, 'sendFile'));
  switch (served.kind) {
    case 'file':
      return served.response;
    case 'folder':
      // res.sendFile leaves a folder to the routes after it (`next()`): in the tree, that is a 404.
      throw new FileError(404, 'EISDIR');
    case 'refused':
      throw served.error;
  }
}
