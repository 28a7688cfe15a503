/**
 * Cases for the "files" app: express.static and serve-index (directories, redirects, dotfiles,
 * ranges, conditional requests), res.sendFile/res.download/res.attachment, res.render with ejs,
 * express.Router params, method-override and multer uploads.
 */
import { get, head, one, type Case } from './case-helpers';
import type { RawRequest } from './raw-client';

// The fixture's files have this mtime, so their ETag and Last-Modified are known.
const MTIME = new Date('2020-01-02T03:04:05Z');
const LAST_MODIFIED = MTIME.toUTCString();
const etagOf = (size: number) => `W/"${size.toString(16)}-${MTIME.getTime().toString(16)}"`;
const NOTES_SIZE = 'line one\nline two\nline three\n'.length;

const files = (request: RawRequest, name?: string): Case => ({
  ...one('files', request),
  ...(name ? { name } : {}),
});

const BOUNDARY = '----transparency-boundary';
function multipart(parts: { name: string; filename?: string; type?: string; value: string }[]): string {
  const body = parts.map((part) => {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const type = part.type ? `\r\nContent-Type: ${part.type}` : '';
    return `--${BOUNDARY}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n${part.value}\r\n`;
  });
  return `${body.join('')}--${BOUNDARY}--\r\n`;
}
const upload = (path: string, body: string): RawRequest => ({
  method: 'POST',
  path,
  headers: [['Content-Type', `multipart/form-data; boundary=${BOUNDARY}`]],
  body,
});

const STATIC_PATHS = [
  '/static/index.html',
  '/static/',
  '/static',
  '/static/sub',
  '/static/sub/',
  '/static/sub/deep.txt',
  '/static/style.css',
  '/static/data.json',
  '/static/empty.txt',
  '/static/notes.txt',
  '/static/.hidden',
  '/static/missing.txt',
  '/static/big.bin',
  '/static/%2e%2e/views/page.ejs',
  '/static/notes.txt?v=1',
];

export const FILE_CASES: Case[] = [
  ...STATIC_PATHS.map((path) => files(get(path))),
  ...['/static/index.html', '/static/', '/static/big.bin', '/static/sub'].map((path) => files(head(path))),
  files(get('/static/', [['Accept', 'application/json']])),
  files(get('/static/', [['Accept', 'text/plain']])),
  files(get('/static/notes.txt', [['Range', 'bytes=0-7']])),
  files(get('/static/notes.txt', [['Range', 'bytes=-6']])),
  files(get('/static/big.bin', [['Range', 'bytes=1000-']])),
  files(get('/static/notes.txt', [['Range', 'bytes=0-1,5-6']])),
  files(get('/static/notes.txt', [['Range', 'bytes=9999-']])),
  files(get('/static/notes.txt', [['If-None-Match', etagOf(NOTES_SIZE)]])),
  files(get('/static/notes.txt', [['If-Modified-Since', LAST_MODIFIED]])),
  files(get('/static/notes.txt', [['If-Modified-Since', 'Sat, 01 Jan 2000 00:00:00 GMT']])),
  files(get('/static/notes.txt', [['If-None-Match', '"something-else"']])),
  files(
    get('/static/notes.txt', [
      ['Range', 'bytes=0-3'],
      ['If-Range', etagOf(NOTES_SIZE)],
    ]),
  ),
  files({ method: 'POST', path: '/static/notes.txt', body: 'x' }),
  ...[
    '/file/notes.txt',
    '/file/big.bin',
    '/file/missing.txt',
    '/file/..%2fviews%2fpage.ejs',
    '/file-abs',
  ].map((path) => files(get(path))),
  files(head('/file/notes.txt')),
  files(get('/file/big.bin', [['Range', 'bytes=100-299']])),
  files(get('/file/notes.txt', [['If-None-Match', etagOf(NOTES_SIZE)]])),
  ...['/download/notes.txt', '/download/missing.txt', '/attachment', '/render', '/render-broken'].map(
    (path) => files(get(path)),
  ),
  files(head('/download/notes.txt')),
  ...['/users/1', '/users/missing', '/users/1/posts/2', '/users/%F0%9F%98%80', '/users/a%2Fb'].map((path) =>
    files(get(path)),
  ),
  files({ method: 'POST', path: '/resource/7?_method=DELETE' }),
  files({ method: 'POST', path: '/resource/7', headers: [['X-HTTP-Method-Override', 'PUT']] }),
  files(get('/resource/7')),
  files(
    upload(
      '/upload',
      multipart([
        { name: 'title', value: 'hello' },
        { name: 'file', filename: 'a.txt', type: 'text/plain', value: 'file contents' },
      ]),
    ),
    'multer: a field and a file',
  ),
  files(
    upload(
      '/upload-many',
      multipart([
        { name: 'files', filename: 'one.txt', type: 'text/plain', value: 'one' },
        { name: 'files', filename: 'two.bin', type: 'application/octet-stream', value: 'two two' },
      ]),
    ),
    'multer: two files',
  ),
  files(
    upload(
      '/upload',
      multipart([{ name: 'file', filename: 'big.txt', type: 'text/plain', value: 'x'.repeat(70_000) }]),
    ),
    'multer: a file over the limit goes to the error handler',
  ),
  files(upload('/upload', 'not multipart at all'), 'multer: a malformed body'),
  files({ method: 'POST', path: '/upload', headers: [['Content-Type', 'text/plain']], body: 'plain' }),
];
