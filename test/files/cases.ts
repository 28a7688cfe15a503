/**
 * The requests the files suite sends to both sides, and what is known to differ on each, with the
 * reason docs/files.md gives: sendFile's (`/file`, `/download`) and serveStatic's (`/static…`).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { PUBLIC } from '../fixtures/files-app/options';
import type { Compared } from './apps';

export const hello = statSync(path.join(PUBLIC, 'hello.txt'));
export const ETAG = `W/"${hello.size.toString(16)}-${hello.mtime.getTime().toString(16)}"`;
export const LAST_MODIFIED = hello.mtime.toUTCString();
const BEFORE = new Date(hello.mtime.getTime() - 86_400_000).toUTCString();
const AFTER = new Date(hello.mtime.getTime() + 86_400_000).toUTCString();

export interface Differs {
  /** Headers whose values differ. */
  headers?: Compared[];
  /** The statuses of both sides, when they differ. */
  status?: [native: number, ported: number];
  why: string;
  /** Only in an Express app, whose ETag setting gives bodies sent whole an ETag. */
  expressOnly?: boolean;
}

export interface Case {
  /** Below /native and /ported. */
  path: string;
  method?: string;
  headers?: Record<string, string>;
  /** What differs on this request, and why (docs/files.md). */
  differs?: Differs;
}

/** The 301's body is sent whole, and the tree gives bodies sent whole the app's ETag. */
const REDIRECT_ETAG: Differs = {
  headers: ['etag'],
  why: 'a body sent whole gets the app ETag',
  expressOnly: true,
};
/** With `etag: false`, a file of one chunk is sent whole, and gets the app's ETag too. */
const SMALL_FILE_ETAG = {
  headers: ['etag'] as Compared[],
  why: 'etag: false, and a small file is sent whole',
};

const conditional = (base: string): Case[] => [
  { path: base, headers: { 'if-none-match': ETAG } },
  { path: base, headers: { 'if-none-match': 'W/"0-0"' } },
  { path: base, headers: { 'if-none-match': `"x", ${ETAG}` } },
  { path: base, headers: { 'if-none-match': '*' } },
  { path: base, headers: { 'if-none-match': ETAG, 'cache-control': 'no-cache' } },
  { path: base, headers: { 'if-modified-since': LAST_MODIFIED } },
  { path: base, headers: { 'if-modified-since': AFTER } },
  { path: base, headers: { 'if-modified-since': BEFORE } },
  { path: base, headers: { 'if-match': ETAG } },
  { path: base, headers: { 'if-match': 'W/"0-0"' } },
  { path: base, headers: { 'if-match': '*' } },
  { path: base, headers: { 'if-unmodified-since': BEFORE } },
  { path: base, headers: { 'if-unmodified-since': AFTER } },
  { path: base, method: 'HEAD', headers: { 'if-none-match': ETAG } },
];

const ranges = (base: string): Case[] => [
  { path: base, headers: { range: 'bytes=0-9' } },
  { path: base, headers: { range: 'bytes=-5' } },
  { path: base, headers: { range: 'bytes=10-' } },
  { path: base, headers: { range: 'bytes=40-9999' } },
  { path: base, headers: { range: 'bytes=999999-' } },
  { path: base, headers: { range: 'bytes=0-1,5-6' } },
  { path: base, headers: { range: 'bytes=0-4,3-9' } },
  { path: base, headers: { range: 'bytes=abc' } },
  { path: base, headers: { range: 'items=0-1' } },
  { path: base, headers: { range: 'bytes=0-9', 'if-range': ETAG } },
  { path: base, headers: { range: 'bytes=0-9', 'if-range': 'W/"0-0"' } },
  { path: base, headers: { range: 'bytes=0-9', 'if-range': LAST_MODIFIED } },
  { path: base, headers: { range: 'bytes=0-9', 'if-range': BEFORE } },
  { path: base, headers: { range: 'bytes=999999-', 'if-range': 'W/"0-0"' } },
  { path: base, headers: { range: 'bytes=0-9', 'if-none-match': ETAG } },
  { path: base, method: 'HEAD', headers: { range: 'bytes=0-9' } },
];

export const CASES: Case[] = [
  // res.sendFile(name, { root }) and its options
  { path: '/file?name=hello.txt' },
  { path: '/file?name=hello.txt', method: 'HEAD' },
  ...conditional('/file?name=hello.txt'),
  ...ranges('/file?name=hello.txt'),
  { path: '/file?name=page.html' },
  { path: '/file?name=data.json' },
  { path: '/file?name=plain' },
  { path: '/file?name=empty.txt' },
  { path: '/file?name=empty.txt', headers: { range: 'bytes=0-' } },
  { path: '/file?name=with%20space/file%20name.txt' },
  { path: '/file?name=hello.txt&maxAge=86400000' },
  { path: '/file?name=hello.txt&maxAge=1d&immutable=1' },
  { path: '/file?name=hello.txt&maxAge=2.5h' },
  { path: '/file?name=hello.txt&maxAge=never' },
  { path: '/file?name=hello.txt&maxAge=99999999999999' },
  { path: '/file?name=hello.txt&lastModified=0' },
  { path: '/file?name=hello.txt&lastModified=0', headers: { 'if-modified-since': AFTER } },
  { path: '/file?name=hello.txt&lastModified=0', headers: { range: 'bytes=0-9', 'if-range': LAST_MODIFIED } },
  { path: '/file?name=hello.txt&acceptRanges=0', headers: { range: 'bytes=0-9' } },
  { path: '/file?name=hello.txt&cacheControl=0' },
  { path: '/file?name=hello.txt&header=1' },
  { path: '/file?name=hello.txt&header=1', headers: { 'if-none-match': ETAG } },
  { path: '/file?name=.hidden' },
  { path: '/file?name=.hidden&dotfiles=deny' },
  { path: '/file?name=.hidden&dotfiles=allow' },
  { path: '/file?name=.dotdir/inside.txt' },
  { path: '/file?name=.dotdir/inside.txt&dotfiles=deny' },
  { path: '/file?name=../secret.txt' },
  { path: '/file?name=sub/../../secret.txt' },
  { path: '/file?name=..%5Csecret.txt' },
  { path: '/file?name=/../secret.txt' },
  { path: '/file?name=%2E%2E/secret.txt' },
  { path: '/file?name=hello.txt%00.png' },
  { path: '/file?name=missing.txt' },
  { path: '/file?name=sub' },
  { path: '/file?name=sub/' },
  { path: '/file?name=sub/&index=0' },
  { path: '/file?name=noindex/' },
  { path: '/file?name=hello.txt/' },
  { path: '/file?name=hello.txt&abs=1' },
  { path: '/file?name=../secret.txt&abs=1' },
  { path: '/file?name=.hidden&abs=1' },
  { path: '/file?name=missing.txt&abs=1' },
  // res.download(file, [as], options)
  { path: '/download?name=hello.txt' },
  { path: '/download?name=hello.txt', method: 'HEAD' },
  { path: '/download?name=hello.txt&as=report.txt' },
  { path: '/download?name=hello.txt&as=r%C3%A9sum%C3%A9%202026.txt' },
  { path: '/download?name=hello.txt&as=a%20%22quoted%22%20name.txt' },
  { path: '/download?name=hello.txt&as=dir/nested.txt' },
  { path: '/download?name=hello.txt&header=1' },
  { path: '/download?name=hello.txt&abs=1' },
  { path: '/download?name=hello.txt', headers: { range: 'bytes=0-9' } },
  { path: '/download?name=hello.txt', headers: { 'if-none-match': ETAG } },
  { path: '/download?name=hello.txt', headers: { range: 'bytes=999999-' } },
  { path: '/download?name=missing.txt' },
  // express.static(PUBLIC)
  { path: '/static/hello.txt' },
  { path: '/static/hello.txt', method: 'HEAD' },
  ...conditional('/static/hello.txt'),
  ...ranges('/static/hello.txt'),
  { path: '/static/page.html' },
  { path: '/static/with%20space/file%20name.txt' },
  { path: '/static/sub', differs: REDIRECT_ETAG },
  { path: '/static/sub', method: 'HEAD', differs: REDIRECT_ETAG },
  { path: '/static/sub?x=1&y=%20', differs: REDIRECT_ETAG },
  { path: '/static', differs: REDIRECT_ETAG },
  { path: '/static/' },
  { path: '/static/sub/' },
  { path: '/static/sub/index.html' },
  { path: '/static/sub/nested.txt' },
  { path: '/static/noindex', differs: REDIRECT_ETAG },
  { path: '/static/noindex/' },
  { path: '/static/missing.txt' },
  { path: '/static/hello.txt/' },
  { path: '/static/.hidden' },
  { path: '/static/.dotdir/inside.txt' },
  { path: '/static/..%2fsecret.txt' },
  { path: '/static/%2e%2e%2fsecret.txt' },
  { path: '/static/sub%2f..%2f..%2fsecret.txt' },
  { path: '/static/..%5csecret.txt' },
  { path: '/static/%00' },
  { path: '/static/hello.txt%00' },
  {
    path: '/static/%2e%2e/secret.txt',
    differs: { status: [404, 400], why: 'the tree refuses a dot segment before any endpoint runs' },
  },
  {
    path: '/static/sub/%2E%2E/hello.txt',
    differs: {
      status: [200, 400],
      headers: [
        ...'content-type content-length etag last-modified accept-ranges cache-control'.split(' '),
      ] as Compared[],
      why: 'the tree refuses a dot segment before any endpoint runs',
    },
  },
  { path: '/static/hello.txt', method: 'POST' },
  { path: '/static/hello.txt', method: 'DELETE' },
  // express.static(PUBLIC, { fallthrough: false, dotfiles: 'deny', maxAge: '1h', immutable: true, extensions: ['html'] })
  { path: '/static-strict/hello.txt' },
  { path: '/static-strict/hello.txt', headers: { range: 'bytes=999999-' } },
  { path: '/static-strict/hello.txt', headers: { 'if-match': 'W/"0-0"' } },
  { path: '/static-strict/about' },
  { path: '/static-strict/sub/index' },
  { path: '/static-strict/missing' },
  { path: '/static-strict/missing.txt' },
  { path: '/static-strict/.hidden' },
  { path: '/static-strict/.dotdir/inside.txt' },
  { path: '/static-strict/..%2fsecret.txt' },
  { path: '/static-strict/%00' },
  { path: '/static-strict/sub', differs: REDIRECT_ETAG },
  { path: '/static-strict/sub/' },
  { path: '/static-strict/noindex/' },
  { path: '/static-strict/hello.txt/' },
  // express.static(PUBLIC, { etag: false, lastModified: false, acceptRanges: false, cacheControl: false,
  //   index: false, redirect: false, dotfiles: 'allow' })
  { path: '/static-bare/hello.txt', differs: SMALL_FILE_ETAG },
  { path: '/static-bare/hello.txt', headers: { range: 'bytes=0-9' }, differs: SMALL_FILE_ETAG },
  { path: '/static-bare/.hidden', differs: SMALL_FILE_ETAG },
  { path: '/static-bare/sub' },
  { path: '/static-bare/sub/' },
  { path: '/static-bare/' },
];
