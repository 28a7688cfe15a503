/**
 * The README's code blocks, for the tests that keep them true. A block may be named by an HTML comment right
 * before it, `<!-- doc-test: NAME -->`; readme.test.ts (package tests) runs the named adoption snippets in
 * scratch apps, and readme-snippets.test.ts parses every JavaScript, TypeScript and JSON block.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface Snippet {
  /** The `doc-test` name, when the block has one. */
  name?: string;
  /** The info string: `ts`, `js`, `sh`, `json`… */
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

export const README = path.resolve(__dirname, '../../README.md');

export function readmeSnippets(file = README): Snippet[] {
  const text = readFileSync(file, 'utf8');
  const snippets: Snippet[] = [];
  const fence = /^(?:<!-- doc-test: ([\w-]+) -->\n\n)?```(\w*)\n([\s\S]*?)^```$/gm;
  for (const match of text.matchAll(fence)) {
    const line = text.slice(0, match.index + match[0].indexOf('```')).split('\n').length;
    snippets.push({ name: match[1], lang: match[2] ?? '', code: match[3] ?? '', line });
  }
  return snippets;
}

/** The one snippet named `name`; throws when there is not exactly one. */
export function snippet(name: string): Snippet {
  const found = readmeSnippets().filter((s) => s.name === name);
  if (found.length !== 1)
    throw new Error(`README: expected one snippet named ${name}, found ${found.length}`);
  return found[0] as Snippet;
}

/** The file a snippet is for, from its first line: `// app/api/hello/endpoint.ts — …`. */
export function fileOf(code: string): string {
  const file = /^\/\/ (\S+)/.exec(code)?.[1];
  if (!file) throw new Error(`snippet does not start with "// <file>":\n${code}`);
  return file;
}

/** The commands of a `sh` snippet, comments and blank lines left out. */
export function commandsOf(code: string): string[][] {
  return code
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean)
    .map((line) => line.split(/\s+/));
}
