/**
 * What the corpus apps serve from disk, made once per run with fixed contents and fixed mtimes
 * (ETag, Last-Modified and serve-index listings depend on them), and the three ways each app is
 * fronted: not at all, by a passthrough bridged middleware, and by one that copies the
 * Response and adds a header — the copy docs/middleware.md recommends.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { bridgeMiddleware } from '../../../src';

export type Variant = 'plain' | 'passthrough' | 'copy';
export const VARIANTS: Variant[] = ['plain', 'passthrough', 'copy'];

/** The header the copying middleware adds, as it appears on the wire. */
export const ADDED_HEADER_LINE = 'x-a: 1';

/**
 * The bridge's options here: the corpus includes Express's own `..` cases through
 * `express.static` (`/static/%2e%2e/views/page.ejs`), which a default bridge answers with 400
 * before its middleware runs (test/hardening/path-aliases.test.ts). These middleware guard
 * nothing by path, so they take such requests and let the app answer them as it would alone.
 */
const OPTIONS = { rewrittenPaths: 'resolve' } as const;

/** What goes in front of an app (and of a sub-app inside it, to nest bridges). */
export function frontFor(variant: Variant): RequestHandler[] {
  if (variant === 'plain') return [];
  if (variant === 'passthrough') return [bridgeMiddleware((_req, next) => next(), OPTIONS) as RequestHandler];
  return [
    bridgeMiddleware(async (_req, next) => {
      const response = await next();
      const copy = new Response(response.body, response);
      copy.headers.set('x-a', '1');
      return copy;
    }, OPTIONS) as RequestHandler,
  ];
}

export interface Fixture {
  root: string;
  publicDir: string;
  viewsDir: string;
  /** A 300 KiB file of deterministic bytes. */
  bigFile: string;
  textFile: string;
  remove(): void;
}

const MTIME = new Date('2020-01-02T03:04:05Z');

export function makeFixture(): Fixture {
  const root = mkdtempSync(path.join(tmpdir(), 'ee-transparency-'));
  const publicDir = path.join(root, 'public');
  const viewsDir = path.join(root, 'views');
  const files: Record<string, string | Buffer> = {
    'public/index.html': '<!doctype html><title>home</title><p>static home</p>\n',
    'public/style.css': 'body { color: #333; }\n'.repeat(20),
    'public/data.json': JSON.stringify({ items: [1, 2, 3] }),
    'public/empty.txt': '',
    'public/notes.txt': 'line one\nline two\nline three\n',
    'public/sub/deep.txt': 'deep file\n',
    'public/.hidden': 'secret\n',
    'public/big.bin': Buffer.from(Array.from({ length: 300 * 1024 }, (_, i) => (i * 7 + (i >> 8)) & 255)),
    'views/page.ejs':
      '<h1><%= title %></h1>\n<ul><% for (const item of items) { %><li><%= item %></li><% } %></ul>\n',
    'views/broken.ejs': '<p><%= missing.value %></p>\n',
  };
  for (const [name, contents] of Object.entries(files)) {
    const file = path.join(root, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, contents);
  }
  for (const name of [...Object.keys(files), 'public/sub', 'public', 'views']) {
    utimesSync(path.join(root, name), MTIME, MTIME);
  }
  return {
    root,
    publicDir,
    viewsDir,
    bigFile: path.join(publicDir, 'big.bin'),
    textFile: path.join(publicDir, 'notes.txt'),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
