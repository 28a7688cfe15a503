/**
 * Method dispatch for one endpoint module, decided once at load time so a request costs one
 * property lookup:
 *   specific export > ANY > default;
 *   HEAD: HEAD > GET (body dropped) > ANY/default;
 *   OPTIONS: OPTIONS > ANY/default > automatic 204 with Allow;
 *   anything else: 405 with Allow.
 * A folder whose page serves GET leaves GET and HEAD to the host app, which renders the page; the
 * endpoint beside it answers the other methods (a contact form's POST).
 */
import type { EndpointHandler } from '../types';

import { HTTP_METHODS } from '../http-methods';

export interface HandlerEntry {
  handler: EndpointHandler;
  /** The export that serves it, for error messages (`GET`, `ANY`, `default`). */
  exportName: string;
  /**
   * False for a handler declared without parameters (`length` 0, decided once here):
   * it is called with none, and no Request is built for it.
   */
  takesArguments: boolean;
}

export type Dispatch =
  | { readonly kind: 'handler'; readonly entry: HandlerEntry }
  | { readonly kind: 'options'; readonly allow: string }
  | { readonly kind: 'not-allowed'; readonly allow: string }
  | { readonly kind: 'pass' };

export interface MethodTable {
  /** Handlers by method, HEAD already resolved. */
  byMethod: Record<string, HandlerEntry | undefined>;
  /** ANY or default, for methods without their own export. */
  fallback: HandlerEntry | undefined;
  /** The `Allow` header value. */
  allow: string;
  /** The decision for each standard method, made once: no allocation per request. */
  decisions: Record<string, Dispatch>;
  /** The decision for any other method (PROPFIND, …). */
  otherwise: Dispatch;
}

export function buildMethodTable(exports: Record<string, unknown>, pageServesGet = false): MethodTable {
  const entry = (name: string): HandlerEntry | undefined => {
    const value = exports[name];
    if (typeof value !== 'function') return undefined;
    const handler = value as EndpointHandler;
    return { handler, exportName: name, takesArguments: handler.length !== 0 };
  };
  const fallback = entry('ANY') ?? entry('default');
  const byMethod: Record<string, HandlerEntry | undefined> = Object.create(null);
  for (const method of HTTP_METHODS) {
    const own = entry(method);
    if (own) byMethod[method] = own;
  }
  byMethod.HEAD ??= byMethod.GET ?? fallback;
  if (pageServesGet) {
    delete byMethod.GET;
    delete byMethod.HEAD;
  }

  const served = fallback
    ? [...HTTP_METHODS]
    : [...HTTP_METHODS.filter((m) => byMethod[m]), ...(byMethod.OPTIONS ? [] : ['OPTIONS'])];
  const allow = served.filter((m) => !(pageServesGet && isGetOrHead(m))).join(', ');
  const otherwise: Dispatch = fallback
    ? { kind: 'handler', entry: fallback }
    : { kind: 'not-allowed', allow };
  const decisions: Record<string, Dispatch> = Object.create(null);
  for (const method of HTTP_METHODS) {
    const own = byMethod[method];
    if (own) decisions[method] = { kind: 'handler', entry: own };
    else if (pageServesGet && isGetOrHead(method)) decisions[method] = { kind: 'pass' };
    else if (method === 'OPTIONS' && !fallback) decisions[method] = { kind: 'options', allow };
    else decisions[method] = otherwise;
  }
  return { byMethod, fallback, allow, decisions, otherwise };
}

export function dispatch(table: MethodTable, method: string): Dispatch {
  return table.decisions[method] ?? table.otherwise;
}

function isGetOrHead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/**
 * What a file with these exports serves, as the route table lists it: its own methods in `Allow`
 * order (an exported GET brings HEAD; OPTIONS is always answered), then `ANY` for a catch-all
 * export. Pure, from export names alone: the CLI uses it before any module is loaded.
 */
export function methodsFor(exportNames: Iterable<string>, pageServesGet = false): string[] {
  const names = new Set(exportNames);
  const own = HTTP_METHODS.filter(
    (method) =>
      (names.has(method) || (method === 'HEAD' && names.has('GET'))) &&
      !(pageServesGet && isGetOrHead(method)),
  );
  if (names.has('ANY') || names.has('default')) return [...own, 'ANY'];
  return own.includes('OPTIONS') ? own : [...own, 'OPTIONS'];
}
