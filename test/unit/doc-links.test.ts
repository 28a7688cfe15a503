/**
 * The documentation holds together: every relative link in the README, docs/, SECURITY.md, CONTRIBUTING.md,
 * CHANGELOG.md, the example app's README and bench/README.md points to a file that exists, and every `#anchor`
 * to a heading of that file, as GitHub names it. And CONTRIBUTING.md's map of src/ names what is there: every
 * entry, and every floor of .dependency-cruiser.cjs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { docFiles, readmeSnippets, ROOT } from '../support/readme-snippets';

const FILES = [...docFiles(), 'CHANGELOG.md', 'bench/README.md'];

/** The text outside fenced code blocks, with inline code spans blanked (they hold no links). */
function prose(text: string): string {
  return text
    .replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, (span) => span.replace(/[^\n]/g, ' '));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings, with GitHub's `-1`, `-2` suffixes for repeats. */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(heading as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

interface Link {
  line: number;
  target: string;
}

function linksOf(file: string): Link[] {
  const text = prose(readFileSync(path.join(ROOT, file), 'utf8'));
  const links: Link[] = [];
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const line = text.slice(0, match.index).split('\n').length;
    links.push({ line, target: match[1] as string });
  }
  return links;
}

describe('documentation links', () => {
  for (const file of FILES) {
    it(`every relative link in ${file} points to an existing file and heading`, () => {
      const links = linksOf(file).filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
      const broken: string[] = [];
      for (const { line, target } of links) {
        const [pathPart = '', anchor] = target.split('#', 2);
        const resolved = pathPart
          ? path.resolve(path.dirname(path.join(ROOT, file)), decodeURIComponent(pathPart))
          : path.join(ROOT, file);
        if (!existsSync(resolved)) {
          broken.push(`${file}:${line}: ${target} (no such file)`);
          continue;
        }
        if (anchor === undefined) continue;
        if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) {
          broken.push(`${file}:${line}: ${target} (an anchor into something that is not Markdown)`);
        } else if (!anchorsOf(resolved).has(anchor)) {
          broken.push(`${file}:${line}: ${target} (no heading with that anchor)`);
        }
      }
      expect(broken).to.deep.equal([]);
    });
  }

  it('the README links to every page of docs/, and docs/README.md does too', () => {
    const pages = readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
    const targets = (file: string) =>
      new Set(
        linksOf(file).map(({ target }) =>
          path.relative(
            ROOT,
            path.resolve(path.dirname(path.join(ROOT, file)), target.split('#')[0] as string),
          ),
        ),
      );
    const fromReadme = targets('README.md');
    const fromIndex = targets('docs/README.md');
    expect(fromReadme.has('docs/README.md'), 'README.md → docs/README.md').to.equal(true);
    for (const page of pages.filter((name) => name !== 'README.md')) {
      expect(fromReadme.has(`docs/${page}`), `README.md → docs/${page}`).to.equal(true);
      expect(fromIndex.has(`docs/${page}`), `docs/README.md → docs/${page}`).to.equal(true);
    }
    for (const file of ['SECURITY.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'examples/express-app/README.md'])
      expect(fromReadme.has(file), `README.md → ${file}`).to.equal(true);
  });

  it("the README stays a front page of 400 lines at most: the detail is the docs pages'", () => {
    const lines = readFileSync(path.join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).to.be.at.most(400);
  });

  it('headings are turned into anchors as GitHub does', () => {
    expect(slug('`check --load`')).to.equal('check---load');
    expect(slug('`after(fn)`: work after the response')).to.equal('afterfn-work-after-the-response');
    expect(slug('3. Mount it')).to.equal('3-mount-it');
    expect(slug('Where it differs from Next.js route handlers, on purpose')).to.equal(
      'where-it-differs-from-nextjs-route-handlers-on-purpose',
    );
  });
});

describe("CONTRIBUTING.md's map of src/", () => {
  const contributing = readmeSnippets('CONTRIBUTING.md');
  const map = contributing.find((s) => s.lang === '' && /^src\//.test(s.code));
  const entries = readdirSync(path.join(ROOT, 'src'));

  it('names every entry of src/, and nothing that is not there', () => {
    expect(map, 'a code block of lines starting with src/').to.not.equal(undefined);
    const named = [...(map?.code ?? '').matchAll(/^src\/([\w.-]+)/gm)].map((m) => m[1]);
    expect([...named].sort()).to.deep.equal([...entries].sort());
  });

  it('states the floors of .dependency-cruiser.cjs, each room on its floor', () => {
    const { forbidden } = require('../../.dependency-cruiser.cjs') as {
      forbidden: { name: string; comment: string }[];
    };
    const floors = new Map<string, number>();
    for (const rule of forbidden) {
      const room = /^down-only: (\S+)$/.exec(rule.name)?.[1];
      const floor = /is on floor (\d+)/.exec(rule.comment)?.[1];
      if (room && floor) floors.set(room, Number(floor));
    }
    expect(floors.size).to.be.greaterThan(0);
    const text = readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');
    const stated = new Map<string, number>();
    for (const [, floor, rooms] of text.matchAll(/^\|\s*(\d+)\s*\|([^|]*)\|/gm)) {
      for (const [, room] of (rooms as string).matchAll(/`(src\/[^`]+)`/g))
        stated.set(room as string, Number(floor));
    }
    for (const [room, floor] of floors) expect(stated.get(room), room).to.equal(floor);
    for (const room of stated.keys())
      expect(existsSync(path.join(ROOT, room)), `${room} exists`).to.equal(true);
  });
});
