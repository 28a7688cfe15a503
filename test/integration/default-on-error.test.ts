/**
 * The default `onError` (none given): it logs what no host error handler sees — an error on a bare
 * node:http server, or under `.fetch()` — naming file and export, and stays quiet when the app's
 * error handler gets the error through `next(err)`. The words of its lines: messages.test.ts.
 */
import http from 'node:http';
import { expect } from 'chai';
import express from 'express';
import { mountEndpoints } from '../../src';
import { createTestRequest } from '../../src/testing';
import { httpRequest, listen } from '../support/net';
import { fixtureApp } from '../support/fixture-app';

const dir = fixtureApp;

describe('the default onError', () => {
  let calls: unknown[][];
  const original = console.error;
  beforeEach(() => {
    calls = [];
    console.error = (...args: unknown[]) => void calls.push(args);
  });
  afterEach(() => {
    console.error = original;
  });

  it('logs, naming file and export, on a bare node:http server', async () => {
    const endpoints = mountEndpoints({ dir });
    await endpoints.ready;
    const server = await listen(http.createServer(endpoints));
    try {
      const res = await httpRequest(`${server.url}/errors/throw`);
      expect(res.status).to.equal(500);
      expect(res.body.toString()).to.match(/server error/i);
    } finally {
      await server.close();
    }
    expect(calls).to.have.length(1);
    expect(String(calls[0]![0]))
      .to.include('test/fixtures/app/errors/throw/endpoint.ts')
      .and.match(/\bGET\b/);
    expect((calls[0]![1] as Error).message).to.equal('thrown by the endpoint');
  });

  it('logs under .fetch()', async () => {
    const endpoints = mountEndpoints({ dir });
    const res = await endpoints.fetch(createTestRequest('/errors/not-a-response'));
    expect(res.status).to.equal(500);
    expect(calls).to.have.length(1);
    // File, export, method and URL: the line's words are pinned in messages.test.ts.
    expect(String(calls[0]![0]))
      .to.include('test/fixtures/app/errors/not-a-response/endpoint.ts')
      .and.match(/\bGET\b.*\bGET http:\/\/localhost\/errors\/not-a-response\b/);
  });

  it("stays quiet when the error goes to Express's error handler, which answers as before", async () => {
    const app = express();
    await mountEndpoints(app, { dir });
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).json({ caught: error.message });
    });
    const server = await listen(http.createServer(app));
    try {
      const res = await httpRequest(`${server.url}/errors/throw`);
      expect(JSON.parse(res.body.toString())).to.deep.equal({ caught: 'thrown by the endpoint' });
    } finally {
      await server.close();
    }
    expect(calls).to.deep.equal([]);
  });
});
