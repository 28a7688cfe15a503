/**
 * Where the tree is mounted, and the path below it that the tree routes. Express and Connect strip
 * the mount path off `req.url` and keep the client's target in `req.originalUrl`.
 */
import type { IncomingMessage } from 'node:http';
import { targetPath } from './request-url';

type HostRequest = IncomingMessage & { baseUrl?: unknown; originalUrl?: string };

/**
 * Express knows its mount path (`req.baseUrl`, parent routers included). Connect, and chains
 * written like it, strip the mount path off `req.url` and keep the client's target in
 * `req.originalUrl`: the mount path is what was stripped. A bare server has none.
 */
export function mountPathOf(req: HostRequest): string {
  if (typeof req.baseUrl === 'string') return req.baseUrl;
  const original = req.originalUrl;
  const url = req.url ?? '/';
  if (original === undefined || original === url) return '';
  const full = targetPath(original);
  const below = targetPath(url);
  if (full === undefined || below === undefined) return '';
  // `/v1` and `/v1/` both reach a tree mounted at `/v1` as `/`.
  if (below === '/') return full.endsWith('/') ? full.slice(0, -1) : full;
  return full.endsWith(below) ? full.slice(0, full.length - below.length) : '';
}

/**
 * The raw path the tree routes: `req.url`'s, as the host left it below the mount (and as a
 * rewrite of `req.url` by the app made it). `undefined` for a target that names no path, and for
 * one the host stripped more than the mount path off: Express 4 hands a tree mounted at `/v1` the
 * path `/ops` for `/v1//ops`, which a guard on `/v1/ops` never sees; such a request goes on to the
 * app, so that the tree serves only paths a guard on a prefix in front of it sees too.
 */
export function pathBelowMount(req: HostRequest): string | undefined {
  const url = req.url ?? '/';
  const path = targetPath(url);
  const original = req.originalUrl;
  if (path === undefined || original === undefined || original === url) return path;
  const mount = mountPathOf(req);
  if (mount === '') return path;
  const full = targetPath(original);
  const strippedASlashMore =
    full !== undefined && full.startsWith(mount) && full.slice(mount.length) === `/${path}`;
  return strippedASlashMore ? undefined : path;
}
