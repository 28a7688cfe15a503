/**
 * multipart() against multer, the peer it replaces: the same uploads, sent by undici's fetch with a
 * FormData, through multer's diskStorage on a native Express route and through multipart() and
 * saveFile() in an endpoint of the same app, give the same fields, file names, types, sizes and
 * bytes; and the same limits refuse the same uploads with the same `code`. Also: multer mounted in
 * front of the endpoints consumes the body, and the endpoint's error says so.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import express, { type NextFunction, type Request, type Response } from 'express';
import multer from 'multer';
import { mountEndpoints } from '../../src';
import { listen, type Listening } from '../support/net';
import { bytesOf, sampleForm } from './forms';

const DIR = path.join(__dirname, '../fixtures/multipart-app');

type Limits = multer.Options['limits'];

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** What each side answers: fields in order, files in order, or the refusal's code. */
interface Summary {
  fields?: [string, string][];
  files?: { name: string; filename: string; type: string; size: number; hash: string }[];
  code?: string;
}

describe('multipart() and multer: the same uploads give the same parts', () => {
  let server: Listening;
  let uploads: string;

  before(async () => {
    uploads = mkdtempSync(path.join(tmpdir(), 'multer-diff-'));
    const app = express();
    // multer as its users mount it: diskStorage, limits per route (here from the query).
    app.post('/native', (req: Request, res: Response, next: NextFunction) => {
      const limits = JSON.parse(String(req.query.limits ?? '{}')) as Limits;
      // defParamCharset: 'utf8', as multer's README says for names beyond Latin-1 (its default mangles them).
      const storage = multer.diskStorage({ destination: uploads });
      const upload = multer({ storage, limits, defParamCharset: 'utf8' }).any();
      upload(req, res, (error?: unknown) => {
        if (error) return next(error);
        const files = (req.files as Express.Multer.File[]).map((file) => {
          const bytes = readFileSync(file.path);
          return {
            name: file.fieldname,
            filename: file.originalname,
            type: file.mimetype,
            size: file.size,
            hash: sha256(bytes),
          };
        });
        // multer's req.body has no order across names: the fields in the order sent are rebuilt from it.
        res.json({ body: req.body as Record<string, string | string[]>, files });
      });
    });
    // multer in front of a second mount of the tree: the endpoint finds the body consumed.
    const behind = mountEndpoints({ dir: DIR });
    app.use('/behind-multer', multer({ dest: uploads }).any(), behind);
    await behind.ready;
    await mountEndpoints(app, { dir: DIR });
    app.use(
      (
        error: { code?: string; status?: number; message: string },
        _req: Request,
        res: Response,
        _next: NextFunction,
      ) => {
        res.status(error.status ?? 500).json({ code: error.code, message: error.message });
      },
    );
    server = await listen(http.createServer(app));
  });
  after(async () => {
    await server.close();
    rmSync(uploads, { recursive: true, force: true });
  });

  async function both(form: () => FormData, limits: Limits = {}): Promise<[Summary, Summary]> {
    const query = `?limits=${encodeURIComponent(JSON.stringify(limits))}`;
    const native = await fetch(`${server.url}/native${query}`, { method: 'POST', body: form() });
    const ported = await fetch(`${server.url}/upload${query}`, {
      method: 'POST',
      body: form(),
      headers: { 'x-upload-dir': uploads },
    });
    const nativeJson = (await native.json()) as {
      body?: Record<string, string | string[]>;
      files?: Summary['files'];
      code?: string;
    };
    const portedJson = (await ported.json()) as Omit<Summary, 'files'> & {
      files?: (NonNullable<Summary['files']>[number] & { kept?: boolean })[];
    };
    if (nativeJson.code !== undefined || portedJson.code !== undefined) {
      return [{ code: nativeJson.code }, { code: portedJson.code }];
    }
    const fields = new Map<string, string[]>();
    for (const [name, value] of portedJson.fields!) fields.set(name, [...(fields.get(name) ?? []), value]);
    const nativeFields = Object.fromEntries(
      Object.entries(nativeJson.body ?? {}).map(([name, value]) => [
        name,
        Array.isArray(value) ? value : [value],
      ]),
    );
    return [
      { fields: Object.entries(nativeFields) as never, files: nativeJson.files },
      {
        fields: [...fields].map(([name, values]) => [name, values]) as never,
        files: portedJson.files!.map(({ kept: _kept, ...file }) => file),
      },
    ];
  }

  it('fields, repeated fields, several files, a unicode filename and an empty file', async () => {
    const [native, ported] = await both(() => sampleForm().form);
    expect(ported).to.deep.equal(native);
    expect(native.files).to.have.length(3);
  });

  it('a large file, byte for byte', async () => {
    const bytes = new Uint8Array(bytesOf(3 * 1024 * 1024, 5));
    const form = () => {
      const data = new FormData();
      data.append('video', new Blob([bytes], { type: 'video/mp4' }), 'clip.mp4');
      return data;
    };
    const [native, ported] = await both(form, { fileSize: 4 * 1024 * 1024 });
    expect(ported).to.deep.equal(native);
    expect(ported.files![0]!.hash).to.equal(sha256(bytes));
  });

  const limited: [string, Limits, () => FormData][] = [
    ['fileSize', { fileSize: 100 }, () => withFiles(1, 101)],
    ['files', { files: 2 }, () => withFiles(3, 10)],
    ['fields', { fields: 1 }, () => withFields(2, 'v')],
    ['fieldSize', { fieldSize: 5 }, () => withFields(1, 'x'.repeat(6))],
    ['parts', { parts: 2 }, () => withFields(3, 'v')],
  ];
  for (const [name, limits, form] of limited) {
    it(`over ${name}: both refuse, with the same code`, async () => {
      const [native, ported] = await both(form, limits);
      expect(native.code).to.match(/^LIMIT_/);
      expect(ported).to.deep.equal(native);
    });
    it(`at ${name}: both take the upload`, async () => {
      const atLimit: Limits = Object.fromEntries(
        Object.entries(limits!).map(([key, value]) => [key, (value as number) + 1]),
      );
      const [native, ported] = await both(form, atLimit);
      expect(native.code).to.equal(undefined);
      expect(ported).to.deep.equal(native);
    });
  }

  it('multer in front of the endpoints: the endpoint says the body was consumed, and by what', async () => {
    const response = await fetch(`${server.url}/behind-multer/upload`, {
      method: 'POST',
      body: sampleForm().form,
    });
    const answer = (await response.json()) as { message: string };
    expect(answer.message).to.match(
      /A multipart body was consumed by earlier middleware \(multer, say\): .*or mount the endpoints before the multipart parser/,
    );
  });
});

function withFiles(count: number, size: number): FormData {
  const form = new FormData();
  for (let i = 0; i < count; i++) form.append(`f${i}`, new Blob([new Uint8Array(size)]), `f${i}.bin`);
  return form;
}

function withFields(count: number, value: string): FormData {
  const form = new FormData();
  for (let i = 0; i < count; i++) form.append(`k${i}`, value);
  return form;
}
