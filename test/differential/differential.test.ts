/**
 * A route moved into the tree answers as the native one did. Routes written the Express way
 * (test/fixtures/differential-app/routes.js) run in one app; the same routes ported to endpoint files by
 * hand run in a second, and the endpoint files `express-file-endpoints migrate` wrote from them in a
 * third; each tree is compared with the native app, on Express 4 and on Express 5; every request of
 * cases.ts, and a HEAD and the conditional requests for each GET, goes to both, and the answers are
 * compared byte for byte, but for the Date header, the case of header names and the order of
 * different ones. What still differs is allowed only where a request declares it, each declared
 * difference must show, and each one is an entry of docs/migrating.md, with its reason. The command
 * keeps what a port by hand changes (`byHand` differences): the migrated tree must not show those.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import fc from 'fast-check';
import { ensureBuilt } from '../integration/loading-apps';
import { removeScratchApps } from '../support/runner-apps';
import { delta, headerValues, send, startApps, type Answer, type Apps, type Delta, type Tree } from './apps';
import { CASES, type Case } from './cases';
import { DIFFERENCES, EVERY_ANSWER, type Difference, type DifferenceId } from './differences';

const VERSIONS = [5, 4] as const;
const TREES: Tree[] = ['ported', 'migrated'];

/** What a request may show from `tree`: the command keeps what a port by hand changes. */
function differencesOf(tree: Tree, differs: readonly DifferenceId[] = []): DifferenceId[] {
  return tree === 'ported' ? [...differs] : differs.filter((id) => !('byHand' in DIFFERENCES[id]));
}

/** Fails unless the two answers differ only as `differs` allows; with `shown`, each must show. */
function expectSame(native: Answer, tree: Answer, differs: readonly DifferenceId[] = [], shown = true): void {
  const found = delta(native, tree);
  const allowed: Difference[] = differs.map((id) => DIFFERENCES[id]);
  const unexplained: Delta = {
    status: found.status && !allowed.some((d) => d.status),
    headers: found.headers.filter((name) => !allowed.some((d) => d.headers?.includes(name))),
    body: found.body && !allowed.some((d) => d.body),
  };
  const message = () =>
    `differs in ${JSON.stringify(unexplained)}\n--- native\n${show(native)}\n--- endpoint\n${show(tree)}`;
  expect(unexplained.status || unexplained.headers.length > 0 || unexplained.body, message()).to.equal(false);
  if (!shown) return;
  for (const id of differs) {
    const d: Difference = DIFFERENCES[id];
    const shows =
      (d.status && found.status) ||
      (d.body && found.body) ||
      (d.headers ?? []).some((name) => found.headers.includes(name));
    expect(shows, `the documented difference "${id}" does not show: ${message()}`).to.equal(true);
  }
}

function show(answer: Answer): string {
  const text = answer.raw.length > 600 ? `${answer.raw.slice(0, 600)}…` : answer.raw;
  return text.replace(/\r\n/g, '\n');
}

const title = (c: Case, differs: readonly DifferenceId[]) =>
  `${c.method ?? 'GET'} ${c.path}${c.headers ? ` (${c.headers.map(([n, v]) => `${n}: ${v}`).join(', ')})` : ''}` +
  (differs.length > 0 ? `: ${differs.join(', ')}` : '');

describe('a route moved into the tree answers as the native one did', function () {
  this.timeout(20_000);
  before(async function () {
    this.timeout(120_000);
    await ensureBuilt();
  });
  after(removeScratchApps);

  for (const tree of TREES)
    for (const version of VERSIONS) {
      describe(`${tree === 'ported' ? 'ported by hand' : 'moved by the command'}, Express ${version}`, () => {
        let apps: Apps;
        before(async function () {
          this.timeout(120_000);
          apps = await startApps(version, tree);
        });
        after(() => apps?.close());

        const both = (c: Case) => Promise.all([send(apps.native, c), send(apps.tree, c)]);

        for (const c of CASES) {
          const differs = differencesOf(tree, c.differs);
          it(title(c, differs), async () => {
            const [native, tree] = await both(c);
            expectSame(native, tree, differs);
            const method = c.method ?? 'GET';
            const status = Number(native.statusLine.split(' ')[1]);
            if (method !== 'GET' || status < 200 || status > 299) return;

            // The same request as HEAD: the same head, no body.
            const [nativeHead, treeHead] = await both({ ...c, method: 'HEAD' });
            expectSame(nativeHead, treeHead, differs, false);

            // Conditional requests with the validators the native route gave: 304 from both.
            const [etag] = headerValues(native, 'etag');
            const [lastModified] = headerValues(native, 'last-modified');
            const conditions: [string, string][] = [];
            if (etag) conditions.push(['If-None-Match', etag]);
            if (lastModified) conditions.push(['If-Modified-Since', lastModified]);
            for (const condition of conditions) {
              for (const conditionalMethod of ['GET', 'HEAD']) {
                const conditional = {
                  ...c,
                  method: conditionalMethod,
                  headers: [...(c.headers ?? []), condition],
                };
                const [nativeFresh, treeFresh] = await both(conditional);
                expect(nativeFresh.statusLine, `native ${conditionalMethod} with ${condition[0]}`).to.match(
                  / 304 /,
                );
                expectSame(nativeFresh, treeFresh, differs, false);
              }
            }
            // One that no longer matches: the whole answer again.
            if (etag) {
              const stale = {
                ...c,
                headers: [...(c.headers ?? []), ['If-None-Match', 'W/"stale"'] as [string, string]],
              };
              const [nativeStale, treeStale] = await both(stale);
              expectSame(nativeStale, treeStale, differs);
            }
          });
        }

        it('a param of any characters, encoded or not, malformed or a dot segment (property)', async () => {
          const pieces = [
            'a',
            'Z',
            '0',
            '-',
            '_',
            '~',
            '.',
            '+',
            '!',
            "'",
            '(',
            '%20',
            '%2F',
            '%25',
            '%C3%A9',
            '%zz',
            '%E0%A4%A',
            '%2e',
            '%2E',
          ];
          await fc.assert(
            fc.asyncProperty(
              fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 4 }),
              async (parts) => {
                const segment = parts.join('');
                const c: Case = { path: `/users/${segment}` };
                const [native, tree] = await both(c);
                expectSame(native, tree, expectedDifferences(segment));
              },
            ),
            { numRuns: 60 },
          );
        });
      });
    }

  it('every difference is listed in docs/migrating.md, with its reason', () => {
    const guide = readFileSync(path.join(__dirname, '../../docs/migrating.md'), 'utf8');
    const headings = guide
      .split('\n')
      .filter((line) => line.startsWith('#'))
      .map((line) => line.replace(/^#+\s*/, ''));
    for (const { title: heading } of [...Object.values(DIFFERENCES), ...EVERY_ANSWER]) {
      expect(headings, heading).to.include(heading);
    }
  });
});

/** What a `/users/<segment>` request may show: a malformed one's message, a dot segment's refusal. */
function expectedDifferences(segment: string): DifferenceId[] {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return ['malformed-message'];
  }
  // The segment the URL parser would resolve: `.` or `..`, however its dots are written.
  return decoded === '.' || decoded === '..' ? ['dot-segment'] : [];
}
