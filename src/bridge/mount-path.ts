/**
 * The request target, read once: the path the client sent, where the tree is mounted, and the
 * path below it that the tree routes. Express and Connect strip the mount path off `req.url` and
 * keep the client's target in `req.originalUrl`; Express also says its mount path (`req.baseUrl`).
 */
import type { ExpressRequest } from './express-request';
import { hostRouting, routingOf } from './host-routing';
import { targetPath } from '../router';

/**
 * Express knows its mount path (`req.baseUrl`, parent routers included). Connect, and chains
 * written like it, strip the mount path off `req.url` and keep the client's target in
 * `req.originalUrl`: the mount path is what was stripped. A bare server has none.
 */
export function mountPathOf(req: ExpressRequest): string {
  return readTarget(req).mountPath;
}

/**
 * The raw path the tree routes: `req.url`'s, as the host left it below the mount (and as a
 * rewrite of `req.url` by the app made it). `undefined` for a target that names no path, and for
 * one the host stripped more than the mount path off: Express 4 hands a tree mounted at `/v1` the
 * path `/ops` for `/v1//ops`, which a guard on `/v1/ops` never sees; such a request goes on to the
 * app, so that the tree serves only paths a guard on a prefix in front of it sees too.
 */
export function pathBelowMount(req: ExpressRequest): string | undefined {
  return readTarget(req).below;
}

/** The raw path of the client's target, as sent; `undefined` for a target that names no path. */
export function originalPath(req: ExpressRequest): string | undefined {
  return readTarget(req).original;
}

/**
 * The path below `mountPath` of a path that names it, or `undefined` when the path is not under it:
 * how a tree's sockets, which no host strips anything for, find the path the tree routes.
 */
function pathUnder(path: string, mountPath: string): string | undefined {
  if (mountPath === '') return path;
  if (path === mountPath) return '/';
  return path.startsWith(mountPath) && path.charCodeAt(mountPath.length) === 47 /* / */
    ? path.slice(mountPath.length)
    : undefined;
}

/** What a request's target says, worked out from `req.url`, `req.originalUrl` and `req.baseUrl` alone. */
interface Target {
  url: string | undefined;
  originalUrl: string | undefined;
  baseUrl: unknown;
  /** The raw path as the client sent it. */
  original: string | undefined;
  mountPath: string;
  /** Whether `mountPath` is where the host mounted the tree, rather than `''` for want of knowing. */
  mountPathKnown: boolean;
  /** The raw path the tree routes (see `pathBelowMount`). */
  below: string | undefined;
}

/**
 * Several readers ask in turn about one request (routing, the rewritten-path check, a trace, the
 * handler's `mountPath`): the last answer is kept, in place, so a target is parsed once and nothing
 * is allocated for it. Only the three strings it was read from are kept, not the request.
 */
const last: Target = {
  url: undefined,
  originalUrl: undefined,
  baseUrl: undefined,
  original: undefined,
  mountPath: '',
  mountPathKnown: false,
  below: undefined,
};

function readTarget(req: ExpressRequest): Target {
  const url = req.url ?? '/';
  const originalUrl = req.originalUrl;
  const baseUrl = req.baseUrl;
  if (url === last.url && originalUrl === last.originalUrl && baseUrl === last.baseUrl) return last;
  last.url = url;
  last.originalUrl = originalUrl;
  last.baseUrl = baseUrl;
  const path = targetPath(url);
  if (originalUrl === undefined || originalUrl === url) {
    last.original = path;
    last.mountPath = typeof baseUrl === 'string' ? baseUrl : '';
    last.mountPathKnown = true;
    last.below = path;
    return last;
  }
  const original = targetPath(originalUrl);
  const mountPath = typeof baseUrl === 'string' ? baseUrl : strippedPrefix(original, path);
  last.original = original;
  last.mountPath = mountPath;
  last.mountPathKnown = mountPath !== '' || typeof baseUrl === 'string';
  last.below = strippedASlashMore(original, mountPath, path) ? undefined : path;
  return last;
}

/** What a host stripped off the client's path to leave `below`: the mount path, by Connect's rule. */
function strippedPrefix(original: string | undefined, below: string | undefined): string {
  if (original === undefined || below === undefined) return '';
  // `/v1` and `/v1/` both reach a tree mounted at `/v1` as `/`.
  if (below === '/') return original.endsWith('/') ? original.slice(0, -1) : original;
  return original.endsWith(below) ? original.slice(0, original.length - below.length) : '';
}

/** Whether the client's path is the mount path, a slash, then `below`: the host stripped a slash more. */
function strippedASlashMore(
  original: string | undefined,
  mountPath: string,
  below: string | undefined,
): boolean {
  if (original === undefined || below === undefined || mountPath === '') return false;
  return (
    original.length === mountPath.length + 1 + below.length &&
    original.startsWith(mountPath) &&
    original.charCodeAt(mountPath.length) === 47 /* / */ &&
    original.endsWith(below)
  );
}

/**
 * The mount paths a tree's middleware has been reached under, which its sockets are looked for
 * under: an upgrade request never passes through the host's router, so nothing else tells a
 * socket where `app.use('/v1', endpoints)` put the tree. Each is compared as the app that routed
 * requests through it compares paths: an app that routes case-insensitively (Express's default)
 * reaches the tree by `/V1` as by `/v1`, and so does a socket; and it is noted once, however its
 * clients spell it.
 */
export class MountPaths {
  // Longest first: a socket's path under two of them (the tree mounted at `/` and at `/v1`) is
  // taken to be under the longer one.
  #known: NotedMountPath[] = [];

  /**
   * The mount paths noted so far; none until a request has reached the tree. A mount path with a
   * parameter (`/tenants/:id`) is noted once per value, for the first few only: no way to serve sockets.
   */
  get known(): readonly NotedMountPath[] {
    return this.#known;
  }

  /** Notes the request's mount path; nothing is allocated once it is known as spelled. */
  note(req: ExpressRequest): void {
    const target = readTarget(req);
    // Connect's target after an app rewrote `req.url` says nothing of where the tree is.
    if (!target.mountPathKnown) return;
    const known = this.#known;
    const mountPath = target.mountPath;
    for (let i = 0; i < known.length; i++) if (known[i]!.path === mountPath) return;
    // The prefix is the host's to match, by its apps' settings: the mount's own options are for the
    // tree's routes, and Connect matches a prefix in any case.
    const caseSensitive = hostRouting(req, LOOSE).caseSensitive === true;
    if (!caseSensitive) {
      for (let i = 0; i < known.length; i++) {
        if (!known[i]!.caseSensitive && sameIgnoringCase(known[i]!.path, mountPath)) return;
      }
    }
    if (known.length === MAX_MOUNT_PATHS) return;
    known.push({ path: mountPath, caseSensitive });
    known.sort((a, b) => b.path.length - a.path.length);
  }
}

/** A mount path as a request spelled it first, and whether the app that routed it there minds case. */
export interface NotedMountPath {
  readonly path: string;
  readonly caseSensitive: boolean;
}

/**
 * Where a path is under the first of `mountPaths` that names it: that mount path as the path spells
 * it, and the path below it. `undefined` when it is under none.
 */
export function splitAtMountPath(
  path: string,
  mountPaths: readonly NotedMountPath[],
): { mountPath: string; below: string } | undefined {
  for (const { path: mountPath, caseSensitive } of mountPaths) {
    const below = pathUnder(path, mountPath);
    if (below !== undefined) return { mountPath, below };
    if (caseSensitive) continue;
    const spelled = path.slice(0, mountPath.length);
    if (!sameIgnoringCase(spelled, mountPath)) continue;
    const belowSpelled = pathUnder(path, spelled);
    if (belowSpelled !== undefined) return { mountPath: spelled, below: belowSpelled };
  }
  return undefined;
}

const sameIgnoringCase = (a: string, b: string): boolean =>
  a.length === b.length && a.toLowerCase() === b.toLowerCase();

const LOOSE = routingOf(false, false);

/** Bounds what clients who spell a mount path many ways (or a parameter in it) can make a mount keep. */
const MAX_MOUNT_PATHS = 8;
