/** expressPath: a route's segments as an Express 5 path, the `req.route.path` request loggers read. */
import { expect } from 'chai';
import { expressPath } from '../../src/route/express-path';
import type { Segment } from '../../src/discover';

describe('expressPath: route patterns in Express 5 syntax for req.route.path', () => {
  const cases: Array<[string, Segment[], string]> = [
    ['the root', [], '/'],
    ['static', [{ kind: 'static', value: 'api' }], '/api'],
    [
      'param',
      [
        { kind: 'static', value: 'u' },
        { kind: 'param', name: 'id' },
      ],
      '/u/:id',
    ],
    [
      'catch-all',
      [
        { kind: 'static', value: 'docs' },
        { kind: 'catchAll', name: 'path' },
      ],
      '/docs/*path',
    ],
    [
      'optional catch-all',
      [
        { kind: 'static', value: 'f' },
        { kind: 'optionalCatchAll', name: 'p' },
      ],
      '/f{/*p}',
    ],
    ['optional catch-all at the root', [{ kind: 'optionalCatchAll', name: 'p' }], '/{*p}'],
    ['a name that is no identifier', [{ kind: 'param', name: 'user-id' }], '/:"user-id"'],
    ['reserved characters in a static segment', [{ kind: 'static', value: 'a+b(c)' }], '/a\\+b\\(c\\)'],
  ];
  for (const [what, segments, expected] of cases) {
    it(`${what}: ${expected}`, () => expect(expressPath(segments)).to.equal(expected));
  }
});
