/**
 * multipart() on a Request no mount serves (a unit test calling its handler): the `after` option
 * stands for the request's end (a handler's context has one); the limits it is given are checked; a part's headers are its own.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { multipart, MultipartError, saveFile, type Part, type SavedFile } from '../../src';

async function formRequest(form: FormData): Promise<Request> {
  const encoded = new Response(form);
  return new Request('http://localhost/upload', {
    method: 'POST',
    headers: { 'content-type': encoded.headers.get('content-type')! },
    body: await encoded.arrayBuffer(),
  });
}

const oneFile = () => {
  const form = new FormData();
  form.append('doc', new Blob(['hello'], { type: 'text/plain' }), 'a/b\\hello.txt');
  return form;
};

describe('multipart() outside a mount', () => {
  it('removes temporary files when the `after` it is given runs, and keeps those kept', async () => {
    const callbacks: (() => unknown)[] = [];
    const after = (fn: () => unknown) => void callbacks.push(fn);
    const form = oneFile();
    form.append('kept', new Blob(['kept']), 'kept.txt');
    const saved: SavedFile[] = [];
    for await (const part of multipart(await formRequest(form), { after })) saved.push(await saveFile(part));
    saved[1]!.keep();
    expect(saved.map((file) => existsSync(file.path))).to.deep.equal([true, true]);
    await Promise.all(callbacks.map((fn) => fn()));
    expect(saved.map((file) => existsSync(file.path))).to.deep.equal([false, true]);
    rmSync(saved[1]!.path);
  });

  it('leaves a path it could not open as it was, and rejects with why', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'ee-save-into-'));
    try {
      let failure: unknown;
      for await (const part of multipart(await formRequest(oneFile()))) {
        failure = await saveFile(part, { path: folder }).catch((error: unknown) => error);
      }
      expect((failure as { code?: string }).code).to.equal('EISDIR');
      expect(existsSync(folder), 'the folder is still there').to.equal(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("gives a part's name, filename (its last segment), type and headers", async () => {
    const parts: Part[] = [];
    const texts: string[] = [];
    for await (const part of multipart(await formRequest(oneFile()))) {
      parts.push(part);
      texts.push(await part.text());
    }
    const [part] = parts;
    expect([part!.name, part!.filename, part!.type, texts[0]]).to.deep.equal([
      'doc',
      'hello.txt',
      'text/plain',
      'hello',
    ]);
    expect(part!.headers.get('content-disposition')).to.equal('form-data; name="doc"; filename="hello.txt"');
    expect(part!.headers.get('content-type')).to.equal('text/plain');
  });

  it('keeps the folders of a filename with preservePath', async () => {
    for await (const part of multipart(await formRequest(oneFile()), { preservePath: true })) {
      expect(part.filename).to.equal('a/b\\hello.txt');
    }
  });

  it('refuses limits that are not limits, naming them', () => {
    expect(() => multipart(new Request('http://localhost'), { limits: { fileSize: 'lots' } })).to.throw(
      TypeError,
      /limits.fileSize must be a number, a size such as '10mb', or Infinity; got "lots"/,
    );
    expect(() => multipart(new Request('http://localhost'), { limits: { size: 1 } as never })).to.throw(
      TypeError,
      /unknown limit "size"/,
    );
  });

  it('takes sizes as multer spells them', async () => {
    const form = new FormData();
    form.append('f', new Blob([new Uint8Array(2048)]), 'f.bin');
    const reading = multipart(await formRequest(form), { limits: { fileSize: '1kb' } });
    const error = await (async () => {
      for await (const part of reading) await part.bytes();
    })().catch((thrown: unknown) => thrown);
    expect(error).to.be.instanceOf(MultipartError);
    expect(error).to.include({
      status: 413,
      expose: true,
      code: 'LIMIT_FILE_SIZE',
      type: 'entity.too.large',
    });
    expect((error as MultipartError).limit).to.deep.equal({ name: 'fileSize', value: 1024 });
  });

  it("a part cut short fails its stream with the reading's 400, not busboy's own error", async () => {
    const body =
      '--B\r\nContent-Disposition: form-data; name="f"; filename="f.bin"\r\n\r\n' + 'x'.repeat(100);
    const request = new Request('http://localhost/', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=B' },
      body,
    });
    const error = await (async () => {
      for await (const part of multipart(request)) await part.bytes();
    })().catch((thrown: unknown) => thrown);
    expect(error).to.be.instanceOf(MultipartError);
    expect(error).to.include({ status: 400, code: 'MALFORMED_MULTIPART' });
  });

  it('a file saved while the loop moves on fails, saying so, and leaves nothing: never a file with holes', async () => {
    const form = new FormData();
    form.append('a', new Blob([new Uint8Array(300_000)]), 'a.bin');
    form.append('b', new Blob(['b']), 'b.bin');
    const directory = mkdtempSync(path.join(tmpdir(), 'multipart-unawaited-'));
    const saving: Promise<SavedFile>[] = [];
    for await (const part of multipart(await formRequest(form), { after: () => {} })) {
      saving.push(saveFile(part, { directory })); // not awaited: the loop asks for the next part at once
    }
    const results = await Promise.allSettled(saving);
    expect(results.map((result) => (result as PromiseRejectedResult).reason?.message)).to.satisfy(
      (messages: string[]) =>
        messages.every((message) => /part "[ab]" was read after the loop moved past it/.test(message)),
    );
    expect(readdirSync(directory)).to.deep.equal([]);
    rmSync(directory, { recursive: true });
  });

  it('says a body already read was read', async () => {
    const request = await formRequest(oneFile());
    await request.arrayBuffer();
    const error = await multipart(request)
      .next()
      .catch((thrown: unknown) => thrown);
    expect(error).to.include({ status: 400 });
    expect((error as Error).message).to.match(/the request body was already read/);
  });

  it('a part read after the loop moved past it says so', async () => {
    const form = oneFile();
    form.append('second', 'value');
    const reading = multipart(await formRequest(form));
    const first = (await reading.next()).value as Part;
    const second = (await reading.next()).value as Part;
    const error = await first.text().catch((thrown: unknown) => thrown);
    expect((error as Error).message).to.match(/part "doc" was read after the loop moved past it/);
    expect(await second.text()).to.equal('value');
    expect((await reading.next()).done).to.equal(true);
  });
});
