/**
 * The answer send gives for one path, as a Web Response: found (a regular file, a folder's index
 * file, or the path with one of `extensions`), then the head made from the file (Content-Type,
 * Content-Length, Last-Modified, the weak ETag of its size and date, Accept-Ranges, Cache-Control),
 * the conditional request decided (412, 304), the Range (206, 416; several ranges get the whole file,
 * as send sends it), and the bytes: read at once up to one chunk, streamed from disk past that.
 * What is not a file to send is told to the caller, which decides as `res.sendFile` or
 * `express.static` would: a folder, or an error.
 */
// mime-types ships no types: its one function used here is declared beside this file, for every program
// that compiles this one (an app's tsc reading the source, as the build's tests do).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- an ambient declaration has no module to import
/// <reference path="./mime-types.d.ts" />
import { stat as statPath } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { extname, join, sep } from 'node:path';
import mime from 'mime-types';
import { isConditional, isFresh, isRangeFresh, preconditionFails } from './conditions';
import { FileError, internalFileError } from './file-error';
import { locate } from './file-path';
import { CHUNK_SIZE, fileStream, readPart } from './file-stream';
import type { FileSettings } from './options';
import { BYTES_RANGE, contentRange, MALFORMED, parseRanges, UNSATISFIABLE } from './ranges';

/** `found`: a file was found before it failed (412, 416, a read error), as serve-static's `file` event says. */
type Refused = { kind: 'refused'; error: Error; found: boolean };

export type Served =
  | { kind: 'file'; response: Response }
  /** The path is a folder; `trailingSlash`: it was asked for with one (and no index file is tried). */
  | { kind: 'folder'; trailingSlash: boolean }
  | Refused;

/** What the file system says when the path is not there. */
const NOT_THERE = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG']);

/** Headers a 304 leaves out (send's removeContentHeaderFields): they describe the body it does not have. */
const NOT_MODIFIED_DROPS = [
  'content-encoding',
  'content-language',
  'content-length',
  'content-range',
  'content-type',
];

/** `path`, decoded, as send would answer it for `request`. */
export async function serveFile(request: Request, path: string, settings: FileSettings): Promise<Served> {
  const located = locate(path, settings);
  if ('refused' in located) return { kind: 'refused', error: located.refused, found: false };
  const trailingSlash = path.endsWith('/');
  if (settings.index.length > 0 && trailingSlash) return sendIndex(request, located.path, settings);
  return sendPath(request, located.path, trailingSlash, settings);
}

async function sendPath(
  request: Request,
  full: string,
  trailingSlash: boolean,
  settings: FileSettings,
): Promise<Served> {
  const endsWithSep = full.endsWith(sep);
  let stat: Stats;
  try {
    stat = await statPath(full);
  } catch (error) {
    if (codeOf(error) === 'ENOENT' && !extname(full) && !endsWithSep && settings.extensions.length > 0) {
      return tryCandidates(
        request,
        settings.extensions.map((extension) => `${full}.${extension}`),
        settings,
        error,
      );
    }
    return notFound(error);
  }
  if (stat.isDirectory()) return { kind: 'folder', trailingSlash };
  if (endsWithSep) return { kind: 'refused', error: new FileError(404, 'ENOTDIR'), found: false };
  return answer(request, full, stat, settings);
}

function sendIndex(request: Request, folder: string, settings: FileSettings): Promise<Served> {
  return tryCandidates(
    request,
    settings.index.map((name) => join(folder, name)),
    settings,
    undefined,
  );
}

/**
 * The first of `candidates` that is a file (folders are skipped); when none is, the last error, as
 * send's own `next(err)` keeps it.
 */
async function tryCandidates(
  request: Request,
  candidates: string[],
  settings: FileSettings,
  error: unknown,
): Promise<Served> {
  let last = error;
  for (const candidate of candidates) {
    let stat: Stats;
    try {
      stat = await statPath(candidate);
    } catch (failure) {
      last = failure;
      continue;
    }
    if (stat.isDirectory()) {
      last = undefined;
      continue;
    }
    return answer(request, candidate, stat, settings);
  }
  return last === undefined
    ? { kind: 'refused', error: new FileError(404, 'ENOENT'), found: false }
    : notFound(last);
}

/** send's onStatError: "not there" is a 404; anything else (EACCES, EMFILE) a 500. */
function notFound(error: unknown): Refused {
  const code = codeOf(error);
  const refusal =
    code !== undefined && NOT_THERE.has(code)
      ? new FileError(404, code, { cause: error })
      : internalFileError(error);
  return { kind: 'refused', error: refusal, found: false };
}

/** The file's answer: its head, the conditions and the Range decided, its bytes. */
async function answer(request: Request, full: string, stat: Stats, settings: FileSettings): Promise<Served> {
  // A FIFO, a socket or a device is no file to send: reading one may never end.
  if (!stat.isFile()) return { kind: 'refused', error: new FileError(404, 'ENOENT'), found: false };
  const headers = new Headers(settings.headers);
  settings.setHeaders?.(headers, full, stat);
  if (settings.acceptRanges && !headers.get('accept-ranges')) headers.set('accept-ranges', 'bytes');
  if (settings.cacheControl && !headers.get('cache-control')) {
    const immutable = settings.immutable ? ', immutable' : '';
    headers.set('cache-control', `public, max-age=${Math.floor(settings.maxAge / 1000)}${immutable}`);
  }
  if (settings.lastModified && !headers.get('last-modified'))
    headers.set('last-modified', stat.mtime.toUTCString());
  if (settings.etag && !headers.get('etag')) headers.set('etag', statTag(stat));
  if (!headers.get('content-type')) {
    headers.set('content-type', mime.contentType(extname(full)) || 'application/octet-stream');
  }

  const asked = request.headers;
  const etag = headers.get('etag');
  const lastModified = headers.get('last-modified');
  if (isConditional(asked)) {
    if (preconditionFails(asked, etag, lastModified)) {
      return {
        kind: 'refused',
        error: new FileError(412, 'PRECONDITION_FAILED', { headers: leftOn(headers) }),
        found: true,
      };
    }
    if (isFresh(asked, etag, lastModified)) {
      for (const name of NOT_MODIFIED_DROPS) headers.delete(name);
      return { kind: 'file', response: new Response(null, { status: 304, headers }) };
    }
  }

  const size = stat.size;
  let status = 200;
  let start = 0;
  let length = size;
  const range = asked.get('range');
  if (settings.acceptRanges && range !== null && BYTES_RANGE.test(range)) {
    let ranges = parseRanges(size, range);
    if (!isRangeFresh(asked, etag, lastModified)) ranges = MALFORMED;
    if (ranges === UNSATISFIABLE) {
      headers.set('content-range', contentRange(size));
      return {
        kind: 'refused',
        error: new FileError(416, 'RANGE_NOT_SATISFIABLE', { headers: leftOn(headers) }),
        found: true,
      };
    }
    // One range: that part. Several: the whole file, as send answers them (no multipart/byteranges).
    if (ranges !== MALFORMED && ranges.length === 1) {
      const only = ranges[0]!;
      status = 206;
      headers.set('content-range', contentRange(size, only));
      start = only.start;
      length = only.end - only.start + 1;
    }
  }
  headers.set('content-length', String(length));
  let body: BodyInit | null = null;
  if (request.method !== 'HEAD' && length > 0) {
    if (length > CHUNK_SIZE) {
      body = fileStream(full, stat, start, start + length - 1);
    } else {
      // One chunk's worth is read now, and goes out whole; a larger file streams as it is read.
      try {
        body = (await readPart(full, stat, start, length)) as Uint8Array<ArrayBuffer>;
      } catch (error) {
        // Gone since the stat: a 404 as send's stream error gives; changed: a 500.
        return { ...notFound(error), found: true };
      }
    }
  }
  return { kind: 'file', response: new Response(body, { status, headers }) };
}

/**
 * The weak ETag send sets, the `etag` package's for a file's stats: its size and its date in
 * milliseconds, in hex. A route moved from `res.sendFile` keeps the tags its clients hold.
 */
export function statTag(stat: Stats): string {
  return `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`;
}

/**
 * The headers send has set on the response when it refuses with 412 or 416, which stay on the
 * answer Express's error handler gives: its own Content-Type replaces the file's.
 */
function leftOn(headers: Headers): Record<string, string> {
  const left: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name !== 'content-type' && name !== 'content-length') left[name] = value;
  });
  return left;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
