/**
 * POST /uploads and GET /uploads/:id over HTTP with supertest: files sent as a browser's form sends
 * them are saved with their size and sha256, downloaded back byte for byte under their names, and an
 * upload past a limit gets the app's JSON 413.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApp, silentLogger } from './support';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('example app: uploads', () => {
  let server: http.Server;
  let api: ReturnType<typeof request>;
  let dir: string;
  const saved = process.env.UPLOAD_DIR;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'example-uploads-'));
    process.env.UPLOAD_DIR = dir;
    server = http.createServer(await createApp({ logger: silentLogger() }));
    api = request(server);
  });
  after(() => {
    if (saved === undefined) delete process.env.UPLOAD_DIR;
    else process.env.UPLOAD_DIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('POST /uploads saves each file and answers its size and sha256; GET downloads it back', async () => {
    const report = Buffer.from('%PDF-1.7 not really a pdf\n'.repeat(1000));
    const photo = Buffer.alloc(300_000, 7);
    const res = await api
      .post('/uploads')
      .field('title', 'Quarterly')
      .attach('report', report, { filename: 'Q3 réport.pdf', contentType: 'application/pdf' })
      .attach('photo', photo, { filename: 'team.jpg', contentType: 'image/jpeg' })
      .expect(201);
    expect(res.body.fields).to.deep.equal({ title: 'Quarterly' });
    const files = res.body.files as {
      id: string;
      filename: string;
      size: number;
      sha256: string;
      download: string;
    }[];
    expect(files.map(({ filename, size, sha256: hash }) => ({ filename, size, hash }))).to.deep.equal([
      { filename: 'Q3 réport.pdf', size: report.length, hash: sha256(report) },
      { filename: 'team.jpg', size: photo.length, hash: sha256(photo) },
    ]);
    expect(readdirSync(dir).sort()).to.deep.equal(files.map((file) => file.id).sort());

    const download = await api
      .get(files[0]!.download)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(download.headers['content-disposition']).to.equal(
      `attachment; filename="Q3 r?port.pdf"; filename*=UTF-8''Q3%20r%C3%A9port.pdf`,
    );
    expect(sha256(download.body as Buffer)).to.equal(sha256(report));
  });

  it('GET /uploads/:id of no upload is a 404', async () => {
    await api.get('/uploads/nothing-here').expect(404);
  });

  it('a file over 10 MiB is refused with the JSON 413 of the app, and nothing of it stays', async () => {
    const before = readdirSync(dir);
    const res = await api
      .post('/uploads')
      .attach('big', Buffer.alloc(10 * 1024 * 1024 + 1), 'big.bin')
      .expect(413);
    expect(res.body).to.deep.equal({
      error: 'Payload Too Large',
      message:
        'Payload Too Large: a file is larger than the limit of 10485760 bytes (field "big") (multipart limit fileSize)',
    });
    expect(readdirSync(dir)).to.deep.equal(before);
  });

  it('a body that is not multipart is a 415', async () => {
    await api.post('/uploads').send({ not: 'a form' }).expect(415);
  });
});
