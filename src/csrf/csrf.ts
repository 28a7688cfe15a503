/**
 * `csrf(options)`: a Web middleware that refuses a state-changing request a browser sent from another
 * site, by the headers browsers set and pages cannot: `Sec-Fetch-Site` (Fetch Metadata, sent by every
 * current browser) and, where a browser has none, `Origin`. No token, no cookie: the check the OWASP
 * cheat sheet and Hono's `csrf()` make (https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html#fetch-metadata-headers).
 *
 * GET, HEAD and OPTIONS pass (they must not change state); so does a request with neither header,
 * which no current browser sends: a server, a script, curl. Every other request passes when it comes
 * from the page's own origin, an origin in `origins`, or, with `sameSite`, a sibling subdomain.
 */
import { RequestRefusedError } from '../dispatch';
import type { EndpointContext, WebMiddleware } from '../types';

export interface CsrfOptions {
  /**
   * Origins besides the request's own whose pages may send state-changing requests, as browsers send them
   * (`'https://app.example.com'`), or a function that decides. Behind a proxy that rewrites Host, list your
   * public origin here: the request's own origin is the one its URL names.
   */
  origins?: readonly string[] | ((origin: string, request: Request) => boolean);
  /** Let in `Sec-Fetch-Site: same-site`: pages of the same registrable domain (`admin.example.com`). Default `false`. */
  sameSite?: boolean;
  /**
   * Routes that take cross-site requests on purpose (a payment provider's webhook, which sends no
   * Origin but may one day): route patterns as the folders spell them (`'/webhooks/stripe'`), or a
   * function of the request and its context.
   */
  exempt?: readonly string[] | ((request: Request, context: EndpointContext) => boolean);
}

/** A state-changing request from a page of another site: `403`, for the app's error handler. */
export class CrossSiteRequestError extends RequestRefusedError {
  constructor() {
    super({
      status: 403,
      code: 'CROSS_SITE_REQUEST',
      message: 'Forbidden: a cross-site request may not change state here',
    });
    this.name = 'CrossSiteRequestError';
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** Methods that only read: RFC 9110's safe methods, which a page may send anywhere. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

export function csrf(options: CsrfOptions = {}): WebMiddleware {
  const trusted = trustedOrigins(options.origins);
  const exempt = exemptRoutes(options.exempt);
  const sameSite = options.sameSite === true;
  return function csrf(request, next, context) {
    // `fetch` upper-cases only the methods it knows: a page can send `patch`.
    if (SAFE_METHODS.has(request.method.toUpperCase())) return next();
    if (context && exempt(request, context)) return next();
    if (!isAllowed(request, trusted, sameSite)) throw new CrossSiteRequestError();
    return next();
  };
}

function isAllowed(
  request: Request,
  trusted: (origin: string, request: Request) => boolean,
  sameSite: boolean,
) {
  const site = request.headers.get('sec-fetch-site');
  const origin = request.headers.get('origin');
  // `none`: the user's own doing (a bookmark, the address bar), never a page's.
  if (site === 'same-origin' || site === 'none') return true;
  if (site === 'same-site' && sameSite) return true;
  if (origin === null) {
    // A browser that sends Fetch Metadata sends Origin with every request but GET and HEAD: a cross-site
    // one without is no browser's. Neither header: not from a browser at all.
    return site === null;
  }
  // `null` is the origin of a sandboxed frame, a file, a redirect across sites: nobody's to trust.
  if (origin === 'null') return false;
  // The request's own origin, read off its URL as `new URL(url).origin` would give it, without parsing it.
  return request.url.startsWith(`${origin}/`) || trusted(origin, request);
}

function trustedOrigins(origins: CsrfOptions['origins']): (origin: string, request: Request) => boolean {
  if (typeof origins === 'function') return origins;
  const listed = new Set<string>();
  for (const origin of origins ?? []) {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new TypeError(
        `csrf({ origins }): "${origin}" is not an origin; write it as browsers send it: "https://app.example.com"`,
      );
    }
    if (parsed.origin !== origin) {
      throw new TypeError(
        `csrf({ origins }): "${origin}" is not an origin as browsers send it; write "${parsed.origin}"`,
      );
    }
    listed.add(origin);
  }
  return (origin) => listed.has(origin);
}

function exemptRoutes(
  exempt: CsrfOptions['exempt'],
): (request: Request, context: EndpointContext) => boolean {
  if (typeof exempt === 'function') return exempt;
  const routes = new Set(exempt ?? []);
  return (_request, context) => context.route !== undefined && routes.has(context.route);
}
