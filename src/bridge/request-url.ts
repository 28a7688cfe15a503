/**
 * The URL a handler sees: the client's full URL. Protocol from Express's `req.protocol` (so
 * `trust proxy` holds), host from the Host header, path from `req.originalUrl` (so sub-path
 * mounts keep their prefix). Invalid hosts are reported, never thrown.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** What Express adds to the Node request, when Express is the host. */
interface ExpressLikeRequest extends IncomingMessage {
  protocol?: string;
  originalUrl?: string;
}

// reg-name / IPv4 / [IPv6], optional port. No userinfo, path, whitespace or control characters.
const VALID_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{0,5})?$/;

/** `undefined` when the Host header is present but cannot be a host. */
export function requestOrigin(req: ExpressLikeRequest): string | undefined {
  const host = req.headers.host;
  let authority: string;
  if (host === undefined || host === '') authority = 'localhost';
  else if (VALID_HOST.test(host)) authority = host;
  else return undefined;
  return `${requestProtocol(req)}://${authority}`;
}

function requestProtocol(req: ExpressLikeRequest): string {
  // Express's getter honours `trust proxy` and X-Forwarded-Proto.
  const protocol = req.protocol;
  if (typeof protocol === 'string') return protocol;
  return (req.socket as TLSSocket | undefined)?.encrypted ? 'https' : 'http';
}

/** The request target as the client sent it, before sub-path mounts stripped a prefix. */
export function originalTarget(req: ExpressLikeRequest): string {
  return req.originalUrl ?? req.url ?? '/';
}

/**
 * The path part of a request target, raw (still percent-encoded). Handles absolute-form
 * targets (`GET http://host/path`); `undefined` for targets that name no path (`*`).
 */
export function targetPath(target: string): string | undefined {
  let start = 0;
  if (target.charCodeAt(0) !== 47 /* / */) {
    const scheme = target.indexOf('://');
    if (scheme <= 0) return undefined;
    start = target.indexOf('/', scheme + 3);
    if (start === -1) return '/';
  }
  const query = target.indexOf('?', start);
  const hash = target.indexOf('#', start);
  let end = target.length;
  if (query !== -1) end = query;
  if (hash !== -1 && hash < end) end = hash;
  return start === 0 && end === target.length ? target : target.slice(start, end);
}

/** Full URL for the handler, or `undefined` when the host is invalid. */
export function requestUrl(req: ExpressLikeRequest): string | undefined {
  const target = originalTarget(req);
  if (target.charCodeAt(0) !== 47 /* / */) {
    // Absolute-form target: it names its own origin.
    return URL.canParse(target) ? target : undefined;
  }
  const origin = requestOrigin(req);
  return origin === undefined ? undefined : origin + target;
}
