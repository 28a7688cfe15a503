/**
 * TypeScript in an ES module package loads with Node's own type stripping where a file needs nothing
 * more, and through tsx where it does, each construct answering as it does under tsx alone: plain node on
 * the built package (the library decides per file) against `node --import tsx` (tsx loads every file).
 * The endpoints share a module, whose single instance every one of them must see, and report the line
 * their stack trace gives, which must be the line in the source whichever way the file loaded.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import {
  builtEntry,
  ensureBuilt,
  loadApp,
  stripsFirst,
  removeApps,
  responses,
  root,
  writeApp,
} from './loading-apps';

/** `line` is the line of `new Error()`: always line 3 of the handler, written below. */
const handler = (answer: string) => `export function GET(_req: Request): Response {
  const line = Number(/endpoint\\.ts[^:]*:(\\d+)/.exec(new Error().stack ?? '')?.[1]);
  return Response.json({ answer: ${answer}, instance, line });
}
`;
const endpoint = (lines: string[], answer: string) => ({
  source: `import { instance } from '../lib/instance.ts';\n${lines.join('\n')}\n${handler(answer)}`,
  line: lines.length + 3,
});

/**
 * Each construct, the answer it gives, and whether stripping alone can load it. `inEndpoint`: the construct is in
 * the endpoint itself, which the library compiles ahead where the rest of the tree strips (src/load/compiled-routes.ts),
 * so tsx is not needed for it.
 */
const CONSTRUCTS: Record<
  string,
  { lines: string[]; answer: string; expected: string; strips: boolean; with?: string[]; inEndpoint?: true }
> = {
  stripped: {
    lines: [
      "import type { Greeting } from '../lib/types.ts';",
      "import { greet } from '../lib/greet.ts';",
      "import { createHash } from 'node:crypto';",
      "void createHash('sha256');",
      'interface Params { name?: string }',
      "const params: Params = { name: 'strip' as string };",
      'const greeting: Greeting = { text: greet(params.name!) } satisfies Greeting;',
    ],
    answer: 'greeting.text',
    expected: 'Hello, strip!',
    strips: true,
  },
  'class-fields': {
    lines: [
      "class Base { constructor() { (this as { value?: string }).value = 'set by base'; } }",
      'class Field extends Base { value!: string; }',
    ],
    answer: 'String(new Field().value)',
    expected: 'undefined',
    strips: true,
  },
  enum: {
    lines: ["enum Kind { Plain = 'enum' }"],
    answer: 'Kind.Plain',
    expected: 'enum',
    strips: false,
    inEndpoint: true,
  },
  'imported-enum': {
    lines: ["import { Colour } from '../lib/colour.ts';"],
    answer: 'Colour.Red',
    expected: 'red',
    strips: false,
  },
  // lib/mid.ts strips, but imports lib/colour.ts, which does not: both load again through tsx.
  'enum-two-away': {
    lines: ["import { mid } from '../lib/mid.ts';"],
    answer: 'mid',
    expected: 'mid red',
    strips: false,
  },
  // lib/typed.ts imports a type without `import type`: Node would keep it failed, so tsx loads it first.
  'type-import-two-away': {
    lines: ["import { typed } from '../lib/typed.ts';"],
    answer: 'typed.text',
    expected: 'typed',
    strips: false,
  },
  'builtin-type-import': {
    lines: [
      "import { RequestListener } from 'node:http';",
      'const listener: RequestListener | undefined = undefined;',
    ],
    answer: 'String(listener)',
    expected: 'undefined',
    strips: false,
  },
  // An endpoint that imports another one that needs tsx: one instance of it, loaded through tsx.
  'imports-endpoint': {
    lines: ["import { GET as other } from '../enum-two-away/endpoint.ts';"],
    answer: 'other.name',
    expected: 'GET',
    strips: false,
    with: ['enum-two-away'],
  },
  namespace: {
    lines: ["namespace Words { export const word = 'namespace'; }"],
    answer: 'Words.word',
    expected: 'namespace',
    strips: false,
    inEndpoint: true,
  },
  'parameter-properties': {
    lines: [
      'class Box { constructor(private readonly value: string) {} get(): string { return this.value; } }',
    ],
    answer: "new Box('parameter properties').get()",
    expected: 'parameter properties',
    strips: false,
    inEndpoint: true,
  },
  extensionless: {
    lines: ["import { greet } from '../lib/greet';"],
    answer: "greet('extensionless')",
    expected: 'Hello, extensionless!',
    strips: false,
  },
  // NodeNext's spelling of lib/greet.ts: stripping loads it, through the library's resolve hook.
  'js-extension': {
    lines: ["import { greet } from '../lib/greet.js';"],
    answer: "greet('js')",
    expected: 'Hello, js!',
    strips: true,
  },
  'type-import': {
    lines: ["import { Greeting } from '../lib/types.ts';", "const greeting: Greeting = { text: 'type' };"],
    answer: 'greeting.text',
    expected: 'type',
    strips: false,
  },
  decorators: {
    lines: [
      'function named(value: typeof Tagged, context: ClassDecoratorContext): void {',
      "  context.addInitializer(() => { (value as { label?: string }).label = 'decorated'; });",
      '}',
      '@named class Tagged { static label?: string }',
    ],
    answer: 'Tagged.label',
    expected: 'decorated',
    strips: false,
    inEndpoint: true,
  },
};

function app(names: string[]): Record<string, string> {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ type: 'module' }),
    'lib/instance.ts': 'export const instance: string = Math.random().toString(36).slice(2);\n',
    'lib/greet.ts': 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
    'lib/types.ts': 'export interface Greeting {\n  text: string;\n}\n',
    'lib/colour.ts': "export enum Colour { Red = 'red' }\n",
    'lib/typed.ts':
      "import { Greeting } from './types.ts';\nexport const typed: Greeting = { text: 'typed' };\n",
    'lib/mid.ts': "import { Colour } from './colour.ts';\nexport const mid: string = `mid ${Colour.Red}`;\n",
  };
  for (const name of names) {
    const { lines, answer } = CONSTRUCTS[name]!;
    files[`${name}/endpoint.ts`] = endpoint(lines, answer).source;
  }
  return files;
}

describe('integration: TypeScript through Node type stripping, tsx where a file needs it', function () {
  this.timeout(60_000);
  before(async function () {
    this.timeout(120_000);
    await ensureBuilt();
  });
  after(removeApps);

  const names = Object.keys(CONSTRUCTS);
  const paths = names.map((name) => `/${name}`);

  it('answers as tsx alone does, construct by construct, from one instance of a shared module', async () => {
    const dir = writeApp(app(names), { tsx: true });
    const decided = await loadApp(dir, paths, { cwd: '/' });
    const tsxAlone = await loadApp(dir, paths, { nodeArgs: ['--import', 'tsx'] });
    const answers = responses(decided);
    expect(answers.map(({ body }) => (body as { answer: unknown }).answer)).to.deep.equal(
      names.map((name) => CONSTRUCTS[name]!.expected),
    );
    expect(
      answers.map(({ body }) => (body as { line: unknown }).line),
      'lines',
    ).to.deep.equal(names.map((name) => endpoint(CONSTRUCTS[name]!.lines, '').line));
    const instances = new Set(answers.map(({ body }) => (body as { instance: string }).instance));
    expect(instances.size, 'instances of lib/instance.ts').to.equal(1);
    const withoutInstance = (list: typeof answers) =>
      list.map(({ status, body }) => ({ status, body: { ...(body as object), instance: undefined } }));
    expect(withoutInstance(answers)).to.deep.equal(withoutInstance(responses(tsxAlone)));
    expect(decided.warnings).to.deep.equal([]);
  });

  for (const name of Object.keys(CONSTRUCTS).filter((n) => !CONSTRUCTS[n]!.strips)) {
    const ahead = stripsFirst && CONSTRUCTS[name]!.inEndpoint === true;
    it(`${name}: ${ahead ? 'compiled ahead, without tsx' : 'loads through tsx, registered for it'}`, async () => {
      const dir = writeApp(app([...(CONSTRUCTS[name]!.with ?? []), name]), { tsx: true });
      const outcome = await loadApp(dir, [`/${name}`], { cwd: '/' });
      expect(responses(outcome)[0]!.body).to.deep.include({ answer: CONSTRUCTS[name]!.expected });
      expect(outcome.tsx).to.equal(!ahead);
      expect(outcome.warnings).to.deep.equal([]);
    });
  }

  it('a tree that needs nothing more than stripping never loads tsx, though it is installed', async function () {
    if (!stripsFirst) this.skip();
    const dir = writeApp(app(['stripped']), { tsx: true });
    const outcome = await loadApp(dir, ['/stripped'], { cwd: '/' });
    expect(responses(outcome)[0]!.body).to.deep.include({ answer: 'Hello, strip!', line: 10 });
    expect(outcome.tsx).to.equal(false);
    expect(outcome.warnings).to.deep.equal([]);
  });

  it("NodeNext's `../lib/greet.js` for lib/greet.ts strips too: tsx stays out, though installed", async function () {
    if (!stripsFirst) this.skip();
    const dir = writeApp(app(['js-extension']), { tsx: true });
    const outcome = await loadApp(dir, ['/js-extension'], { cwd: '/' });
    expect(responses(outcome)[0]!.body).to.deep.include({ answer: 'Hello, js!', line: 4 });
    expect(outcome.tsx).to.equal(false);
    expect(outcome.warnings).to.deep.equal([]);
  });

  /** Runs test/fixtures/ts-load/dev-reload.cjs on the tree in `dir`: the answers after each step. */
  async function devReload(dir: string, steps: Array<{ path: string; files?: Record<string, string> }>) {
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        path.join(root, 'test/fixtures/ts-load/dev-reload.cjs'),
        builtEntry,
        path.join(dir, 'app'),
        JSON.stringify(steps),
      ],
      { cwd: '/', env, timeout: 30_000, killSignal: 'SIGKILL' },
    );
    return JSON.parse(stdout.trim().split('\n').pop()!) as { answers?: string[]; warnings?: string[] };
  }

  it('development mode reloads a stripped file, and one that needs tsx after an edit', async () => {
    const dir = writeApp(
      {
        'app/package.json': JSON.stringify({ type: 'module' }),
        'app/lib/word.ts': "export const word: string = 'first';\n",
        'app/word/endpoint.ts':
          "import { word } from '../lib/word.ts';\nexport function GET(): Response {\n  return new Response(word);\n}\n",
      },
      { tsx: true },
    );
    const outcome = await devReload(dir, [
      { path: '/word' },
      { path: '/word', files: { 'lib/word.ts': "export const word: string = 'second';\n" } },
      {
        path: '/word',
        files: { 'lib/word.ts': "enum Word { Third = 'third' }\nexport const word: string = Word.Third;\n" },
      },
    ]);
    expect(outcome).to.deep.include({ answers: ['first', 'second', 'third'], warnings: [] });
  });

  it('development mode: a TypeScript endpoint added after a shared module changed sees its current code', async function () {
    // The tree has no file to compile until the endpoint is added, so the compiled files' resolve hook is
    // registered after the reload's: it must not resolve the module to its first, stale instance.
    if (!stripsFirst) this.skip();
    const endpointJs =
      "import { word } from '../lib/word.ts';\nexport function GET() {\n  return new Response(word);\n}\n";
    const dir = writeApp(
      {
        'app/package.json': JSON.stringify({ type: 'module' }),
        'app/lib/word.ts': "export const word: string = 'first';\n",
        'app/a/endpoint.js': endpointJs,
      },
      { tsx: true },
    );
    const outcome = await devReload(dir, [
      { path: '/a' },
      { path: '/a', files: { 'lib/word.ts': "export const word: string = 'second';\n" } },
      {
        path: '/b',
        files: {
          'b/endpoint.ts':
            "import { word } from '../lib/word.ts';\nexport function GET(): Response {\n  return new Response(word);\n}\n",
        },
      },
      { path: '/a' },
    ]);
    expect(outcome).to.deep.include({ answers: ['first', 'second', 'second', 'second'], warnings: [] });
  });

  it('under a tsconfig whose class fields tsx compiles otherwise, every file loads through tsx', async () => {
    const files = app(['class-fields']);
    files['tsconfig.json'] = JSON.stringify({ compilerOptions: { target: 'ES2020' } });
    const dir = writeApp(files, { tsx: true });
    const decided = await loadApp(dir, ['/class-fields'], { cwd: dir });
    const tsxAlone = await loadApp(dir, ['/class-fields'], { cwd: dir, nodeArgs: ['--import', 'tsx'] });
    expect(responses(decided)[0]!.body).to.deep.include({ answer: 'set by base' });
    expect(responses(tsxAlone)[0]!.body).to.deep.include({ answer: 'set by base' });
    expect(decided.tsx).to.equal(true);
  });
});
