/** The route table: precedence, backtracking, decoding, trailing slashes, letter case, odd names. */
import { expect } from 'chai';
import type { Segment } from '../../src/discover/types';
import { createRouter, MALFORMED_PATH, type RouteEntry, type RouterOptions } from '../../src/router';

/** `/users/[id]/[...rest]` -> segments. The router's own input comes from discovery; this is enough here. */
function segmentsOf(pattern: string): Segment[] {
  return pattern
    .split('/')
    .filter((folder) => folder !== '')
    .map((folder): Segment => {
      if (folder.startsWith('[[...')) return { kind: 'optionalCatchAll', name: folder.slice(5, -2) };
      if (folder.startsWith('[...')) return { kind: 'catchAll', name: folder.slice(4, -1) };
      if (folder.startsWith('[')) return { kind: 'param', name: folder.slice(1, -1) };
      return { kind: 'static', value: folder };
    });
}

/** A router whose values are the patterns themselves, so a match says which route won. */
function routerOf(patterns: string[], options?: RouterOptions) {
  const entries: RouteEntry<string>[] = patterns.map((p) => ({ segments: segmentsOf(p), value: p }));
  return createRouter(entries, options);
}

/** What a match looks like in the tables: `null`, `'malformed'`, or `[route, params]`. */
type Expected = null | 'malformed' | [string, Record<string, string | string[]>];

function outcome(router: ReturnType<typeof routerOf>, path: string): Expected {
  const found = router.match(path);
  if (found === null) return null;
  if (found === MALFORMED_PATH) return 'malformed';
  return [found.value, { ...found.params }];
}

function table(routes: string[], cases: [string, Expected][], options?: RouterOptions) {
  const router = routerOf(routes, options);
  for (const [path, expected] of cases) {
    it(`${path} -> ${JSON.stringify(expected)}`, () => {
      expect(outcome(router, path)).to.deep.equal(expected);
    });
  }
  // Precedence must not depend on the order the routes were given in.
  it('gives the same answers with the routes in reverse order', () => {
    const reversed = routerOf([...routes].reverse(), options);
    for (const [path, expected] of cases) expect(outcome(reversed, path), path).to.deep.equal(expected);
  });
}

describe('router', () => {
  describe('precedence: static > [x] > [...x] > [[...x]]', () => {
    table(
      ['/a/b', '/a/[x]', '/a/[...rest]', '/a/[[...opt]]'],
      [
        ['/a/b', ['/a/b', {}]],
        ['/a/c', ['/a/[x]', { x: 'c' }]],
        ['/a/c/d', ['/a/[...rest]', { rest: ['c', 'd'] }]],
        ['/a/b/d', ['/a/[...rest]', { rest: ['b', 'd'] }]],
        ['/a', ['/a/[[...opt]]', {}]],
      ],
    );
    describe('without the catch-all, the optional catch-all takes one or more', () => {
      table(
        ['/a/b', '/a/[x]', '/a/[[...opt]]'],
        [
          ['/a/c/d', ['/a/[[...opt]]', { opt: ['c', 'd'] }]],
          ['/a/c', ['/a/[x]', { x: 'c' }]],
        ],
      );
    });
    describe('a route ending at a depth beats an optional catch-all taking nothing there', () => {
      table(
        ['/a', '/a/[[...opt]]'],
        [
          ['/a', ['/a', {}]],
          ['/a/x', ['/a/[[...opt]]', { opt: ['x'] }]],
        ],
      );
    });
    describe('the classic: /users/new beside /users/[id]', () => {
      table(
        ['/users/new', '/users/[id]', '/users'],
        [
          ['/users/new', ['/users/new', {}]],
          ['/users/42', ['/users/[id]', { id: '42' }]],
          ['/users', ['/users', {}]],
          ['/users/42/x', null],
        ],
      );
    });
  });

  describe('backtracking', () => {
    table(
      ['/a/[x]/c', '/a/b/[y]'],
      [
        ['/a/b/c', ['/a/b/[y]', { y: 'c' }]],
        ['/a/b/d', ['/a/b/[y]', { y: 'd' }]],
        ['/a/z/c', ['/a/[x]/c', { x: 'z' }]],
        ['/a/z/d', null],
      ],
    );
    describe('falls back from a static branch that fails deeper', () => {
      table(
        ['/a/b/c', '/a/[x]/d', '/[...all]'],
        [
          ['/a/b/d', ['/a/[x]/d', { x: 'b' }]],
          ['/a/b/c', ['/a/b/c', {}]],
          ['/a/b/e', ['/[...all]', { all: ['a', 'b', 'e'] }]],
          ['/a/b', ['/[...all]', { all: ['a', 'b'] }]],
        ],
      );
    });
    describe('falls back to a catch-all higher up', () => {
      table(
        ['/docs/[slug]/edit', '/docs/[[...path]]'],
        [
          ['/docs/intro/edit', ['/docs/[slug]/edit', { slug: 'intro' }]],
          ['/docs/intro/view', ['/docs/[[...path]]', { path: ['intro', 'view'] }]],
          ['/docs/intro', ['/docs/[[...path]]', { path: ['intro'] }]],
        ],
      );
    });
    describe('param names may differ between routes at one depth', () => {
      table(
        ['/a/[x]/b', '/a/[y]/c'],
        [
          ['/a/1/b', ['/a/[x]/b', { x: '1' }]],
          ['/a/1/c', ['/a/[y]/c', { y: '1' }]],
        ],
      );
    });
  });

  describe('catch-alls', () => {
    table(
      ['/files/[...path]', '/docs/[[...path]]'],
      [
        ['/files', null],
        ['/files/a', ['/files/[...path]', { path: ['a'] }]],
        ['/files/a/b/c', ['/files/[...path]', { path: ['a', 'b', 'c'] }]],
        ['/docs', ['/docs/[[...path]]', {}]],
        ['/docs/', ['/docs/[[...path]]', {}]],
        ['/docs/a/b', ['/docs/[[...path]]', { path: ['a', 'b'] }]],
      ],
    );
    it('leaves an optional catch-all that took nothing absent, not undefined or []', () => {
      const found = routerOf(['/docs/[[...path]]']).match('/docs');
      if (found === null || found === MALFORMED_PATH) throw new Error('no match');
      expect(Object.keys(found.params)).to.deep.equal([]);
      expect('path' in found.params).to.equal(false);
    });
    it('gives each match its own arrays', () => {
      const router = routerOf(['/[...all]']);
      const first = router.match('/a/b');
      const second = router.match('/a/b');
      if (!first || first === MALFORMED_PATH || !second || second === MALFORMED_PATH)
        throw new Error('no match');
      expect(first.params.all).to.not.equal(second.params.all);
    });
    describe('a root optional catch-all takes every path, the root included', () => {
      table(
        ['/[[...all]]'],
        [
          ['/', ['/[[...all]]', {}]],
          ['/a', ['/[[...all]]', { all: ['a'] }]],
        ],
      );
    });
  });

  describe('static segments match the path as sent, never its decoding', () => {
    // A guard on `/admin` in front of the tree sees the raw path; so does the tree.
    table(
      ['/admin/secret', '/api/health', '/files/[name]'],
      [
        ['/admin/secret', ['/admin/secret', {}]],
        ['/ADMIN/Secret', ['/admin/secret', {}]],
        ['/%61dmin/secret', null],
        ['/%41DMIN/secret', null],
        ['/%2561dmin/secret', null],
        ['/admin/%73ecret', null],
        ['/admin%2Fsecret', null],
        ['/api/%68ealth', null],
        ['/api/%68ealth/', null],
        ['/admin;x=1/secret', null],
        ['/ａdmin/secret', null],
        ['/%EF%BD%81dmin/secret', null],
        // Overlong UTF-8 for `a` is no `a`, and no valid param either.
        ['/%C1%A1dmin/secret', null],
        ['/files/%C1%A1', 'malformed'],
        ['/files/%61', ['/files/[name]', { name: 'a' }]],
      ],
    );
    table(
      ['/admin/secret'],
      [
        ['/admin/secret', ['/admin/secret', {}]],
        ['/ADMIN/secret', null],
        ['/%61dmin/secret', null],
      ],
      { caseSensitive: true },
    );
  });

  describe('percent-decoding', () => {
    table(
      ['/p/[x]', '/c/[...rest]', '/café', '/a b/static'],
      [
        ['/p/a%2Fb', ['/p/[x]', { x: 'a/b' }]],
        ['/p/a%2fb', ['/p/[x]', { x: 'a/b' }]],
        ['/p/hello%20world', ['/p/[x]', { x: 'hello world' }]],
        ['/p/%E2%9C%93', ['/p/[x]', { x: '✓' }]],
        ['/p/%25', ['/p/[x]', { x: '%' }]],
        ['/p/a+b', ['/p/[x]', { x: 'a+b' }]],
        ['/p/caf%C3%A9', ['/p/[x]', { x: 'café' }]],
        ['/c/a%2Fb/c%20d', ['/c/[...rest]', { rest: ['a/b', 'c d'] }]],
        // A static folder matches its canonical encoding, the form browsers send, and no other.
        ['/caf%C3%A9', ['/café', {}]],
        ['/CAF%C3%A9', ['/café', {}]],
        ['/caf%c3%a9', ['/café', {}]],
        ['/café', null],
        ['/CAF%C3%89', null],
        ['/a%20b/static', ['/a b/static', {}]],
        ['/a b/static', null],
        ['/a+b/static', null],
        ['/%63af%C3%A9', null],
        // Splitting happens before decoding: an encoded slash is no separator.
        ['/p%2Fx', null],
        ['/p/%zz', 'malformed'],
        ['/p/%', 'malformed'],
        ['/p/%E0%A4%A', 'malformed'],
        ['/p/%C3', 'malformed'],
        ['/c/ok/%zz', 'malformed'],
        ['/%zz/x', null],
        ['/p/%zz/more', null],
        ['/nothing/%zz', null],
      ],
    );
  });

  describe('trailing slash, non-strict (default)', () => {
    table(
      ['/', '/a', '/a/[x]'],
      [
        ['/', ['/', {}]],
        ['/a', ['/a', {}]],
        ['/a/', ['/a', {}]],
        ['/a//', null],
        ['/a/1/', ['/a/[x]', { x: '1' }]],
        // The root plus one ignored trailing slash.
        ['//', ['/', {}]],
      ],
    );
  });

  describe('trailing slash, strict', () => {
    table(
      ['/', '/a', '/a/[x]', '/o/[[...rest]]'],
      [
        ['/', ['/', {}]],
        ['//', null],
        ['/a', ['/a', {}]],
        ['/a/', null],
        ['/a/1/', null],
        ['/o', ['/o/[[...rest]]', {}]],
        ['/o/', null],
        ['/o/x/', null],
      ],
      { strict: true },
    );
  });

  describe('empty segments match nothing, not even catch-alls', () => {
    table(
      ['/a/b', '/a/[x]/b', '/c/[...rest]', '/[[...all]]'],
      [
        ['/a//b', null],
        ['//a/b', null],
        ['/c/x//y', null],
        ['/c//', null],
      ],
    );
  });

  describe('letter case, insensitive (default)', () => {
    table(
      ['/Users/[id]', '/api/v1'],
      [
        ['/users/AbC', ['/Users/[id]', { id: 'AbC' }]],
        ['/USERS/AbC', ['/Users/[id]', { id: 'AbC' }]],
        ['/Users/x', ['/Users/[id]', { id: 'x' }]],
        ['/API/V1', ['/api/v1', {}]],
      ],
    );
  });

  describe('letter case, sensitive', () => {
    table(
      ['/Users/[id]', '/api/v1'],
      [
        ['/Users/AbC', ['/Users/[id]', { id: 'AbC' }]],
        ['/users/AbC', null],
        ['/api/v1', ['/api/v1', {}]],
        ['/API/v1', null],
      ],
      { caseSensitive: true },
    );
  });

  describe("settings given per match (the host's) replace the router's own", () => {
    const match = (router: ReturnType<typeof routerOf>, path: string, routing: RouterOptions) => {
      const found = router.match(path, routing);
      return found === null || found === MALFORMED_PATH ? found : found.value;
    };

    it('a case-insensitive router matches case-sensitively when asked, folders in capitals included', () => {
      const router = routerOf(['/Users/[id]', '/api/v1']);
      expect(match(router, '/users/1', { caseSensitive: true })).to.equal(null);
      expect(match(router, '/Users/1', { caseSensitive: true })).to.equal('/Users/[id]');
      expect(match(router, '/API/v1', { caseSensitive: true })).to.equal(null);
      expect(match(router, '/api/v1', { caseSensitive: true })).to.equal('/api/v1');
      // Its own setting is untouched by the other's trie.
      expect(match(router, '/USERS/1', {})).to.equal('/Users/[id]');
      expect(outcome(router, '/API/V1')).to.deep.equal(['/api/v1', {}]);
    });

    it('a case-sensitive router matches any letter case when asked', () => {
      const router = routerOf(['/Users/[id]'], { caseSensitive: true });
      expect(match(router, '/USERS/1', { caseSensitive: false })).to.equal('/Users/[id]');
      expect(outcome(router, '/USERS/1')).to.equal(null);
    });

    it('strict per match', () => {
      const router = routerOf(['/a']);
      expect(match(router, '/a/', { strict: true })).to.equal(null);
      expect(match(router, '/a/', {})).to.equal('/a');
    });
  });

  describe('root route', () => {
    table(
      ['/'],
      [
        ['/', ['/', {}]],
        ['/a', null],
        ['', null],
        ['*', null],
      ],
    );
    it('an empty table matches nothing', () => {
      const router = createRouter<string>([]);
      expect(router.match('/')).to.equal(null);
      expect(router.match('/a')).to.equal(null);
    });
  });

  describe('folder names that are Object.prototype keys', () => {
    table(
      ['/a/[__proto__]', '/b/[constructor]', '/c/[...hasOwnProperty]', '/toString', '/__proto__/x'],
      [
        // JSON.parse makes `__proto__` an own key, where a `{ __proto__: … }` literal would not.
        ['/a/polluted', ['/a/[__proto__]', JSON.parse('{"__proto__":"polluted"}') as Record<string, string>]],
        ['/b/x', ['/b/[constructor]', { constructor: 'x' }]],
        ['/c/x/y', ['/c/[...hasOwnProperty]', { hasOwnProperty: ['x', 'y'] }]],
        ['/toString', ['/toString', {}]],
        ['/__proto__/x', ['/__proto__/x', {}]],
        ['/valueOf', null],
        ['/constructor', null],
      ],
    );
    it('makes [__proto__] an own string key and leaves Object.prototype alone', () => {
      const found = routerOf(['/a/[__proto__]']).match('/a/polluted');
      if (found === null || found === MALFORMED_PATH) throw new Error('no match');
      expect(Object.getPrototypeOf(found.params)).to.equal(null);
      expect(Object.prototype.hasOwnProperty.call(found.params, '__proto__')).to.equal(true);
      expect(found.params.__proto__).to.equal('polluted');
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      expect(Object.prototype).to.not.have.property('polluted');
      expect(Object.getPrototypeOf({})).to.equal(Object.prototype);
    });
  });

  describe('odd entries', () => {
    it('keeps the first of two routes with the same shape', () => {
      const router = routerOf(['/a/[x]', '/a/[y]', '/b/[...p]', '/b/[...q]']);
      expect(outcome(router, '/a/1')).to.deep.equal(['/a/[x]', { x: '1' }]);
      expect(outcome(router, '/b/1')).to.deep.equal(['/b/[...p]', { p: ['1'] }]);
    });
    it('skips an entry with a catch-all before its last segment', () => {
      const router = routerOf(['/a/[...x]/b', '/a/[y]/b']);
      expect(outcome(router, '/a/1/b')).to.deep.equal(['/a/[y]/b', { y: '1' }]);
      expect(outcome(router, '/a/1/2/b')).to.equal(null);
    });
    it('does not depend on the entries array after creation', () => {
      const entries: RouteEntry<string>[] = [{ segments: segmentsOf('/a'), value: 'a' }];
      const router = createRouter(entries);
      entries.length = 0;
      expect(outcome(router as ReturnType<typeof routerOf>, '/a')).to.deep.equal(['a', {}]);
    });
  });

  describe('a 1,000-route tree', () => {
    const patterns: string[] = [];
    for (let i = 0; i < 1000; i++) {
      patterns.push(i % 3 === 0 ? `/api/r${i}/[id]` : i % 3 === 1 ? `/api/r${i}/items/[...rest]` : `/r${i}`);
    }
    const router = routerOf(patterns);
    it('finds every route', () => {
      for (let i = 0; i < 1000; i++) {
        const [path, expected]: [string, Expected] =
          i % 3 === 0
            ? [`/api/r${i}/7`, [patterns[i]!, { id: '7' }]]
            : i % 3 === 1
              ? [`/api/r${i}/items/a/b`, [patterns[i]!, { rest: ['a', 'b'] }]]
              : [`/r${i}`, [patterns[i]!, {}]];
        expect(outcome(router, path), path).to.deep.equal(expected);
      }
      expect(outcome(router, '/api/r1000/7')).to.equal(null);
    });
    it('matches the last route about as fast as with a single route', () => {
      const single = routerOf(['/api/r999/[id]']);
      const time = (r: typeof router) => {
        const start = process.hrtime.bigint();
        for (let k = 0; k < 20000; k++) r.match('/api/r999/7');
        return Number(process.hrtime.bigint() - start);
      };
      // Warm both up, then take the best of a few rounds to shrug off GC and JIT noise.
      let big = Infinity;
      let one = Infinity;
      for (let round = 0; round < 5; round++) {
        big = Math.min(big, time(router));
        one = Math.min(one, time(single));
      }
      // A list scan would be ~1000x slower; a trie stays within small constant factors.
      expect(big).to.be.below(one * 5 + 5e6);
    });
  });
});
