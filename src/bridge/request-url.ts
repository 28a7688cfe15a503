/**
 * The URL a handler sees: the client's full URL. Protocol from Express's `req.protocol` (so
 * `trust proxy` holds), host from the Host header (HTTP/2's `:authority`), path from `req.originalUrl` (so sub-path
 * mounts keep their prefix). Invalid hosts are reported, never thrown.
 */
import type { TLSSocket } from 'node:tls';
import { isRewrittenPath, targetPath } from '../router';
import type { ExpressRequest } from './express-request';
import { originalPath } from './mount-path';

export { targetPath };

// reg-name / IPv4 / [IPv6], optional port. No userinfo, path, whitespace or control characters.
const VALID_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{0,5})?$/;

// Hosts already found valid: a server sees a handful, and the URL parser is the costly part of
// the check. Bounded, so clients sending many names cannot grow it.
const validHosts = new Set<string>();
const MAX_REMEMBERED_HOSTS = 256;

function isValidHost(host: string): boolean {
  if (validHosts.has(host)) return true;
  // The regex turns most garbage away cheaply; the URL parser, which handlers will run on
  // `request.url`, has the last word (ports over 65535, `%` escapes, `foo.123`, bad IPv6).
  if (!VALID_HOST.test(host) || !URL.canParse(`http://${host}/`)) return false;
  if (validHosts.size < MAX_REMEMBERED_HOSTS) validHosts.add(host);
  return true;
}

/** `undefined` when the Host header is present but cannot be a host, or the protocol is not http(s). */
function requestOrigin(req: ExpressRequest): string | undefined {
  // HTTP/2 carries the host in `:authority`, which a client must send in place of Host (RFC 9113,
  // section 8.3.1); Node's compatibility API passes it on among the headers.
  const pseudo = req.headers[':authority'];
  const host = typeof pseudo === 'string' ? pseudo : req.headers.host;
  let authority: string;
  if (host === undefined || host === '') authority = 'localhost';
  else if (isValidHost(host)) authority = host;
  else return undefined;
  const protocol = requestProtocol(req);
  return protocol === undefined ? undefined : `${protocol}://${authority}`;
}

function requestProtocol(req: ExpressRequest): string | undefined {
  // Express's getter honours `trust proxy` and X-Forwarded-Proto.
  const protocol = req.protocol;
  if (typeof protocol === 'string') {
    if (protocol === 'http' || protocol === 'https') return protocol;
    // Under `trust proxy`, X-Forwarded-Proto arrives as sent: only http(s) makes a URL of ours.
    const lower = protocol.toLowerCase();
    return lower === 'http' || lower === 'https' ? lower : undefined;
  }
  return (req.socket as TLSSocket | undefined)?.encrypted ? 'https' : 'http';
}

/** The request target as the client sent it, before sub-path mounts stripped a prefix. */
export function originalTarget(req: ExpressRequest): string {
  return req.originalUrl ?? req.url ?? '/';
}

/** Whether the client's target, as sent, has a path the URL parser would rewrite. */
export function hasRewrittenPath(req: ExpressRequest): boolean {
  return isRewrittenPath(originalPath(req) ?? '/');
}

/**
 * Full URL for the handler, or `undefined` when the host is invalid. Invariant, for every path
 * the library lets through (`isRewrittenPath` is false): `new URL(url).pathname` is the path of
 * the target as sent, the one that was routed.
 */
export function requestUrl(req: ExpressRequest): string | undefined {
  const target = originalTarget(req);
  if (target.charCodeAt(0) !== 47 /* / */) {
    // Absolute-form target: it names its own origin.
    return URL.canParse(target) ? target : undefined;
  }
  const origin = requestOrigin(req);
  return origin === undefined ? undefined : origin + target;
}
