/**
 * The routing settings a request is matched with: the mount's own, made stricter by those of the
 * Express apps it came through.
 *
 * A guard in front of the tree (`app.use('/admin', requireLogin)`) matches its path with the app's
 * `case sensitive routing`; a route guard (`app.all('/admin', …)`) with its `strict routing` too.
 * Were the tree to match `/ADMIN/secret` or `/admin/` where such a guard does not, the guard would
 * be walked around. So the tree never compares more loosely than the app that hands it the request:
 * `req.app` (set by Express on every request, the innermost app when apps are mounted in apps) and
 * its parents are read per request, which also covers `app.use(mountEndpoints(…))`, a mount under a
 * prefix, and a setting changed after the mount.
 */
import type { IncomingMessage } from 'node:http';
import type { RouterOptions } from '../router';
import type { ExpressApp, ExpressRequest } from './express-request';

// The four possible answers, made once: a request allocates none.
const LOOSE: RouterOptions = Object.freeze({ caseSensitive: false, strict: false });
const CASE_SENSITIVE: RouterOptions = Object.freeze({ caseSensitive: true, strict: false });
const STRICT: RouterOptions = Object.freeze({ caseSensitive: false, strict: true });
const BOTH: RouterOptions = Object.freeze({ caseSensitive: true, strict: true });

/** The settings object for a pair of flags; the same object for the same pair. */
export function routingOf(caseSensitive: boolean, strict: boolean): RouterOptions {
  if (caseSensitive) return strict ? BOTH : CASE_SENSITIVE;
  return strict ? STRICT : LOOSE;
}

/** `floor` (the mount's options), turned on further by each Express app the request came through. */
export function hostRouting(req: IncomingMessage, floor: RouterOptions): RouterOptions {
  let caseSensitive = floor.caseSensitive === true;
  let strict = floor.strict === true;
  let app = (req as ExpressRequest).app;
  // Connect and node:http set no `req.app`: the mount's own options are all there is.
  while (app !== undefined && !(caseSensitive && strict)) {
    if (typeof app.enabled !== 'function') break;
    caseSensitive ||= app.enabled('case sensitive routing');
    strict ||= app.enabled('strict routing');
    app = isApp(app.parent) ? app.parent : undefined;
  }
  return routingOf(caseSensitive, strict);
}

function isApp(value: unknown): value is ExpressApp {
  return typeof value === 'function' && typeof (value as ExpressApp).enabled === 'function';
}
