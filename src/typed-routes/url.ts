/**
 * `url('/api/users/[id]', { id })`: a route's URL from its pattern and params, for clients and
 * tests. Static folders are written in their canonical encoding (`café` -> `caf%C3%A9`), the
 * only form the router matches them in; each param is percent-encoded as one segment (`a/b`
 * becomes `a%2Fb`, which the router decodes back into one param), and `.` or `..` is refused;
 * catch-all arrays become one segment per item; an optional
 * catch-all without items adds nothing. Typed by the generated `RouteRegistry`, so a pattern
 * that is not a route, or a missing param, is a type error. Not development-only: clients use it.
 */
import { urlSegment } from '../router';
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
      // Static folders match their canonical encoding only (`café` -> `caf%C3%A9`).
      parts.push(urlSegment(segment));
      continue;
    }
    const name = (rest ?? single)![1]!;
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (rest) {
      const items = value === undefined ? [] : Array.isArray(value) ? value : [String(value)];
      if (items.length === 0 && !optional) throw new TypeError(`url(): ${pattern} needs params.${name}`);
      for (const item of items) parts.push(paramSegment(pattern, name, item));
    } else {
      if (value === undefined || value === '') throw new TypeError(`url(): ${pattern} needs params.${name}`);
      parts.push(paramSegment(pattern, name, value));
    }
  }
  return `/${parts.join('/')}`;
}

/**
 * One param as a path segment. `.` and `..` cannot be one: every URL parser resolves them away. Nor can an
 * empty one: `//` after the origin reads as another host (`//evil.example/x`), and the router drops it.
 */
function paramSegment(pattern: string, name: string, value: unknown): string {
  const text = String(value);
  if (text === '') throw new TypeError(`url(): params.${name} of ${pattern} cannot hold an empty segment`);
  if (text === '.' || text === '..') {
    throw new TypeError(
      `url(): params.${name} of ${pattern} cannot be "${text}": no URL can carry it as a path segment`,
    );
  }
  return encodeURIComponent(text);
}
