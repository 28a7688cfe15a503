/**
 * The client sends a FormData as fetch sends it, so an upload to a multipart() endpoint goes through
 * createClient as it goes through fetch: over HTTP, and handed to `.fetch`.
 */
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { mountEndpoints, type EndpointsMiddleware } from '../../src';
import { createClient } from '../../src/client';
import { listen, type Listening } from '../support/net';
import { sampleForm, sha256 } from './forms';

const DIR = path.join(__dirname, '../fixtures/multipart-app');

describe('createClient uploads a FormData to a multipart() endpoint', () => {
  let endpoints: EndpointsMiddleware;
  let server: Listening;
  before(async () => {
    endpoints = mountEndpoints({ dir: DIR });
    await endpoints.ready;
    server = await listen(http.createServer(endpoints));
  });
  after(async () => {
    await server.close();
    await endpoints.close();
  });

  const expected = () => {
    const { files } = sampleForm();
    return files.map((file) => ({ name: file.name, size: file.bytes.length, hash: sha256(file.bytes) }));
  };
  const summary = (data: unknown) =>
    (data as { files: { name: string; size: number; hash: string }[] }).files.map(({ name, size, hash }) => ({
      name,
      size,
      hash,
    }));

  it('over HTTP', async () => {
    const api = createClient({ baseUrl: server.url });
    const answer = await api.POST('/upload', { body: sampleForm().form });
    expect(answer.status).to.equal(200);
    expect(summary(answer.data)).to.deep.equal(expected());
  });

  it('handed to .fetch', async () => {
    const api = createClient({ baseUrl: 'http://localhost', fetch: (request) => endpoints.fetch(request) });
    const answer = await api.POST('/upload', { body: sampleForm().form });
    expect(answer.status).to.equal(200);
    expect(summary(answer.data)).to.deep.equal(expected());
  });
});
