/**
 * `check` parses every file as the loader will run it: a CommonJS file as a sloppy-mode script, TypeScript
 * with its decorators. Code that runs must not be reported as a syntax error.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { checkStartup } from '../../src/check';
import { discoverTree } from '../../src/discover';

describe('check: parsing as the loader runs', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'ee-check-parse-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const problemsOf = (files: Record<string, string>) => {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    return checkStartup(discoverTree(path.join(dir, 'app'))).problems.map((p) => p.message);
  };

  it('a CommonJS file with sloppy-mode code (a legacy octal literal) parses', () => {
    const problems = problemsOf({
      'package.json': '{ "type": "commonjs" }',
      'app/files/endpoint.js': 'const mode = 0755;\nexports.GET = () => new Response(String(mode));\n',
      'app/old/endpoint.cjs': 'with (Math) exports.GET = () => new Response(String(PI));\n',
    });
    expect(problems).to.deep.equal([]);
  });

  it('TypeScript with decorators parses', () => {
    const problems = problemsOf({
      'app/users/endpoint.ts':
        'function logged(target: unknown, key: string) {}\n' +
        'class Users { @logged list() { return []; } }\n' +
        'export function GET() { return Response.json(new Users().list()); }\n',
    });
    expect(problems).to.deep.equal([]);
  });

  it('an ES module keeps strict mode: a legacy octal literal in a .mjs file is a syntax error', () => {
    const problems = problemsOf({
      'app/strict/endpoint.mjs': 'export const GET = () => new Response(String(0755));\n',
    });
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/endpoint\.mjs:1:\d+: .*octal/i);
  });
});
