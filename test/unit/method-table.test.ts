import { expect } from 'chai';
import { buildMethodTable, dispatch, methodsFor, type Dispatch } from '../../src/route';
import { HANDLER_EXPORTS, HTTP_METHODS } from '../../src/http-methods';

const handlers = (...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, () => new Response(name)]));

/** What a decision means, in a line: `GET`, `ANY`, `204 GET, HEAD, OPTIONS`, `405 …`, `pass`. */
function describeDecision(decision: Dispatch): string {
  switch (decision.kind) {
    case 'handler':
      return decision.entry.exportName;
    case 'options':
      return `204 ${decision.allow}`;
    case 'not-allowed':
      return `405 ${decision.allow}`;
    case 'pass':
      return 'pass';
  }
}

describe('method table and dispatch (DESIGN.md: decisions the spec leaves open)', () => {
  const cases: Array<[string, string[], boolean, string, string]> = [
    // exports, page beside it, request method, expected
    ['specific beats ANY', ['GET', 'ANY'], false, 'GET', 'GET'],
    ['ANY beats default', ['ANY', 'default'], false, 'POST', 'ANY'],
    ['default serves any method', ['default'], false, 'DELETE', 'default'],
    ['HEAD export serves HEAD', ['HEAD', 'GET'], false, 'HEAD', 'HEAD'],
    ['HEAD falls back to GET', ['GET', 'ANY'], false, 'HEAD', 'GET'],
    ['HEAD falls back to ANY', ['ANY'], false, 'HEAD', 'ANY'],
    ['OPTIONS export', ['OPTIONS', 'GET'], false, 'OPTIONS', 'OPTIONS'],
    ['OPTIONS through ANY', ['ANY'], false, 'OPTIONS', 'ANY'],
    ['automatic OPTIONS', ['GET', 'POST'], false, 'OPTIONS', '204 GET, HEAD, POST, OPTIONS'],
    ['405 lists what is served', ['GET', 'POST'], false, 'PUT', '405 GET, HEAD, POST, OPTIONS'],
    ['unknown method, no catch-all', ['GET'], false, 'PROPFIND', '405 GET, HEAD, OPTIONS'],
    ['unknown method, ANY', ['GET', 'ANY'], false, 'PROPFIND', 'ANY'],
    ['QUERY export serves QUERY', ['GET', 'QUERY'], false, 'QUERY', 'QUERY'],
    ['QUERY-only file', ['QUERY'], false, 'GET', '405 QUERY, OPTIONS'],
    ['Allow lists QUERY beside GET', ['GET', 'QUERY'], false, 'PUT', '405 GET, HEAD, QUERY, OPTIONS'],
    ['QUERY falls back to ANY', ['GET', 'ANY'], false, 'QUERY', 'ANY'],
    ['automatic OPTIONS lists QUERY', ['QUERY'], false, 'OPTIONS', '204 QUERY, OPTIONS'],
    ['page + POST: GET goes to the app', ['POST'], true, 'GET', 'pass'],
    ['page + POST: HEAD goes to the app', ['POST'], true, 'HEAD', 'pass'],
    ['page + POST: POST is served', ['POST'], true, 'POST', 'POST'],
    ['page + POST: Allow leaves GET out', ['POST'], true, 'PUT', '405 POST, OPTIONS'],
  ];
  for (const [title, exports, page, method, expected] of cases) {
    it(`${title}: ${method} -> ${expected}`, () => {
      expect(describeDecision(dispatch(buildMethodTable(handlers(...exports), page), method))).to.equal(
        expected,
      );
    });
  }

  it('ignores exports that are not functions and names that are not handlers', () => {
    const table = buildMethodTable({ GET: 42, config: {}, POST: () => new Response() });
    expect(describeDecision(dispatch(table, 'GET'))).to.equal('405 POST, OPTIONS');
  });

  it('decides once per route: the same decision object for every request', () => {
    const table = buildMethodTable(handlers('GET'));
    for (const method of ['GET', 'OPTIONS', 'PUT', 'PROPFIND']) {
      expect(dispatch(table, method)).to.equal(dispatch(table, method));
    }
  });
});

describe('methodsFor: the route table from export names alone', () => {
  /** What dispatch really serves for these exports, read off the built table. */
  function servedByTable(names: string[], pageServesGet: boolean): string[] {
    const table = buildMethodTable(
      Object.fromEntries(names.map((n) => [n, () => new Response()])),
      pageServesGet,
    );
    const fallback = table.fallback?.handler;
    if (!fallback) return table.allow.split(', ').filter(Boolean);
    return [
      ...HTTP_METHODS.filter((m) => table.byMethod[m] && table.byMethod[m]!.handler !== fallback),
      'ANY',
    ];
  }

  it('agrees with the dispatch table for every combination of exports, with and without a page', () => {
    const exports = [...HANDLER_EXPORTS];
    for (let mask = 0; mask < 1 << exports.length; mask++) {
      const names = exports.filter((_, i) => mask & (1 << i));
      for (const page of [false, true]) {
        expect(methodsFor(names, page), `${names.join(',')} page=${page}`).to.deep.equal(
          servedByTable(names, page),
        );
      }
    }
  });

  it('lists GET with HEAD, OPTIONS always, and ANY for a catch-all', () => {
    expect(methodsFor(['GET'])).to.deep.equal(['GET', 'HEAD', 'OPTIONS']);
    expect(methodsFor(['POST', 'default'])).to.deep.equal(['POST', 'ANY']);
    expect(methodsFor(['GET', 'POST'], true)).to.deep.equal(['POST', 'OPTIONS']);
  });
});
