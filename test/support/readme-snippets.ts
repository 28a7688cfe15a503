/**
 * The documentation's code blocks and links, for the tests that keep them true: the README, docs/, SECURITY.md,
 * CONTRIBUTING.md and the example app's README. A block may be named by an HTML comment right before it,
 * `<!-- doc-test: NAME -->`; readme.test.ts (package tests) runs the named adoption snippets in scratch apps,
 * readme-snippets.test.ts parses every JavaScript, TypeScript and JSON block, and doc-links.test.ts follows
 * every relative link.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface Snippet {
  /** The documentation file, relative to the repository's root. */
  file: string;
  /** The `doc-test` name, when the block has one. */
  name?: string;
  /** The info string: `ts`, `js`, `sh`, `json`… */
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

export const ROOT = path.resolve(__dirname, '../..');
export const README = path.join(ROOT, 'README.md');

/** The documentation whose code blocks are tested, relative to the repository's root. */
export function docFiles(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs, 'SECURITY.md', 'CONTRIBUTING.md', 'examples/express-app/README.md'];
}

/** The code blocks of one file (absolute, or relative to the repository's root). */
export function readmeSnippets(file = README): Snippet[] {
  const text = readFileSync(path.resolve(ROOT, file), 'utf8');
  const relative = path.relative(ROOT, path.resolve(ROOT, file)).split(path.sep).join('/');
  const snippets: Snippet[] = [];
  const fence = /^(?:<!-- doc-test: ([\w-]+) -->\n\n)?```(\w*)\n([\s\S]*?)^```$/gm;
  for (const match of text.matchAll(fence)) {
    const line = text.slice(0, match.index + match[0].indexOf('```')).split('\n').length;
    snippets.push({ file: relative, name: match[1], lang: match[2] ?? '', code: match[3] ?? '', line });
  }
  return snippets;
}

/** The code blocks of every documentation file. */
export function docSnippets(): Snippet[] {
  return docFiles().flatMap((file) => readmeSnippets(file));
}

/** The one snippet named `name` in the documentation; throws when there is not exactly one. */
export function snippet(name: string): Snippet {
  const found = docSnippets().filter((s) => s.name === name);
  if (found.length !== 1) throw new Error(`docs: expected one snippet named ${name}, found ${found.length}`);
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
