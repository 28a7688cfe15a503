/**
 * Method dispatch for one endpoint module, decided once at load time so a request costs one
 * property lookup:
 *   specific export > ANY > default;
 *   HEAD: HEAD > GET (body dropped) > ANY/default;
 *   OPTIONS: OPTIONS > ANY/default > automatic 204 with Allow;
 *   anything else: 405 with Allow.
 * A folder whose page serves GET leaves GET and HEAD to the host app (spec rule 5).
 */
import type { EndpointHandler } from '../types';

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const HANDLER_EXPORTS = [...HTTP_METHODS, 'ANY', 'default'] as const;

export interface HandlerEntry {
  handler: EndpointHandler;
  /** The export that serves it, for error messages (`GET`, `ANY`, `default`). */
  exportName: string;
  /** HEAD served by a GET/ANY handler: send headers only. */
  head: boolean;
}

export interface MethodTable {
  /** Handlers by method, HEAD and OPTIONS already resolved. */
  byMethod: Record<string, HandlerEntry | undefined>;
  /** ANY or default, for methods without their own export. */
  fallback: HandlerEntry | undefined;
  /** The `Allow` header value. */
  allow: string;
  /** GET/HEAD belong to a page in the host app: pass them on. */
  pageServesGet: boolean;
}

export type Dispatch =
  | { kind: 'handler'; entry: HandlerEntry }
  | { kind: 'options'; allow: string }
  | { kind: 'not-allowed'; allow: string }
  | { kind: 'pass' };

export function buildMethodTable(exports: Record<string, unknown>, pageServesGet = false): MethodTable {
  const entry = (name: string, head = false): HandlerEntry | undefined => {
    const value = exports[name];
    return typeof value === 'function'
      ? { handler: value as EndpointHandler, exportName: name, head }
      : undefined;
  };
  const fallback = entry('ANY') ?? entry('default');
  const byMethod: Record<string, HandlerEntry | undefined> = Object.create(null);
  for (const method of HTTP_METHODS) {
    const own = entry(method);
    if (own) byMethod[method] = own;
  }
  if (!byMethod.HEAD) {
    const get = entry('GET', true) ?? (fallback && { ...fallback, head: true });
    if (get) byMethod.HEAD = get;
  }
  if (pageServesGet) {
    delete byMethod.GET;
    delete byMethod.HEAD;
  }

  const served = fallback
    ? [...HTTP_METHODS]
    : [...HTTP_METHODS.filter((m) => byMethod[m]), ...(byMethod.OPTIONS ? [] : ['OPTIONS'])];
  return {
    byMethod,
    fallback,
    allow: served.filter((m) => !(pageServesGet && (m === 'GET' || m === 'HEAD'))).join(', '),
    pageServesGet,
  };
}

export function dispatch(table: MethodTable, method: string): Dispatch {
  const own = table.byMethod[method];
  if (own) return { kind: 'handler', entry: own };
  if (table.pageServesGet && (method === 'GET' || method === 'HEAD')) return { kind: 'pass' };
  if (table.fallback) return { kind: 'handler', entry: table.fallback };
  if (method === 'OPTIONS') return { kind: 'options', allow: table.allow };
  return { kind: 'not-allowed', allow: table.allow };
}
