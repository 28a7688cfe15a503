/**
 * `url('/api/users/[id]', { id })`: a route's URL from its pattern and params, for clients and
 * tests. Each param is percent-encoded as one segment (`a/b` becomes `a%2Fb`, which the router
 * decodes back into one param); catch-all arrays become one segment per item; an optional
 * catch-all without items adds nothing. Typed by the generated `RouteRegistry`, so a pattern
 * that is not a route, or a missing param, is a type error. Not development-only: clients use it.
 */
import type { RoutePattern, UrlParams } from './route-types';

export function url<P extends RoutePattern>(pattern: P, ...[params]: UrlParams<P>): string {
  const values = (params ?? {}) as Record<string, string | readonly string[] | undefined>;
  const parts: string[] = [];
  for (const segment of pattern.split('/')) {
    if (segment === '') continue;
    const optional = /^\[\[\.\.\.(.+)\]\]$/.exec(segment);
    const rest = optional ?? /^\[\.\.\.(.+)\]$/.exec(segment);
    const single = rest ? null : /^\[(.+)\]$/.exec(segment);
    if (!rest && !single) {
      parts.push(segment);
      continue;
    }
    const name = (rest ?? single)![1]!;
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (rest) {
      const items = value === undefined ? [] : Array.isArray(value) ? value : [String(value)];
      if (items.length === 0 && !optional) throw new TypeError(`url(): ${pattern} needs params.${name}`);
      for (const item of items) parts.push(encodeURIComponent(String(item)));
    } else {
      if (value === undefined || value === '') throw new TypeError(`url(): ${pattern} needs params.${name}`);
      parts.push(encodeURIComponent(String(value)));
    }
  }
  return `/${parts.join('/')}`;
}
