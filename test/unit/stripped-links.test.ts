/**
 * The reading that keeps a file from a stripped import that would fail to link (Node would keep it failed, so tsx
 * could not load it afterwards): every name imported without `type` must be a value its target exports.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { importedNames, linksWhenStripped } from '../../src/load/stripped-links';

describe('stripped links: the names an import statement takes', () => {
  it('named, renamed, default and namespace imports; `type` ones left out', () => {
    expect(importedNames("import { a, b as c, type T } from './x.ts'")).to.deep.equal(['a', 'b']);
    expect(importedNames("import d, { e } from './x.ts'")).to.deep.equal(['default', 'e']);
    expect(importedNames("import * as ns from './x.ts'")).to.deep.equal([]);
    expect(importedNames("import d, * as ns from './x.ts'")).to.deep.equal(['default']);
    expect(importedNames("import './x.ts'")).to.deep.equal([]);
    expect(importedNames("import {\n  a,\n  b,\n} from './x.ts'")).to.deep.equal(['a', 'b']);
  });

  it('nothing certain where comments or strings sit among the names', () => {
    expect(importedNames("import { a /* , b */ } from './x.ts'")).to.equal(undefined);
    expect(importedNames("import { 'a-b' as ab } from './x.ts'")).to.equal(undefined);
  });
});

describe('stripped links: whether a file links once stripped', () => {
  let dir: string;
  let count = 0;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ee-links-'));
    writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
    const files: Record<string, string> = {
      'lib/values.ts':
        'export const a = 1;\nexport function f(): void {}\nexport default 2;\nexport interface T { x: 1 }\n',
      'lib/all.ts': "export * from './values.ts';\n",
      'lib/cycle-a.ts': "import { b } from './cycle-b.ts';\nexport const a = b;\n",
      'lib/cycle-b.ts': "import { a } from './cycle-a.ts';\nexport const b = 1;\nexport const c = () => a;\n",
      'lib/script.js': 'exports.a = 1;\n',
      'cjs/package.json': '{ "type": "commonjs" }',
      'cjs/values.ts': 'export const a = 1;\n',
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const links = (source: string) => {
    const file = path.join(dir, `endpoint-${count++}.ts`);
    writeFileSync(file, `${source}\nexport function GET(): Response { return new Response('x'); }\n`);
    return linksWhenStripped(file);
  };

  it('links: values of relative .ts files, types imported as types, built-in values, side effects', () => {
    const linking = [
      "import { a, f } from './lib/values.ts';",
      "import value from './lib/values.ts';",
      "import type { T } from './lib/values.ts';",
      "import { a, type T } from './lib/values.ts';",
      "import { a } from './lib/all.ts';",
      "import { a } from './lib/cycle-a.ts';",
      "import * as everything from './lib/values.ts';",
      "import { createHash } from 'node:crypto';",
      "import path from 'node:path';",
      "import 'some-package';",
      "export { a } from './lib/values.ts';",
      "export type { T } from './lib/values.ts';",
      // NodeNext's spelling: the `.js` of a file that is `.ts` on disk, as TypeScript and tsx read it.
      "import { a } from './lib/values.js';",
    ];
    expect(linking.filter((source) => !links(source))).to.deep.equal([]);
  });

  it('does not: a type imported as a value, a package name, an import only tsx resolves', () => {
    const failing = [
      "import { T } from './lib/values.ts';",
      "import { missing } from './lib/all.ts';",
      "export { T } from './lib/values.ts';",
      "import { RequestListener } from 'node:http';",
      "import { Router } from 'express';",
      "import express from 'express';",
      "import { a } from './lib/values';",
      "import { a } from './lib/script.js';",
      "import { a } from './cjs/values.ts';",
      "import { a /* why */ } from './lib/values.ts';",
    ];
    expect(failing.filter((source) => links(source))).to.deep.equal([]);
  });

  it('looks through the files a file imports', () => {
    writeFileSync(
      path.join(dir, 'lib/typed.ts'),
      "import { T } from './values.ts';\nexport const typed = 1;\n",
    );
    expect(links("import { typed } from './lib/typed.ts';")).to.equal(false);
  });
});
