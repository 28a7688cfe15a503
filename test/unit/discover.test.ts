/**
 * Discovery: the tree root (default, relative, absolute, file URL), which files count (and every skip rule), folder-name parsing, the RouteFile
 * fields, deterministic order, and the 1,000-file timing of discovery + export reading + validation.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { discoverTree, parseFolder } from '../../src/discover';
import { validateTree } from '../../src/validate';

const trees: string[] = [];

/** Writes `files` (path -> content) into a fresh temporary folder and returns its path. */
function makeTree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ee-discover-'));
  trees.push(dir);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

/** The tree-relative paths discovery found, in its order. */
function found(dir: string): string[] {
  return discoverTree(dir).files.map((file) => path.relative(dir, file.file).split(path.sep).join('/'));
}

const GET = 'export function GET() { return new Response("ok"); }\n';

afterEach(() => {
  for (const dir of trees.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the tree root', () => {
  /** Runs `fn` with `dir` as the working folder. */
  function inFolder<T>(dir: string, fn: () => T): T {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      return fn();
    } finally {
      process.chdir(cwd);
    }
  }

  it('defaults to app in the current directory', () => {
    const dir = makeTree({ 'app/endpoint.ts': GET });
    expect(inFolder(dir, () => discoverTree().root)).to.equal(path.join(realpathSync(dir), 'app'));
  });

  it('resolves a relative path against the working folder', () => {
    const dir = makeTree({ 'src/app/endpoint.ts': GET, 'other/endpoint.ts': GET });
    const real = realpathSync(dir);
    expect(inFolder(dir, () => discoverTree('src/app').root)).to.equal(path.join(real, 'src', 'app'));
    expect(inFolder(path.join(dir, 'src'), () => discoverTree('../other').root)).to.equal(
      path.join(real, 'other'),
    );
  });

  it('keeps an absolute path', () => {
    const dir = makeTree({ 'endpoint.ts': GET });
    expect(discoverTree(dir).root).to.equal(dir);
  });

  it('accepts a file URL object and a file: string', () => {
    const dir = makeTree({ 'my app/endpoint.ts': GET });
    const absolute = path.join(dir, 'my app');
    expect(discoverTree(pathToFileURL(absolute)).root).to.equal(absolute);
    expect(discoverTree(pathToFileURL(absolute).href).root).to.equal(absolute);
  });
});

describe('parseFolder', () => {
  const cases: [string, ReturnType<typeof parseFolder>][] = [
    ['users', { kind: 'static', value: 'users' }],
    ['v1.json', { kind: 'static', value: 'v1.json' }],
    ['café', { kind: 'static', value: 'café' }],
    ['...', { kind: 'static', value: '...' }],
    ['a(b)', { kind: 'static', value: 'a(b)' }],
    ['[id]', { kind: 'param', name: 'id' }],
    ['[$id_2]', { kind: 'param', name: '$id_2' }],
    ['[...rest]', { kind: 'catchAll', name: 'rest' }],
    ['[[...rest]]', { kind: 'optionalCatchAll', name: 'rest' }],
    ['(admin)', { kind: 'group', name: 'admin' }],
    ['(marketing pages)', { kind: 'group', name: 'marketing pages' }],
    ['_private', { kind: 'private', name: '_private' }],
    ['__tests__', { kind: 'private', name: '__tests__' }],
  ];
  for (const [name, expected] of cases) {
    it(`${name} -> ${expected.kind}`, () => expect(parseFolder(name)).to.deep.equal(expected));
  }

  const malformed = [
    '[]',
    '[...]',
    '[[x]]',
    '[[...]]',
    '[[]]',
    '[id',
    'id]',
    'a[id]',
    '[id]x',
    '[a-b]',
    '[1x]',
    '[ id ]',
    '[...a]]',
    '[[...a]',
    '[...[a]]',
    '()',
    '(a',
    '(a))',
    '([id])',
    // No URL can reach these: a URL parser reads `\` as `/` and resolves dot segments.
    'a\\b',
    '%2e',
    '%2E%2e',
    '.%2e',
  ];
  for (const name of malformed) {
    it(`${name} -> malformed, with a reason`, () => {
      const parsed = parseFolder(name);
      expect(parsed.kind).to.equal('malformed');
      if (parsed.kind === 'malformed') {
        expect(parsed.value).to.equal(name);
        expect(parsed.reason).to.match(/\w/);
      }
    });
  }
});

describe('discoverTree', () => {
  it('throws a clear error naming the resolved path when the folder is missing', () => {
    const missing = path.join(os.tmpdir(), 'ee-does-not-exist', 'app');
    expect(() => discoverTree(missing)).to.throw(Error, missing);
  });

  it('throws when the root is a file', () => {
    const dir = makeTree({ 'app.ts': '' });
    expect(() => discoverTree(path.join(dir, 'app.ts'))).to.throw(Error, 'app.ts');
  });

  it('finds every endpoint, page and middleware extension, and nothing else', () => {
    const dir = makeTree({
      'a/endpoint.ts': GET,
      'b/endpoint.js': GET,
      'c/endpoint.mts': GET,
      'd/endpoint.mjs': GET,
      'e/endpoint.cts': GET,
      'f/endpoint.cjs': 'exports.GET = () => {};',
      'g/page.tsx': '',
      'h/page.jsx': '',
      'i/page.ts': '',
      'j/page.js': '',
      'k/middleware.ts': 'export default () => {};',
      'l/middleware.cjs': 'module.exports = () => {};',
      'm/endpoint.d.ts': 'export declare function GET(): Response;',
      'm/endpoint.tsx': GET,
      'm/endpoint.json': '{}',
      'm/page.mjs': '',
      'm/page.d.ts': '',
      'm/middleware.tsx': '',
      'm/route.ts': GET,
      'm/index.ts': GET,
      'm/Endpoint.ts': GET,
    });
    const kinds = Object.fromEntries(
      discoverTree(dir).files.map((f) => [path.relative(dir, f.file), f.kind]),
    );
    expect(kinds).to.deep.equal({
      [path.join('a', 'endpoint.ts')]: 'endpoint',
      [path.join('b', 'endpoint.js')]: 'endpoint',
      [path.join('c', 'endpoint.mts')]: 'endpoint',
      [path.join('d', 'endpoint.mjs')]: 'endpoint',
      [path.join('e', 'endpoint.cts')]: 'endpoint',
      [path.join('f', 'endpoint.cjs')]: 'endpoint',
      [path.join('g', 'page.tsx')]: 'page',
      [path.join('h', 'page.jsx')]: 'page',
      [path.join('i', 'page.ts')]: 'page',
      [path.join('j', 'page.js')]: 'page',
      [path.join('k', 'middleware.ts')]: 'middleware',
      [path.join('l', 'middleware.cjs')]: 'middleware',
    });
  });

  const skipped: [string, string][] = [
    ['node_modules', 'node_modules/pkg/endpoint.ts'],
    ['nested node_modules', 'api/node_modules/pkg/endpoint.js'],
    ['dot folders', '.cache/endpoint.ts'],
    ['nested dot folders', 'api/.git/endpoint.ts'],
    ['_private folders', '_lib/endpoint.ts'],
    ['files below a _private folder', 'api/_internal/deep/endpoint.ts'],
    ['__tests__', 'api/__tests__/endpoint.ts'],
    ['test files', 'api/endpoint.test.ts'],
    ['spec files', 'api/endpoint.spec.js'],
    ['test pages', 'api/page.test.tsx'],
    ['declaration files', 'api/endpoint.d.ts'],
  ];
  for (const [what, file] of skipped) {
    it(`skips ${what} (${file})`, () => {
      const dir = makeTree({ [file]: GET, 'kept/endpoint.ts': GET });
      expect(found(dir)).to.deep.equal(['kept/endpoint.ts']);
    });
  }

  it('follows symbolic links to folders and files, each link its own route', () => {
    const dir = makeTree({ 'kept/endpoint.ts': GET });
    const shared = makeTree({ 'endpoint.ts': GET, 'inner/endpoint.ts': GET });
    symlinkSync(shared, path.join(dir, 'a'));
    symlinkSync(shared, path.join(dir, 'b'));
    mkdirSync(path.join(dir, 'c'));
    symlinkSync(path.join(shared, 'endpoint.ts'), path.join(dir, 'c', 'endpoint.ts'));
    expect(found(dir)).to.deep.equal([
      'a/endpoint.ts',
      'a/inner/endpoint.ts',
      'b/endpoint.ts',
      'b/inner/endpoint.ts',
      'c/endpoint.ts',
      'kept/endpoint.ts',
    ]);
  });

  it('leaves out a broken link and a link back up the tree, which would never end', () => {
    const dir = makeTree({ 'kept/endpoint.ts': GET });
    symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'broken'));
    symlinkSync(path.join(dir, 'nowhere.ts'), path.join(dir, 'kept', 'middleware.ts'));
    symlinkSync(dir, path.join(dir, 'kept', 'loop'));
    expect(found(dir)).to.deep.equal(['kept/endpoint.ts']);
  });

  it('tells a loop inside a linked folder, and a tree reached through a link, by real paths', () => {
    const shared = makeTree({ 'inner/endpoint.ts': GET });
    symlinkSync(shared, path.join(shared, 'inner', 'up'));
    const dir = makeTree({ 'kept/endpoint.ts': GET });
    symlinkSync(shared, path.join(dir, 'linked'));
    const linkedRoot = path.join(makeTree({}), 'tree');
    symlinkSync(dir, linkedRoot);
    symlinkSync(linkedRoot, path.join(dir, 'kept', 'back'));
    const expected = ['kept/endpoint.ts', 'linked/inner/endpoint.ts'];
    expect(found(dir)).to.deep.equal(expected);
    expect(found(linkedRoot)).to.deep.equal(expected);
  });

  it('describes a file: folders, segments, pattern, displayPath', () => {
    const dir = makeTree({ '(admin)/users/[id]/[[...rest]]/endpoint.ts': GET });
    const [file] = discoverTree(dir).files;
    expect(file).to.deep.include({
      kind: 'endpoint',
      file: path.join(dir, '(admin)', 'users', '[id]', '[[...rest]]', 'endpoint.ts'),
      displayPath: path
        .relative(process.cwd(), path.join(dir, '(admin)/users/[id]/[[...rest]]/endpoint.ts'))
        .split(path.sep)
        .join('/'),
      folders: ['(admin)', 'users', '[id]', '[[...rest]]'],
      segments: [
        { kind: 'static', value: 'users' },
        { kind: 'param', name: 'id' },
        { kind: 'optionalCatchAll', name: 'rest' },
      ],
      pattern: '/users/[id]/[[...rest]]',
    });
    expect(file?.displayPath).not.to.include('\\');
  });

  it('gives every segment kind its pattern, groups adding none', () => {
    const dir = makeTree({
      'endpoint.ts': GET,
      '(g)/endpoint.ts': GET,
      '(g)/(h)/a/endpoint.ts': GET,
      'b/[id]/endpoint.ts': GET,
      'c/[...all]/endpoint.ts': GET,
      'd/[[...all]]/endpoint.ts': GET,
    });
    // Sorted by path: `(g)/…` < `b/…` < `endpoint.ts`.
    expect(discoverTree(dir).files.map((f) => f.pattern)).to.deep.equal([
      '/a',
      '/',
      '/b/[id]',
      '/c/[...all]',
      '/d/[[...all]]',
      '/',
    ]);
  });

  it('keeps a malformed folder as a static segment (validation reports it)', () => {
    const dir = makeTree({ '[[x]]/endpoint.ts': GET });
    const [file] = discoverTree(dir).files;
    expect(file?.segments).to.deep.equal([{ kind: 'static', value: '[[x]]' }]);
    expect(file?.pattern).to.equal('/[[x]]');
  });

  it('reads exports of endpoints and middleware, not of pages', () => {
    const dir = makeTree({
      'a/endpoint.ts': 'export const POST = () => new Response();',
      'a/page.tsx': 'export default function Page() { return null; }',
      'a/middleware.ts': 'export default (req: Request, next: () => Promise<Response>) => next();',
    });
    const byKind = Object.fromEntries(discoverTree(dir).files.map((f) => [f.kind, f.exports]));
    expect(byKind.endpoint).to.deep.equal({ names: ['POST'], namesIncomplete: false, nonFunctions: [] });
    expect(byKind.middleware).to.deep.equal({ names: ['default'], namesIncomplete: false, nonFunctions: [] });
    expect(byKind.page).to.equal(undefined);
  });

  it('sorts deterministically, whatever the creation order', () => {
    const files = [
      'b/endpoint.ts',
      'a/z/endpoint.ts',
      '(g)/c/endpoint.ts',
      'a/endpoint.ts',
      '[id]/endpoint.ts',
    ];
    const first = makeTree(Object.fromEntries(files.map((f) => [f, GET])));
    const second = makeTree(Object.fromEntries([...files].reverse().map((f) => [f, GET])));
    const expected = [
      '(g)/c/endpoint.ts',
      '[id]/endpoint.ts',
      'a/endpoint.ts',
      'a/z/endpoint.ts',
      'b/endpoint.ts',
    ];
    expect(found(first)).to.deep.equal(expected);
    expect(found(second)).to.deep.equal(expected);
  });

  it('accepts an absolute path, a path relative to cwd, a file URL and a file: string', () => {
    const dir = makeTree({ 'x/endpoint.ts': GET });
    for (const given of [
      dir,
      path.relative(process.cwd(), dir),
      pathToFileURL(dir),
      pathToFileURL(dir).href,
    ]) {
      const tree = discoverTree(given);
      expect(tree.root).to.equal(dir);
      expect(tree.files.map((f) => f.pattern)).to.deep.equal(['/x']);
    }
  });

  it('applies the skip rules below the root only (a root inside a dot or _ folder works)', () => {
    const dir = makeTree({ '.config/_app/x/endpoint.ts': GET });
    expect(discoverTree(path.join(dir, '.config', '_app')).files.map((f) => f.pattern)).to.deep.equal(['/x']);
  });

  it('finds nothing in an empty folder', () => {
    const dir = makeTree({});
    expect(discoverTree(dir)).to.deep.equal({ root: dir, files: [], misnamed: [] });
  });
});

describe('1,000 endpoint files', function () {
  // Writing and removing 3,000 folders can take seconds on a busy machine; only the reading itself is timed.
  this.timeout(20_000);
  afterEach(() => {
    for (const dir of trees.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('are discovered, read and validated quickly', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) {
      const ext = ['ts', 'js', 'mts'][i % 3] as string;
      files[`section${i % 20}/item${i}/[id]/endpoint.${ext}`] =
        (ext === 'js' ? '' : `import type { X } from './types';\n`) +
        `export async function GET(req${ext === 'js' ? '' : ': Request'}) { return Response.json({ n: ${i} }); }\n` +
        `export const POST = async () => new Response(null, { status: 201 });\nexport const config = { bodyLimit: ${i} };\n`;
    }
    const dir = makeTree(files);
    const started = performance.now();
    const tree = discoverTree(dir);
    const problems = validateTree(tree);
    const elapsed = performance.now() - started;
    console.log(`      1,000 endpoint files: discovered, read and validated in ${elapsed.toFixed(0)} ms`);
    expect(tree.files).to.have.length(1000);
    expect(problems).to.deep.equal([]);
    expect(tree.files.every((f) => f.exports?.names.join() === 'GET,POST,config')).to.equal(true);
    expect(elapsed).to.be.below(3000);
  });
});
