/**
 * The URL a handler sees: the client's full URL. Protocol from Express's `req.protocol` (so
 * `trust proxy` holds), host from the Host header (HTTP/2's `:authority`), path from `req.originalUrl` (so sub-path
 * mounts keep their prefix). Invalid hosts are reported, never thrown.
 */
import type { TLSSocket } from 'node:tls';
import { absoluteForm, isRewrittenPath, targetPath } from '../router';
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

/**
 * The authority the request names, `localhost` when it names none, or `undefined` when what it
 * names cannot be a host or names two that disagree.
 */
function requestAuthority(req: ExpressRequest): string | undefined {
  const host = req.headers.host;
  // HTTP/2 carries the host in `:authority`, which Node's compatibility API passes on among the
  // headers. A request with both must give the same in each, or it is malformed (RFC 9113, section
  // 8.3.1): a guard reading Host and a handler reading `request.url` would see different hosts.
  const pseudo = req.headers[':authority'];
  if (typeof pseudo === 'string' && host !== undefined && host.toLowerCase() !== pseudo.toLowerCase()) {
    return undefined;
  }
  const authority = typeof pseudo === 'string' ? pseudo : host;
  if (authority === undefined || authority === '') return 'localhost';
  return isValidHost(authority) ? authority : undefined;
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
 * Full URL for the handler, or `undefined` when no one origin can be made of the request. The
 * scheme is the connection's (or Express's `req.protocol`), never the client's word in the request
 * line. Invariant, for every path the library lets through (`isRewrittenPath` is false):
 * `new URL(url).pathname` is the path of the target as sent, the one that was routed.
 */
export function requestUrl(req: ExpressRequest): string | undefined {
  const protocol = requestProtocol(req);
  const authority = requestAuthority(req);
  if (protocol === undefined || authority === undefined) return undefined;
  const target = originalTarget(req);
  if (target.charCodeAt(0) === 47 /* / */) return `${protocol}://${authority}${target}`;
  // With no Host (HTTP/1.0) or an empty one, the target alone names the host.
  return absoluteFormUrl(target, protocol, req.headers.host ? authority : undefined);
}

/**
 * An absolute-form target (`GET http://host/path`): its path and query, under the connection's
 * scheme. Its authority must be the one the Host header names: RFC 9112 (section 3.2.2) has the
 * target's win, but guards in front of the tree read Host, so two that disagree are refused rather
 * than let a guard and a handler see different hosts. Userinfo is refused too (RFC 9110, section
 * 4.2.4): it has no place in a request, and a Request cannot carry it.
 */
function absoluteFormUrl(target: string, protocol: string, host: string | undefined): string | undefined {
  const parts = absoluteForm(target);
  // The authority as sent must be a plain host: no userinfo, and no `\` the URL parser reads as `/`.
  if (parts === undefined || !isValidHost(parts.authority) || !URL.canParse(target)) return undefined;
  const url = new URL(target);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // Compared as the URL parser reads both, so case and a default port do not count as a difference.
  if (host !== undefined && new URL(`${url.protocol}//${host}/`).host !== url.host) return undefined;
  return `${protocol}://${host ?? parts.authority}${parts.rest}`;
}
