/**
 * Export reading, both ways: at startup by the lexers (readExports), and from the syntax tree
 * (readExportsExactly, what `check` reads). Export names from TypeScript, ESM and CommonJS sources, `export *`;
 * an object assigned to `module.exports`, which the lexers leave open and the syntax tree reads; non-function
 * literals (and the many look-alikes that must not be flagged), which startup reads exactly when a handler
 * looks like one; code the lexer cannot read (names unknown, never an error).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { readExports, readExportsExactly } from '../../src/discover';

let dir: string;

/** Writes `source` as `name` in this test's temporary folder and returns the absolute path. */
function fileOf(name: string, source: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, source);
  return file;
}

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ee-exports-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readExports', () => {
  const names: [string, string, string, string[]][] = [
    [
      'TypeScript with types, interfaces and generics',
      'endpoint.ts',
      `import type { Db } from './db';
       export interface User<T = string> { id: T }
       export type Params = { id: string };
       export declare const injected: number;
       export async function GET<T extends object>(req: Request, { params }: { params: Params }): Promise<Response> {
         const list: Array<User<T>> = [];
         return Response.json({ list, id: params.id } as unknown as Record<string, unknown>);
       }
       export const POST = async <T,>(req: Request): Promise<Response> => new Response(null, { status: 201 });
       export abstract class Store<T> { private items: T[] = []; }
       export enum Role { Admin, User }
       export { type Db as Database };`,
      ['GET', 'POST', 'Store', 'Role'],
    ],
    [
      'export default function',
      'endpoint.ts',
      'export default function (req: Request) { return new Response(); }',
      ['default'],
    ],
    [
      'export default async arrow',
      'endpoint.js',
      'export default async (req) => new Response();',
      ['default'],
    ],
    [
      'export { a as GET }',
      'endpoint.ts',
      'const a = () => new Response();\nexport { a as GET, a as default };',
      ['GET', 'default'],
    ],
    [
      're-exported names',
      'endpoint.ts',
      "export { GET, POST as PUT } from './shared';\nexport { default } from './any';",
      ['GET', 'PUT', 'default'],
    ],
    [
      'export * as ns (a name, not a star)',
      'endpoint.ts',
      "export * as helpers from './helpers';",
      ['helpers'],
    ],
    [
      'an .mjs file',
      'endpoint.mjs',
      'export function GET() {}\nexport const DELETE = function () {};',
      ['GET', 'DELETE'],
    ],
    [
      'an .mts file',
      'endpoint.mts',
      'export function PATCH(req: Request): Response { return new Response(); }',
      ['PATCH'],
    ],
    [
      'lower-case names as written',
      'endpoint.ts',
      'export function get() {}\nexport const Post = () => {};',
      ['get', 'Post'],
    ],
    [
      'CommonJS exports.X = …',
      'endpoint.js',
      'exports.POST = async (req) => new Response();\nexports.PUT = function () {};',
      ['POST', 'PUT'],
    ],
    ['CommonJS module.exports.X = …', 'endpoint.cjs', 'module.exports.GET = () => {};', ['GET']],
    [
      'CommonJS module.exports = function: default',
      'endpoint.cjs',
      'module.exports = function (req) { return new Response(); };',
      ['default'],
    ],
    [
      'CommonJS module.exports = arrow: default',
      'endpoint.js',
      'module.exports = async (req) => new Response();',
      ['default'],
    ],
    [
      '.cts with exports.X and types',
      'endpoint.cts',
      'exports.GET = <T,>(req: T): Response => new Response();\nexports.POST = function (req: Request) {};',
      ['GET', 'POST'],
    ],
    [
      '.cts with ESM syntax',
      'endpoint.cts',
      'export function GET(): Response { return new Response(); }',
      ['GET'],
    ],
    [
      'compiled CommonJS (__esModule)',
      'endpoint.js',
      '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.default = handler;\nfunction handler() {}',
      ['default'],
    ],
    ['a byte order mark', 'endpoint.ts', '\uFEFFexport function GET(req: Request) {}', ['GET']],
    ['a byte order mark in CommonJS', 'endpoint.js', '\uFEFFexports.GET = () => {};', ['GET']],
    ['a hashbang', 'endpoint.mjs', '#!/usr/bin/env node\nexport function GET() {}', ['GET']],
    [
      'type-only exports only (none at run time)',
      'endpoint.mts',
      "export type { Db } from './db';\nexport type * from './types';\nexport default interface Foo {}\nexport declare function GET(): Response;",
      [],
    ],
    [
      'decorators and overloads',
      'endpoint.ts',
      '@sealed\nexport class Api {}\nexport function GET(): Response;\nexport function GET(req?: Request) { return new Response(); }',
      ['Api', 'GET'],
    ],
    ['an empty file', 'endpoint.ts', '', []],
    ['a file of comments', 'endpoint.js', '// nothing yet\n/* GET */', []],
  ];
  for (const [what, name, source, expected] of names) {
    it(`reads ${what}`, () => {
      const file = fileOf(name, source);
      const info = readExports(file);
      expect(info.parseError).to.equal(undefined);
      expect(info.names).to.deep.equal(expected);
      expect(info.namesIncomplete).to.equal(false);
      // The syntax tree agrees, where it parses (decorators are not among the syntax `check` parses).
      const exact = readExportsExactly(file);
      if (exact || !source.startsWith('@'))
        expect(exact).to.deep.include({ names: expected, namesIncomplete: false });
    });
  }

  // The CommonJS lexer reads an object up to its first member that is not `name` or `name: value`: at startup
  // its names stay open until the import, and the syntax tree reads them all.
  const objects: [string, string, string, string[]][] = [
    [
      'CommonJS module.exports = { … }',
      'endpoint.js',
      'function GET() {}\nmodule.exports = { GET, POST: function () {} };',
      ['GET', 'POST'],
    ],
    [
      'CommonJS module.exports = { … } with arrows and methods',
      'endpoint.js',
      "module.exports = {\n  GET: (req) => new Response('a, b'),\n  async POST(req) { return f(req, { x: [1, 2] }); },\n  get PUT() { return h; },\n  'DELETE': x => x,\n  PATCH,\n};",
      ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'],
    ],
    ['CommonJS accessors', 'endpoint.js', 'module.exports = { get GET() { return h; } };', ['GET']],
    [
      '.cts with export =',
      'endpoint.cts',
      'function GET(): Response { return new Response(); }\nexport = { GET };',
      ['GET'],
    ],
    [
      '.cts with export = and types',
      'endpoint.cts',
      'interface Ctx { id: string }\nexport = {\n  GET: (req: Request, ctx: Ctx): Response => new Response(ctx.id),\n};',
      ['GET'],
    ],
    [
      'CommonJS object with a comment',
      'endpoint.js',
      'module.exports = {\n  // the handlers\n  GET: (req) => new Response(),\n};',
      ['GET'],
    ],
    [
      'CommonJS object with a generic cast',
      'endpoint.cts',
      'export = { GET: h as Map<string, Handler>, POST: h2 };',
      ['GET', 'POST'],
    ],
    [
      'TypeScript export = beside imports',
      'endpoint.cts',
      "import type { Ctx } from './ctx';\nimport fs = require('node:fs');\nexport = { GET: (req: Request, ctx: Ctx) => new Response() };",
      ['GET'],
    ],
  ];
  for (const [what, name, source, expected] of objects) {
    it(`leaves the names of ${what} open at startup, and reads them all from the syntax tree`, () => {
      const file = fileOf(name, source);
      const info = readExports(file);
      expect(info.namesIncomplete).to.equal(true);
      expect(expected).to.include.members(info.names); // what it names is exported
      expect(readExportsExactly(file)).to.deep.equal({
        names: expected,
        namesIncomplete: false,
        nonFunctions: [],
      });
    });
  }

  const incomplete: [string, string, string][] = [
    ['export * from', 'endpoint.ts', "export * from './handlers';\nexport const config = {};"],
    ['CommonJS module.exports = require(…)', 'endpoint.js', "module.exports = require('./handlers');"],
    ['CommonJS ...require spread', 'endpoint.js', "module.exports = { ...require('./handlers') };"],
    [
      'CommonJS module.exports = identifier',
      'endpoint.js',
      "const handlers = require('./h');\nmodule.exports = handlers;",
    ],
    [
      'CommonJS object with a spread',
      'endpoint.js',
      "const h = require('./h');\nmodule.exports = { ...h, GET() {} };",
    ],
    [
      'CommonJS object with a computed key',
      'endpoint.js',
      "const m = 'GET';\nmodule.exports = { [m]: () => {}, POST() {} };",
    ],
  ];
  for (const [what, name, source] of incomplete) {
    it(`marks the names incomplete (namesIncomplete) for ${what}`, () => {
      const file = fileOf(name, source);
      expect(readExports(file).namesIncomplete).to.equal(true);
      expect(readExportsExactly(file)?.namesIncomplete).to.equal(true);
    });
  }

  it('lists names before and beside export *', () => {
    const info = readExports(
      fileOf('endpoint.ts', "export const config = {};\nexport * from './h';\nexport function GET() {}"),
    );
    // config looks like a literal, but no handler does: nothing calls for the syntax tree.
    expect(info).to.deep.equal({ names: ['config', 'GET'], namesIncomplete: true, nonFunctions: [] });
  });

  // Startup reads a module from its syntax tree when a handler looks like a literal, so both readers flag these.
  describe('nonFunctions', () => {
    const literal: [string, string][] = [
      ['a number', 'export const GET = 42;'],
      ['a negative number', 'export const GET = -1.5e3;'],
      ['a hex bigint', 'export const GET = 0xffn;'],
      ['a string', "export const GET = 'hello';"],
      ['a string with an escaped quote', 'export const GET = "a\\"b";'],
      ['true', 'export const GET = true;'],
      ['null', 'export const GET = null;'],
      ['an object literal', 'export const GET = { status: 200, body: "}" };'],
      ['a nested object literal', 'export const GET = { a: { b: [1, 2] }, handler() { return 1; } };'],
      ['an array literal', 'export const GET = [1, 2, 3];'],
      ['a typed literal in TypeScript', 'export const GET: number = 42;'],
      ['a literal with a generic annotation', 'export const GET: Record<string, number> = { a: 1 };'],
      [
        'a literal with an object and function type annotation',
        'export const GET: { a: (x: number) => void; b: \'x\' | "y" } = { a: 1 } as any;',
      ],
      ['a literal as const', 'export const GET = { a: 1 } as const;'],
      ['a literal satisfies a type', 'export const GET = [1] satisfies Array<number>;'],
      ['a literal cast twice', "export const GET = 'x' as unknown as Handler;"],
      ['a literal without a semicolon', 'export const GET = 42\nexport function POST() {}'],
      ['a literal at the end of the file', 'export const GET = 42\n'],
      ['a literal with spacing', 'export   const\tGET  =\n  { a: 1 }  ;'],
      ['a literal in CRLF source', 'export const GET = "x"\r\nexport function POST() {}\r\n'],
      ['a default literal', 'export default 42;'],
      ['a default object literal', 'export default { GET() {} };'],
      ['the first of several declarations', 'export const GET = 1, POST = () => {};'],
      ['a later declaration in a list', 'export const POST = () => {}, GET = 1;'],
      ['a literal containing a regex', 'export const GET = { re: /}/ };'],
      ['a template literal', 'export const GET = `x`;'],
      ['an angle-bracket cast', 'export const GET = <Handler>(<unknown>42);'],
      ['a non-null assertion', 'export const GET = null!;'],
      ['a comment before the name', 'export const /* handler */ GET = 42;'],
      // `[0] as any[]` indexed on the next line, or an array type: a number or an array, not a function.
      ['a literal cast and indexed on the next line', 'export const GET = [0] as any[]\n[0];'],
    ];
    for (const [what, source] of literal) {
      it(`flags ${what}`, () => {
        const file = fileOf('endpoint.ts', source);
        const expected = source.startsWith('export default') ? 'default' : 'GET';
        expect(readExports(file).nonFunctions).to.deep.equal([expected]);
        expect(readExportsExactly(file)?.nonFunctions).to.deep.equal([expected]);
      });
    }

    it('leaves a literal startup does not see coming to the import; the syntax tree flags it', () => {
      // A comment where the value starts: startup reads no further, and the import finds 42 is no function.
      const file = fileOf('endpoint.ts', 'export const GET = /* soon */ 42;');
      expect(readExports(file).nonFunctions).to.deep.equal([]);
      expect(readExportsExactly(file)?.nonFunctions).to.deep.equal(['GET']);
    });

    const notFlagged: [string, string][] = [
      ['a function declaration', 'export function GET() {}'],
      ['an arrow function', 'export const GET = () => new Response();'],
      ['a function expression', 'export const GET = function () {};'],
      ['an identifier', 'const h = () => {};\nexport const GET = h;'],
      ['a call', 'export const GET = make(42);'],
      ['a let (reassignable)', 'export let GET = 42;\nGET = () => {};'],
      ['a var', 'export var GET = 42;'],
      ['a conditional', 'export const GET = 1 ? () => {} : 2;'],
      ['a logical fallback', 'export const GET = 0 || (() => {});'],
      ['a member of an array literal', 'export const GET = [() => {}][0];'],
      ['a member of an object literal', 'export const GET = { h() {} }.h;'],
      ['a string expression', "export const GET = 'a' + b;"],
      ['a class', 'export const GET = class {};'],
      ['an export list of a literal', 'const a = 42;\nexport { a as GET };'],
      ['a literal in a logical expression after a cast', 'export const GET = 0 as number || (() => {});'],
      ['a literal continued on the next line', 'export const GET = 0\n  || (() => {});'],
      ['a literal continued by a member on the next line', 'export const GET = { h() {} }\n.h;'],
      ['a function-typed annotation', 'export const GET: () => Response = () => new Response();'],
      ['a generic call', 'export const GET = make<number>(42);'],
      [
        'a declaration without initializer (declare)',
        'export declare const GET: number;\nexport const POST = 1;',
      ],
    ];
    for (const [what, source] of notFlagged) {
      it(`does not flag ${what}`, () => {
        const file = fileOf('endpoint.ts', source);
        for (const info of [readExports(file), readExportsExactly(file)!]) {
          expect(info.nonFunctions).to.not.include('GET');
          if (!source.startsWith('export declare')) expect(info.names).to.include('GET');
        }
      });
    }

    it('only reports exported literals, by name', () => {
      const source =
        'export const config = { bodyLimit: 10 };\nexport const PUT = 1;\nexport function GET() {}';
      expect(readExports(fileOf('endpoint.ts', source)).nonFunctions).to.deep.equal(['config', 'PUT']);
    });

    it('flags CommonJS literals from the syntax tree; startup leaves them to the import', () => {
      const file = fileOf('endpoint.js', 'exports.GET = 42;\nmodule.exports.POST = { a: 1 };');
      expect(readExports(file).nonFunctions).to.deep.equal([]);
      expect(readExportsExactly(file)?.nonFunctions).to.deep.equal(['GET', 'POST']);
    });
  });

  describe('code the lexer cannot read', () => {
    // Lexing is not validation: such code may be valid, so its names are unknown (namesIncomplete) rather than an error;
    // mountEndpoints checks the real exports after import, and the import reports a real syntax error.
    const unreadable: [string, string, string][] = [
      ['unbalanced brackets', 'endpoint.js', 'export function GET( {'],
      ['an unterminated string', 'endpoint.mjs', "export const a = 'oops\n"],
      ['an unterminated template literal', 'endpoint.ts', 'export const a = `oops'],
      ['JSX', 'endpoint.js', 'export function GET() { return <div a="}">{"x"}</div>; }'],
      ['JSX in CommonJS', 'endpoint.cjs', 'exports.GET = () => <div>{"/"}</div>;'],
    ];
    for (const [what, name, source] of unreadable) {
      it(`marks the names unknown for ${what}, with the lexer's message, without throwing`, () => {
        const info = readExports(fileOf(name, source));
        expect(info.parseError)
          .to.be.a('string')
          .and.match(/\(line \d+, column \d+\)$/);
        expect(info).to.deep.include({ names: [], namesIncomplete: true, nonFunctions: [] });
      });
    }

    it('gives the position of the problem', () => {
      const info = readExports(
        fileOf('endpoint.ts', "export const GET = () => {};\nexport const a = 'oops\n"),
      );
      expect(info.parseError).to.equal('Parse error (line 2, column 23)');
    });

    // Syntax errors the lexer does not notice give the names it saw; the import step reports them.
    const lexable: [string, string, string, string[]][] = [
      ['a missing initializer', 'endpoint.ts', 'export const x: = 1;', ['x']],
      ['types in a .js file', 'endpoint.js', 'export function GET(req: Request) {}', ['GET']],
      ['a CommonJS syntax error', 'endpoint.cjs', 'exports.GET = ;', ['GET']],
    ];
    for (const [what, name, source, expected] of lexable) {
      it(`reads the names it can in ${what}`, () => {
        const info = readExports(fileOf(name, source));
        expect(info).to.deep.equal({ names: expected, namesIncomplete: false, nonFunctions: [] });
      });
    }

    it('marks the names unknown for a file that cannot be read', () => {
      const info = readExports(path.join(dir, 'missing.ts'));
      expect(info.parseError).to.match(/ENOENT/);
      expect(info.namesIncomplete).to.equal(true);
    });
  });

  it('never runs the code', () => {
    const marker = path.join(dir, 'ran');
    const source = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x');\nthrow new Error('ran');\nexports.GET = () => {};`;
    expect(readExports(fileOf('endpoint.js', source)).names).to.deep.equal(['GET']);
    expect(existsSync(marker)).to.equal(false);
  });
});
