/**
 * The origin a handler's `request.url` names, whatever form the request line takes: its scheme is
 * the connection's (Express's `req.protocol` where there is one), never the client's word in an
 * absolute-form target; its host is the one Host names, and a target naming another, or userinfo,
 * is refused with a 400 through the app's error handler. Raw sockets, so nothing fixes the bytes up.
 */
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import express from 'express';
import { expect } from 'chai';
import { mountEndpoints } from '../../src';
import { rawBody, rawExchange, type RawExchange } from '../hardening/helpers';
import { hosts, type RunningHost } from './hosts';

const DIR = path.join(__dirname, '../fixtures/app');
const TLS = path.join(__dirname, '../fixtures/tls');

const get = (target: string, host = 'api.example.test') =>
  `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
const urlOf = (reply: RawExchange) => (JSON.parse(rawBody(reply)) as { url: string }).url;

for (const host of hosts) {
  describe(`request target and origin (${host.name})`, () => {
    let running: RunningHost;
    const reported: unknown[] = [];
    before(async () => {
      running = await host.start({ dir: DIR, onError: (error) => reported.push(error) });
    });
    after(() => running.close());
    afterEach(() => {
      expect(reported, 'nothing reaches onError').to.deep.equal([]);
    });

    it("an absolute-form https:// target on a plaintext socket: the URL's scheme is http", async () => {
      const reply = await rawExchange(running.port, get('https://api.example.test/whoami?x=1'));
      expect(reply.status).to.equal(200);
      expect(urlOf(reply)).to.equal('http://api.example.test/whoami?x=1');
    });

    it('an absolute-form target naming the Host in other letters and its default port: served', async () => {
      const reply = await rawExchange(running.port, get('http://API.example.test:80/whoami'));
      expect(reply.status).to.equal(200);
      expect(urlOf(reply)).to.equal('http://api.example.test/whoami');
    });

    it('an absolute-form target with no path: its query is kept, the path is /', async () => {
      const reply = await rawExchange(running.port, get('http://api.example.test?whoami=/whoami'));
      expect(reply.status, 'the query is not read as a path').to.equal(404);
    });

    for (const [what, target] of [
      ['names a host other than Host', 'http://admin.internal/whoami'],
      ['carries userinfo', 'http://evil.example.com@api.example.test/whoami'],
      ['carries userinfo with a password', 'http://u:p@api.example.test/whoami'],
      ['hides a host behind a backslash', 'http://api.example.test\\@evil.example.com/whoami'],
    ]) {
      it(`an absolute-form target that ${what}: a 400 from the app's error handler`, async () => {
        const reply = await rawExchange(running.port, get(target!));
        expect(reply.status).to.equal(400);
        expect(reply.text).to.not.include('"url"');
      });
    }
  });
}

describe('request target and origin over TLS (Express 5)', () => {
  let server: https.Server;
  let port: number;
  before(async () => {
    const app = express();
    await mountEndpoints(app, { dir: DIR });
    server = https.createServer(
      { key: readFileSync(path.join(TLS, 'key.pem')), cert: readFileSync(path.join(TLS, 'cert.pem')) },
      app,
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function tlsExchange(bytes: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () =>
        socket.write(bytes),
      );
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString()));
      socket.on('error', reject);
    });
  }

  it("an absolute-form http:// target on a TLS socket: the URL's scheme is https", async () => {
    const text = await tlsExchange(get('http://api.example.test/whoami'));
    expect(text).to.match(/^HTTP\/1\.1 200/);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).url).to.equal(
      'https://api.example.test/whoami',
    );
  });
});
