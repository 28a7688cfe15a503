/**
 * Which browser pages may open the tree's WebSockets. A browser attaches the user's cookies to a
 * WebSocket handshake whatever page starts it, and neither the same-origin policy nor CORS applies
 * to WebSockets: without a check, any site the user visits could open a socket in their name
 * (cross-site WebSocket hijacking). Browsers always send `Origin` on a handshake, and a page cannot
 * change it, so the handshake is refused (403) when its Origin is not the server's own host, nor
 * one of the origins the app allows.
 *
 * A handshake without `Origin` is not a browser's: `ws` in Node, curl, a mobile app. It carries
 * only the credentials its client chose to send, so it is let through, as Gorilla's and Phoenix's
 * default checks do; the route's own guard decides about it.
 */

/** `attach`'s `allowedOrigins`, checked: `'*'`, or the origins in their serialized form. */
export type AllowedOrigins = '*' | ReadonlySet<string>;

export function checkedOrigins(allowed: readonly string[] | '*' | undefined): AllowedOrigins {
  if (allowed === undefined) return new Set();
  if (allowed === '*') return '*';
  if (!Array.isArray(allowed)) {
    throw new TypeError(
      "attach(server, { allowedOrigins }): give an array of origins, e.g. ['https://app.example.com'], or '*' for any",
    );
  }
  return new Set(allowed.map(checkedOrigin));
}

function checkedOrigin(entry: unknown): string {
  const url = typeof entry === 'string' && URL.canParse(entry) ? new URL(entry) : undefined;
  // An origin is a scheme, a host and a port: `https://app.example.com:8443`, nothing more.
  if (!url || url.origin === 'null' || url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new TypeError(
      `attach(server, { allowedOrigins }): ${JSON.stringify(entry)} is not an origin; write it as a browser sends it, e.g. 'https://app.example.com'`,
    );
  }
  return url.origin;
}

/**
 * Whether a handshake with these `Origin` and `Host` headers may open a socket: no Origin, an
 * Origin of the Host the request was sent to (its port too, the scheme's default made explicit),
 * or an allowed one. An Origin that is not a URL (`null`, from sandboxed frames and files) is
 * refused unless any is allowed.
 */
export function isAllowedOrigin(
  origin: string | undefined,
  host: string | undefined,
  allowed: AllowedOrigins,
): boolean {
  if (origin === undefined || allowed === '*') return true;
  if (!URL.canParse(origin)) return false;
  const parsed = new URL(origin);
  if (parsed.origin === 'null') return false;
  if (allowed.has(parsed.origin)) return true;
  if (!host) return false;
  const target = `${parsed.protocol}//${host}`;
  return URL.canParse(target) && new URL(target).host === parsed.host;
}
