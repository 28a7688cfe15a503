import { expect } from 'chai';
import { buildMethodTable, dispatch, type Dispatch } from '../../src/dispatch';

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
