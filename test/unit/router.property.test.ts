/**
 * The route table against a reference matcher: random trees and random paths (most built from
 * the tree's own routes), and the trie must give the same value and params as a plain scan.
 *
 * The reference is deliberately naive: it tries every route on its own, and among the routes
 * that match it picks the best one by this ranking rule:
 *
 *   Compare two routes segment kind by segment kind, from the first position on. At the first
 *   position where they differ, the better kind wins, in this order:
 *     (route has ended) > static > [x] > [...x] > [[...x]]
 *   ("ended" can only meet `[[...x]]` taking zero segments, since both match the same path.)
 *   Routes with equal kind sequences that both match have the same shape: the first given wins.
 *
 * Path rules, also restated here: split the raw path at `/`, drop one trailing slash unless
 * strict, any empty segment means no match; a static segment matches the folder name as
 * `new URL()` would write it in a path (letter case folded unless case-sensitive), never a
 * decoding of it; what a param or catch-all takes is percent-decoded, and a malformed one makes
 * the match `MALFORMED_PATH` (no match stays `null`).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { Segment } from '../../src/discover/types';
import { createRouter, MALFORMED_PATH, type RouteEntry, type RouterOptions } from '../../src/router';

const STATICS = ['a', 'b', 'B', 'c', 'é', '__proto__'];
const NAMES = ['p', 'q', 'constructor', '__proto__'];
/** Raw path segments a param or catch-all may meet: plain, encoded, odd case, malformed. */
const VALUES = ['a', 'b', 'B', 'z', 'a%2Fb', '%20', '%C3%A9', '%61', '%zz', '%E0%A4%A', 'c'];

const segmentArb: fc.Arbitrary<Segment> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...STATICS).map((value): Segment => ({ kind: 'static', value })) },
  { weight: 2, arbitrary: fc.constantFrom(...NAMES).map((name): Segment => ({ kind: 'param', name })) },
);
const lastSegmentArb: fc.Arbitrary<Segment> = fc.oneof(
  { weight: 4, arbitrary: segmentArb },
  { weight: 1, arbitrary: fc.constantFrom(...NAMES).map((name): Segment => ({ kind: 'catchAll', name })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...NAMES).map((name): Segment => ({ kind: 'optionalCatchAll', name })),
  },
);
/** A valid route: catch-alls only last. */
const routeArb: fc.Arbitrary<Segment[]> = fc.oneof(
  fc.constant<Segment[]>([]),
  fc.tuple(fc.array(segmentArb, { maxLength: 3 }), lastSegmentArb).map(([head, last]) => [...head, last]),
);
const optionsArb: fc.Arbitrary<RouterOptions> = fc.record({
  caseSensitive: fc.boolean(),
  strict: fc.boolean(),
});

/** Raw path segments that would spell one route segment. */
function spell(segment: Segment): fc.Arbitrary<string[]> {
  switch (segment.kind) {
    case 'static':
      return fc.constantFrom(
        [segment.value],
        [segment.value.toUpperCase()],
        [encodeURIComponent(segment.value)],
        [encodeURIComponent(segment.value).toLowerCase()],
        // Every character percent-encoded: `a` -> `%61`.
        [[...Buffer.from(segment.value)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')],
      );
    case 'param':
      return fc.constantFrom(...VALUES).map((value) => [value]);
    case 'catchAll':
      return fc.array(fc.constantFrom(...VALUES), { minLength: 1, maxLength: 3 });
    case 'optionalCatchAll':
      return fc.array(fc.constantFrom(...VALUES), { maxLength: 3 });
  }
}

/** A path built from one of the routes, then maybe bent: a segment more or less, a slash more. */
function pathFromRoute(route: Segment[]): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.tuple(...route.map(spell)).map((parts) => parts.flat()),
      fc.constantFrom('none', 'none', 'none', 'append', 'drop', 'trailing', 'empty'),
      fc.constantFrom(...VALUES),
    )
    .map(([parts, bend, extra]) => {
      if (bend === 'append') parts.push(extra);
      if (bend === 'drop') parts.pop();
      if (bend === 'empty') parts.splice(parts.length >> 1, 0, '');
      const path = `/${parts.join('/')}`;
      return bend === 'trailing' && path !== '/' ? `${path}/` : path;
    });
}

const randomPathArb: fc.Arbitrary<string> = fc
  .tuple(fc.array(fc.constantFrom(...STATICS, ...VALUES, ''), { maxLength: 5 }), fc.boolean())
  .map(([parts, trailing]) => `/${parts.join('/')}${trailing && parts.length > 0 ? '/' : ''}`);

const caseArb = fc
  .record({ routes: fc.array(routeArb, { maxLength: 12 }), options: optionsArb })
  .chain((tree) =>
    fc.record({
      routes: fc.constant(tree.routes),
      options: fc.constant(tree.options),
      path:
        tree.routes.length === 0
          ? randomPathArb
          : fc.oneof(
              { weight: 4, arbitrary: fc.constantFrom(...tree.routes).chain(pathFromRoute) },
              { weight: 1, arbitrary: randomPathArb },
            ),
    }),
  );

// ---------------------------------------------------------------------------------------------
// The reference matcher.

const RANK: Record<Segment['kind'] | 'end', number> = {
  end: 0,
  static: 1,
  param: 2,
  catchAll: 3,
  optionalCatchAll: 4,
};

function compareRoutes(a: Segment[], b: Segment[]): number {
  for (let k = 0; k < Math.max(a.length, b.length); k++) {
    const diff = RANK[a[k]?.kind ?? 'end'] - RANK[b[k]?.kind ?? 'end'];
    if (diff !== 0) return diff;
  }
  return 0;
}

/** Set on a reference match whose captured segments include one that does not decode. */
const MALFORMED_KEY = Symbol('malformed');

/** Params of `route` for raw path `parts`, or null when it does not match. */
function matchOne(
  route: Segment[],
  parts: string[],
  caseSensitive: boolean,
): Record<string | symbol, unknown> | null {
  // No prototype, so a `__proto__` param is an own key here too.
  const params = Object.create(null) as Record<string | symbol, unknown>;
  const decode = (part: string): string => {
    try {
      return decodeURIComponent(part);
    } catch {
      params[MALFORMED_KEY] = true;
      return part;
    }
  };
  for (let k = 0; k < route.length; k++) {
    const segment = route[k]!;
    if (segment.kind === 'optionalCatchAll') {
      if (parts.length > k) params[segment.name] = parts.slice(k).map(decode);
      return params;
    }
    if (k >= parts.length) return null;
    if (segment.kind === 'catchAll') {
      params[segment.name] = parts.slice(k).map(decode);
      return params;
    }
    if (segment.kind === 'param') {
      params[segment.name] = decode(parts[k]!);
    } else {
      const encoded = new URL(`http://h/${segment.value}`).pathname.slice(1);
      const same = caseSensitive ? parts[k] === encoded : parts[k]!.toLowerCase() === encoded.toLowerCase();
      if (!same) return null;
    }
  }
  return parts.length === route.length ? params : null;
}

type Outcome = null | 'malformed' | { value: number; params: Record<string, unknown> };

function referenceMatch(routes: Segment[][], options: RouterOptions, rawPath: string): Outcome {
  let path = rawPath;
  if (!options.strict && path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const parts = path === '/' ? [] : path.slice(1).split('/');
  if (parts.includes('')) return null;

  let best: { index: number; params: Record<string | symbol, unknown> } | null = null;
  for (const [index, route] of routes.entries()) {
    const params = matchOne(route, parts, options.caseSensitive === true);
    // Strictly better only: among equals, the first given stays.
    if (params !== null && (best === null || compareRoutes(route, routes[best.index]!) < 0)) {
      best = { index, params };
    }
  }
  if (best === null) return null;
  const { index, params } = best;
  if (params[MALFORMED_KEY]) return 'malformed';
  return { value: index, params: { ...params } };
}

function routerOutcome(routes: Segment[][], options: RouterOptions, path: string): Outcome {
  const entries: RouteEntry<number>[] = routes.map((segments, value) => ({ segments, value }));
  const found = createRouter(entries, options).match(path);
  if (found === null) return null;
  if (found === MALFORMED_PATH) return 'malformed';
  expect(Object.getPrototypeOf(found.params)).to.equal(null);
  return { value: found.value, params: { ...found.params } };
}

describe('router (property: trie = reference scan)', () => {
  it('gives the reference answer for random trees and paths', () => {
    fc.assert(
      fc.property(caseArb, ({ routes, options, path }) => {
        expect(routerOutcome(routes, options, path)).to.deep.equal(referenceMatch(routes, options, path));
      }),
      { numRuns: 1000 },
    );
  });

  it('does not depend on the order routes are given in, up to same-shape duplicates', () => {
    fc.assert(
      fc.property(caseArb, ({ routes, options, path }) => {
        const shapeOf = (route: Segment[]) =>
          route
            .map((s) =>
              s.kind !== 'static' ? s.kind : options.caseSensitive ? s.value : s.value.toLowerCase(),
            )
            .join('/');
        const shapes = new Set(routes.map(shapeOf));
        fc.pre(shapes.size === routes.length);
        const reversed = [...routes].reverse();
        const forward = routerOutcome(routes, options, path);
        const backward = routerOutcome(reversed, options, path);
        if (forward === null || forward === 'malformed' || backward === null || backward === 'malformed') {
          expect(backward).to.equal(forward);
        } else {
          expect(routes.length - 1 - backward.value).to.equal(forward.value);
          expect(backward.params).to.deep.equal(forward.params);
        }
      }),
      { numRuns: 500 },
    );
  });
});
