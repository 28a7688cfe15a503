/**
 * sendFile and serveStatic answer as `res.sendFile`, `res.download` and `express.static` (Express 5,
 * send 1.x, serve-static 2.x) answer, request for request: the same app asked at /native/… and at
 * /ported/…, and the two answers compared by status, the headers a file's answer is made of, and the
 * bytes. The differences that remain are listed by case, each with the reason docs/files.md gives.
 */
import path from 'node:path';
import { expect } from 'chai';
import { PUBLIC } from '../fixtures/files-app/options';
import type { Listening } from '../support/net';
import { ask, startFilesApp, summary } from './apps';
import { CASES, ETAG } from './cases';

describe('sendFile and serveStatic answer as res.sendFile, res.download and express.static (Express 5)', () => {
  let server: Listening;
  before(async () => {
    server = await startFilesApp();
  });
  after(() => server.close());

  for (const sent of CASES) {
    const method = sent.method ?? 'GET';
    const asked = `${method} ${sent.path}${sent.headers ? ` ${JSON.stringify(sent.headers)}` : ''}`;
    it(`${asked}${sent.differs ? ` (differs: ${sent.differs.why})` : ''}`, async () => {
      const init = { method, headers: sent.headers };
      const [native, tree] = await Promise.all([
        ask(server, `/native${sent.path}`, init),
        ask(server, `/ported${sent.path}`, init),
      ]);
      const expected = summary(native, 'native');
      const actual = summary(tree, 'ported');
      const differs = sent.differs;
      if (differs?.status) {
        expect([expected.status, actual.status]).to.deep.equal(differs.status);
        // A refusal of the tree's own: never any byte of a file.
        expect(actual.body).to.not.include('never sent');
        return;
      }
      for (const name of differs?.headers ?? []) {
        expect(actual.headers[name], `${name} differs as listed`).to.not.equal(expected.headers[name]);
        delete actual.headers[name];
        delete expected.headers[name];
      }
      expect(actual).to.deep.equal(expected);
    });
  }

  it("keeps sendFile's own ETag on a small file the tree sends whole (not the app's body ETag)", async () => {
    const tree = await ask(server, '/ported/file?name=hello.txt');
    expect(tree.headers.etag).to.equal(ETAG);
  });

  it('never sends a byte of a file outside the root, however the path is spelled', async () => {
    const spellings = [
      '/ported/static/..%2fsecret.txt',
      '/ported/static/%2e%2e%2fsecret.txt',
      '/ported/static/%2e%2e/secret.txt',
      '/ported/static/..%5csecret.txt',
      '/ported/static/sub%2f..%2f..%2fsecret.txt',
      `/ported/static/${encodeURIComponent(path.join(PUBLIC, '../secret.txt'))}`,
      '/ported/static/%252e%252e%252fsecret.txt',
      '/ported/static-bare/..%2fsecret.txt',
      '/ported/file?name=..%2Fsecret.txt',
      `/ported/file?name=${encodeURIComponent(path.join(PUBLIC, '../secret.txt'))}`,
    ];
    for (const target of spellings) {
      const reply = await ask(server, target);
      expect(reply.status, target).to.be.oneOf([400, 403, 404]);
      expect(reply.body.toString(), target).to.not.include('never sent');
    }
  });
});
