/**
 * What sendFile and serveStatic throw, called as a handler calls them: the options send refuses
 * (TypeError, at once), and the FileError of each refusal, with the fields the app's error handler
 * reads (`status`, `statusCode`, `expose`, `code`, `headers`) and the file system's error as `cause`.
 */
import path from 'node:path';
import { expect } from 'chai';
import { FileError, sendFile, serveStatic } from '../../src/files';
import { PUBLIC } from '../fixtures/files-app/options';

const get = (headers: Record<string, string> = {}, url = 'http://localhost/x', method = 'GET') =>
  new Request(url, { method, headers });

async function refusal(promise: Promise<unknown>): Promise<FileError> {
  try {
    await promise;
  } catch (error) {
    return error as FileError;
  }
  throw new Error('expected a refusal');
}

describe('sendFile and serveStatic: refusals and options', () => {
  it('refuses a relative path without a root, and options send refuses, with a TypeError', async () => {
    expect((await refusal(sendFile(get(), 'hello.txt'))).name).to.equal('TypeError');
    expect((await refusal(sendFile(get(), ''))).name).to.equal('TypeError');
    const badDotfiles = { root: PUBLIC, dotfiles: 'hide' as 'deny' };
    expect((await refusal(sendFile(get(), 'hello.txt', badDotfiles))).message).to.include('dotfiles');
    expect(() => serveStatic('')).to.throw(TypeError, 'root path required');
    expect(() => serveStatic(PUBLIC, { index: [1 as unknown as string] })).to.throw(
      TypeError,
      'index option',
    );
  });

  it('throws a missing file as a 404 with the file system code, for the error handler', async () => {
    const error = await refusal(sendFile(get(), 'missing.txt', { root: PUBLIC }));
    expect(error).to.be.instanceOf(FileError);
    expect(error).to.include({
      status: 404,
      statusCode: 404,
      expose: true,
      code: 'ENOENT',
      message: 'Not Found',
    });
    expect((error.cause as NodeJS.ErrnoException).code).to.equal('ENOENT');
    // The message, which the client may see, does not name the path on disk; the cause does.
    expect(error.message).to.not.include(PUBLIC);
  });

  it('names each refusal by its code', async () => {
    const codes = async (file: string, options = {}) =>
      (await refusal(sendFile(get(), file, { root: PUBLIC, ...options }))).code;
    expect(await codes('../secret.txt')).to.equal('PATH_TRAVERSAL');
    expect(await codes('.hidden')).to.equal('ENOENT');
    expect(await codes('.hidden', { dotfiles: 'deny' })).to.equal('DOTFILE');
    expect(await codes('a\0b')).to.equal('NULL_BYTE');
    expect(await codes('sub')).to.equal('EISDIR');
    expect(await codes('hello.txt/')).to.equal('ENOTDIR');
  });

  it("gives a 416 the Content-Range and the validators send leaves on the error's answer", async () => {
    const error = await refusal(sendFile(get({ range: 'bytes=999-' }), 'hello.txt', { root: PUBLIC }));
    expect(error).to.include({ status: 416, code: 'RANGE_NOT_SATISFIABLE' });
    expect(error.headers).to.include({ 'content-range': 'bytes */52', 'accept-ranges': 'bytes' });
    expect(error.headers).to.have.property('etag');
    expect(error.headers).to.not.have.property('content-type');
  });

  it('gives a 412 the validators of the file', async () => {
    const error = await refusal(sendFile(get({ 'if-match': '"nope"' }), 'hello.txt', { root: PUBLIC }));
    expect(error).to.include({ status: 412, code: 'PRECONDITION_FAILED' });
    expect(error.headers).to.have.property('last-modified');
  });

  it('serveStatic: GET and HEAD only; another method is a 404 with fallthrough, a 405 with Allow without', async () => {
    const post = get({}, 'http://localhost/assets/hello.txt', 'POST');
    const params = { params: { path: ['hello.txt'] } };
    expect((await refusal(serveStatic(PUBLIC)(post, params))).status).to.equal(404);
    const strict = await refusal(serveStatic(PUBLIC, { fallthrough: false })(post, params));
    expect(strict).to.include({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    expect(strict.headers).to.deep.equal({ Allow: 'GET, HEAD' });
  });

  it('serveStatic: a refusal before a file is found is a 404 NOT_FOUND with fallthrough, itself without', async () => {
    const request = get({}, 'http://localhost/assets/.hidden');
    const params = { params: { path: ['.hidden'] } };
    const passed = await refusal(serveStatic(PUBLIC, { dotfiles: 'deny' })(request, params));
    expect(passed).to.include({ status: 404, code: 'NOT_FOUND' });
    expect((passed.cause as FileError).code).to.equal('DOTFILE');
    const own = await refusal(serveStatic(PUBLIC, { dotfiles: 'deny', fallthrough: false })(request, params));
    expect(own).to.include({ status: 403, code: 'DOTFILE' });
  });

  it('serveStatic: reads another param, and calls setHeaders before the headers made from the file', async () => {
    const seen: string[] = [];
    const handler = serveStatic(PUBLIC, {
      param: 'file',
      setHeaders: (headers, file) => {
        seen.push(path.relative(PUBLIC, file));
        headers.set('cache-control', 'no-cache');
      },
    });
    const response = await handler(get({}, 'http://localhost/a/sub/nested.txt'), {
      params: { file: ['sub', 'nested.txt'] },
    });
    expect(await response.text()).to.equal('nested file\n');
    expect(response.headers.get('cache-control')).to.equal('no-cache');
    expect(seen).to.deep.equal([path.join('sub', 'nested.txt')]);
  });

  it('download: a Content-Disposition in headers gives way to the attachment', async () => {
    const response = await sendFile(get(), 'hello.txt', {
      root: PUBLIC,
      download: 'report 2026.txt',
      headers: { 'content-disposition': 'inline' },
    });
    expect(response.headers.get('content-disposition')).to.equal('attachment; filename="report 2026.txt"');
  });
});

/**
 * An app whose error handler answers in its own shape and never reads `err.headers`, as most do: what
 * res.sendFile's send had set on the response before next(err) (a 416's Content-Range, the file's ETag and
 * Last-Modified) is on that answer, and sendFile's refusal leaves the same headers on it.
 */
describe('sendFile: a refusal under an error handler of the app that sets no headers', () => {
  let server: import('../support/net').Listening;
  before(async () => {
    const { default: express } = await import('express');
    const { mountEndpoints } = await import('../../src');
    const { listen } = await import('../support/net');
    const http = await import('node:http');
    const app = express();
    app.get('/native/file', (req, res) => res.sendFile('hello.txt', { root: PUBLIC }));
    await mountEndpoints(app, { dir: path.join(__dirname, '../fixtures/files-app/app') });
    app.use(((error: { status?: number }, _req, res, _next) => {
      res.status(error.status ?? 500).json({ error: error.status });
    }) as import('express').ErrorRequestHandler);
    server = await listen(http.createServer(app));
  });
  after(() => server.close());

  it('keeps the 416 Content-Range and the validators on its answer, as res.sendFile does', async () => {
    const headers = { range: 'bytes=999999-' };
    const [native, ported] = await Promise.all([
      fetch(`${server.url}/native/file`, { headers }),
      fetch(`${server.url}/ported/file?name=hello.txt`, { headers }),
    ]);
    expect(native.status).to.equal(416);
    expect(native.headers.get('content-range')).to.match(/^bytes \*\/\d+$/);
    expect(ported.status).to.equal(416);
    for (const name of ['content-range', 'etag', 'last-modified', 'accept-ranges'])
      expect(ported.headers.get(name), name).to.equal(native.headers.get(name));
    expect(await ported.json()).to.deep.equal(await native.json());
  });
});
