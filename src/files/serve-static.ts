/**
 * `serveStatic(root, options)`: a folder served as `express.static` (serve-static) serves it, from a
 * catch-all endpoint: `app/assets/[[...path]]/endpoint.ts` with `export const GET = serveStatic(dir)`.
 * The path below the route is the catch-all's segments (decoded once, by the router) and the URL's
 * trailing slash; a folder's index file; a folder asked for without its slash redirected (301) to it
 * with one; the same head, conditions and ranges as sendFile. GET and HEAD only (HEAD reaches a GET
 * export by itself).
 *
 * `fallthrough` (the default): where express.static calls `next()` to let the routes after it try (a
 * path it has no file for, or refuses before it found one), there is nothing after an endpoint, so
 * it throws a 404 for the app's error handler. `fallthrough: false`: the refusal itself (400, 403,
 * 404), as express.static passes it to `next(err)`.
 */
import type { Stats } from 'node:fs';
import { FileError } from './file-error';
import { collapseLeadingSlashes, encodeUrl, escapeHtml, htmlDocument } from './http-text';
import { fileSettings, type FileOptions } from './options';
import { serveFile } from './serve-file';

export interface ServeStaticOptions extends FileOptions {
  /**
   * A path with no file, or refused before a file was found (a dotfile, a `..`), is a plain 404
   * (`true`, the default), as express.static leaves it to the app's 404; `false`: its own error.
   */
  fallthrough?: boolean;
  /** Redirect a folder asked for without its trailing slash to the URL with one (301). Default true. */
  redirect?: boolean;
  /** Called for each file sent, with the Response's headers before those made from the file. */
  setHeaders?: (headers: Headers, path: string, stat: Stats) => void;
  /** The catch-all param that holds the path below the route: default `'path'` (`[[...path]]`). */
  param?: string;
}

/** The context serveStatic reads: the route's params. */
export interface StaticContext {
  params: Readonly<Record<string, string | readonly string[] | undefined>>;
}

export type StaticHandler = (request: Request, context: StaticContext) => Promise<Response>;

export function serveStatic(root: string, options: ServeStaticOptions = {}): StaticHandler {
  if (!root) throw new TypeError('serveStatic: root path required');
  if (typeof root !== 'string') throw new TypeError('serveStatic: root path must be a string');
  const { fallthrough = true, redirect = true, setHeaders, param = 'path', ...fileOptions } = options;
  if (setHeaders !== undefined && typeof setHeaders !== 'function') {
    throw new TypeError('serveStatic: option setHeaders must be function');
  }
  const settings = fileSettings({ ...fileOptions, root }, 'serveStatic');
  if (setHeaders) settings.setHeaders = setHeaders;

  const passOr = (error: Error): Error =>
    fallthrough && statusOf(error) < 500 ? new FileError(404, 'NOT_FOUND', { cause: error }) : error;

  return async function serveStaticFile(request: Request, context: StaticContext): Promise<Response> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw fallthrough ? new FileError(404, 'NOT_FOUND') : new FileError(405, 'METHOD_NOT_ALLOWED');
    }
    const url = new URL(request.url);
    const served = await serveFile(request, pathBelowRoute(context.params[param], url), settings);
    switch (served.kind) {
      case 'file':
        return served.response;
      case 'folder':
        if (!redirect || served.trailingSlash) throw passOr(new FileError(404, 'EISDIR'));
        return redirectToFolder(url);
      case 'refused':
        // Once the file was found (a 412, a 416, a read error), express.static passes it on too.
        throw served.found ? served.error : passOr(served.error);
    }
  };
}

/**
 * The path serve-static reads below its mount: `/` and the segments, and the URL's trailing slash,
 * which the router does not keep; `''` for the route's own URL without a slash (it redirects).
 */
function pathBelowRoute(value: string | readonly string[] | undefined, url: URL): string {
  const segments = value === undefined ? [] : typeof value === 'string' ? [value] : value;
  const trailingSlash = url.pathname.endsWith('/');
  if (segments.length === 0) return trailingSlash ? '/' : '';
  return `/${segments.join('/')}${trailingSlash ? '/' : ''}`;
}

/** serve-static's redirect: the URL with a slash after its path, query kept, and a short HTML page. */
function redirectToFolder(url: URL): Response {
  const location = encodeUrl(collapseLeadingSlashes(`${url.pathname}/`) + url.search);
  const page = htmlDocument('Redirecting', `Redirecting to ${escapeHtml(location)}`);
  return new Response(page, {
    status: 301,
    headers: {
      'content-type': 'text/html; charset=UTF-8',
      'content-length': String(Buffer.byteLength(page)),
      'content-security-policy': "default-src 'none'",
      'x-content-type-options': 'nosniff',
      location,
    },
  });
}

function statusOf(error: Error): number {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : 500;
}
