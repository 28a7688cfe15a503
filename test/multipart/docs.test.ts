/**
 * docs/uploads.md's endpoint and contract, as the page shows them, each in a tree of its own: they answer an
 * upload sent by undici's fetch with the fields and the files, and refuse a file past its limit.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import { mountEndpoints } from '../../src';
import { snippet } from '../support/readme-snippets';
import { listen, type Listening } from '../support/net';
import { bytesOf, sha256 } from './forms';

const SCRATCH = path.join(__dirname, '.scratch', 'docs-app');
const SOURCE = path.resolve(__dirname, '../../src');

/** The snippet `name` as the endpoint at `route` of a tree of its own, in an Express app with an error handler. */
async function serveSnippet(name: string, route: string): Promise<Listening> {
  const { code } = snippet(name);
  const dir = path.join(SCRATCH, name);
  const file = path.join(dir, route, 'endpoint.ts');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, code.replace("from 'express-file-endpoints'", `from ${JSON.stringify(SOURCE)}`));
  const app = express();
  await mountEndpoints(app, { dir });
  app.use(
    (
      error: { status?: number; message: string },
      _req: express.Request,
      res: express.Response,
      _next: express.NextFunction,
    ) => {
      res.status(error.status ?? 500).json({ error: error.message });
    },
  );
  return listen(http.createServer(app));
}

describe("docs/uploads.md's endpoint", () => {
  let server: Listening;
  before(async () => {
    server = await serveSnippet('uploads-endpoint', 'api/photos');
  });
  after(async () => {
    await server.close();
    rmSync(SCRATCH, { recursive: true, force: true });
  });

  it('answers the fields and each file with its size and sha256', async () => {
    const photo = bytesOf(3 * 1024 * 1024, 3);
    const form = new FormData();
    form.append('album', 'Summer');
    form.append('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'beach.jpg');
    const response = await fetch(`${server.url}/api/photos`, { method: 'POST', body: form });
    expect(response.status).to.equal(201);
    expect(await response.json()).to.deep.equal({
      fields: { album: 'Summer' },
      files: [
        {
          field: 'photo',
          filename: 'beach.jpg',
          type: 'image/jpeg',
          size: photo.length,
          sha256: sha256(photo),
        },
      ],
    });
  });

  it('refuses a file over its fileSize with a 413 for the error handler', async () => {
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(20 * 1024 * 1024 + 1)]), 'big.jpg');
    const response = await fetch(`${server.url}/api/photos`, { method: 'POST', body: form });
    expect(response.status).to.equal(413);
    expect(((await response.json()) as { error: string }).error).to.match(/limit of 20971520 bytes/);
  });
});

describe("docs/uploads.md's contract", () => {
  let server: Listening;
  before(async () => {
    server = await serveSnippet('uploads-contract', 'api/albums');
  });
  after(async () => {
    await server.close();
    rmSync(SCRATCH, { recursive: true, force: true });
  });

  it('answers the title and each photo, one photo sent being the array the schema wants', async () => {
    const form = new FormData();
    form.append('title', 'Summer');
    form.append(
      'photos',
      new Blob([new Uint8Array(bytesOf(3 * 1024 * 1024, 5))], { type: 'image/jpeg' }),
      'beach.jpg',
    );
    const response = await fetch(`${server.url}/api/albums`, { method: 'POST', body: form });
    expect(response.status).to.equal(201);
    expect(await response.json()).to.deep.equal({
      title: 'Summer',
      photos: [{ name: 'beach.jpg', size: 3 * 1024 * 1024 }],
    });
  });

  it('refuses a photo over the contract’s fileSize with a 413 for the error handler, and a GIF with a 400', async () => {
    const big = new FormData();
    big.append('title', 'Big');
    big.append('photos', new Blob([new Uint8Array(20 * 1024 * 1024 + 1)], { type: 'image/png' }), 'big.png');
    const tooLarge = await fetch(`${server.url}/api/albums`, { method: 'POST', body: big });
    expect(tooLarge.status).to.equal(413);
    expect(((await tooLarge.json()) as { error: string }).error).to.match(/limit of 20971520 bytes/);

    const gif = new FormData();
    gif.append('title', 'Gif');
    gif.append('photos', new Blob([new Uint8Array(10)], { type: 'image/gif' }), 'a.gif');
    const wrongType = await fetch(`${server.url}/api/albums`, { method: 'POST', body: gif });
    expect(wrongType.status).to.equal(400);
  });
});
