/**
 * The options sendFile and serveStatic share, send's, read once into settings: the same defaults,
 * the same checks (a `dotfiles` that is none of the three throws, as send throws), so an options
 * object moved from `res.sendFile` or `express.static` means what it meant there.
 */
import type { Stats } from 'node:fs';
import { resolve } from 'node:path';
import { maxAgeOf } from './http-text';

export interface FileOptions {
  /**
   * The folder the path is inside of. The path is then read relative to it, and one that would
   * leave it (`..`) is refused with 403. Without it, the path must be absolute.
   */
  root?: string;
  /** `Cache-Control: public, max-age=…`: milliseconds, or a string as `ms` reads it (`'1d'`). Default 0. */
  maxAge?: number | string;
  /** Adds `immutable` to Cache-Control. Default false. */
  immutable?: boolean;
  /** Set Cache-Control at all. Default true. */
  cacheControl?: boolean;
  /** Set Last-Modified from the file's date. Default true. */
  lastModified?: boolean;
  /** Set the weak ETag send makes from the file's size and date. Default true. */
  etag?: boolean;
  /** Answer Range requests (`Accept-Ranges: bytes`, 206). Default true. */
  acceptRanges?: boolean;
  /**
   * A path with a part starting with a dot (`.env`, `.git/config`): `'ignore'` (the default) answers
   * 404 as if it were not there, `'deny'` 403, `'allow'` sends it.
   */
  dotfiles?: 'allow' | 'deny' | 'ignore';
  /** Files tried, in order, for a path ending in `/`. Default `'index.html'`; false for none. */
  index?: string | readonly string[] | false;
  /** Extensions tried, in order, for a path without one that is not there (`['html']`). Default none. */
  extensions?: string | readonly string[] | false;
  /**
   * Headers for the file's answer. They win over the ones made from the file (a Content-Type or
   * Cache-Control given here is kept), as `res.sendFile`'s `headers` do.
   */
  headers?: Record<string, string> | ResponseInit['headers'];
}

export type Dotfiles = NonNullable<FileOptions['dotfiles']>;

/** The options as send holds them. */
export interface FileSettings {
  root: string | null;
  maxAge: number;
  immutable: boolean;
  cacheControl: boolean;
  lastModified: boolean;
  etag: boolean;
  acceptRanges: boolean;
  dotfiles: Dotfiles;
  index: string[];
  extensions: string[];
  headers: [string, string][];
  /** serveStatic's `setHeaders`, called with the headers before those made from the file. */
  setHeaders?: (headers: Headers, path: string, stat: Stats) => void;
}

export function fileSettings(options: FileOptions, caller: string): FileSettings {
  const dotfiles = options.dotfiles ?? 'ignore';
  if (dotfiles !== 'ignore' && dotfiles !== 'allow' && dotfiles !== 'deny') {
    throw new TypeError(`${caller}: dotfiles option must be "allow", "deny", or "ignore"`);
  }
  return {
    root: options.root ? resolve(options.root) : null,
    maxAge: maxAgeOf(options.maxAge),
    immutable: options.immutable ?? false,
    cacheControl: options.cacheControl ?? true,
    lastModified: options.lastModified ?? true,
    etag: options.etag ?? true,
    acceptRanges: options.acceptRanges ?? true,
    dotfiles,
    index: listOf(options.index ?? 'index.html', `${caller}: index option`),
    extensions: listOf(options.extensions ?? [], `${caller}: extensions option`),
    headers: [...new Headers(options.headers)],
  };
}

function listOf(value: string | readonly string[] | false, what: string): string[] {
  const list = ([] as unknown[]).concat(value || []);
  for (const item of list) {
    if (typeof item !== 'string') throw new TypeError(`${what} must be array of strings or false`);
  }
  return list as string[];
}
