/**
 * express.text() and express.raw() mounted before the endpoints: the handler still gets the body
 * (the JSON and urlencoded parsers are covered on every host in endpoints.test.ts).
 */
import { expect } from 'chai';
import express5 from 'express';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { mountEndpoints } from '../../src';
import { httpRequest, listen, type Listening } from '../support/net';
import { fixtureApp } from '../support/fixture-app';

// The npm alias `express4` has no types of its own; the API used here is the same as 5's.
const express4 = require('express4') as typeof express5;
const dir = fixtureApp;

for (const [name, express] of [
  ['Express 5', express5],
  ['Express 4', express4],
] as const) {
  describe(`integration: text and raw body parsers before the endpoints (${name})`, () => {
    let server: Listening;
    before(async () => {
      const app = express();
      app.use(express.text());
      app.use(express.raw({ type: 'application/octet-stream' }));
      await mountEndpoints(app, { dir });
      server = await listen(http.createServer(app));
    });
    after(() => server.close());

    it('express.text(): the handler reads the text', async () => {
      const reply = await httpRequest(`${server.url}/echo?as=text`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: 'héllo wörld',
      });
      expect(reply.body.toString()).to.equal('héllo wörld');
    });

    it('express.raw(): the handler gets the bytes as sent', async () => {
      const bytes = randomBytes(4096);
      const reply = await httpRequest(`${server.url}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      expect(reply.status).to.equal(200);
      expect(reply.body.equals(bytes)).to.equal(true);
    });
  });
}
