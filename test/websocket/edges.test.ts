/**
 * WebSocket endpoints at their edges: backpressure, keep-alive, a tree under a mount
 * path, upgrades before the modules have loaded, upgrades the tree must not take, and clients
 * that misbehave during the handshake. What `attach` does is the same on every host; these run
 * on node:http and, where a mount path matters, on Express 5.
 */
import net from 'node:net';
import path from 'node:path';
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { expect } from 'chai';
import { mountEndpoints } from '../../src';
import { hosts, type Host } from '../integration/hosts';
import { delay, httpRequest, listen } from '../support/net';
import { WebSocketServer } from 'ws';
import { connect, refusal } from './sockets';

const dir = path.join(__dirname, '../fixtures/socket-app');
const host = (name: string): Host => hosts.find((candidate) => candidate.name === name)!;

describe('WebSocket endpoints at the edges', () => {
  it('send() returns false when the buffer is full, and the drain hook runs once it empties', async () => {
    const running = await host('node:http').start({ dir });
    running.endpoints.attach(running.server);
    try {
      const client = await connect(`${running.url.replace('http:', 'ws:')}/flood`);
      client.ws.send('go');
      const texts: string[] = [];
      let chunks = 0;
      while (!texts.includes('drained')) {
        const message = await client.next();
        if (typeof message === 'string') texts.push(message);
        else chunks += 1;
      }
      const [report] = texts;
      const sent = Number(/^sent (\d+)/.exec(report!)![1]);
      expect(report).to.match(/, buffered true$/);
      expect(sent).to.be.below(2000);
      expect(chunks).to.equal(sent);
      client.ws.close();
    } finally {
      await running.close();
    }
  });

  it('pings every socket, and cuts one that stops answering', async () => {
    const running = await host('node:http').start({ dir });
    running.endpoints.attach(running.server, { pingInterval: 50 });
    try {
      const url = `${running.url.replace('http:', 'ws:')}/echo`;
      const answering = await connect(url);
      let pings = 0;
      answering.ws.on('ping', () => (pings += 1));
      const silent = await connect(url, { autoPong: false });
      expect((await silent.closed).code).to.equal(1006);
      await delay(100);
      expect(pings).to.be.at.least(2);
      expect(answering.ws.readyState).to.equal(answering.ws.OPEN);
      answering.ws.close();
    } finally {
      await running.close();
    }
  });

  it('serves a tree mounted under a path at that path only', async () => {
    const running = await host('Express 5').start({ dir, prefix: '/v1' });
    running.endpoints.attach(running.server, { mountPath: '/v1' });
    try {
      const ws = running.url.replace('http:', 'ws:');
      const client = await connect(`${ws}/v1/rooms/a`);
      expect(JSON.parse((await client.next()) as string)).to.include({ room: 'a', route: '/rooms/[room]' });
      client.ws.close();
      // Not the tree's: with no upgrade listener of the app's, a plain request, which the app answers 404.
      expect((await refusal(`${ws}/rooms/a`)).status).to.equal(404);
    } finally {
      await running.close();
    }
    expect(() => running.endpoints.attach(new http.Server(), { mountPath: 'v1' })).to.throw(
      'attach(server, { mountPath }): "v1" must start with "/", e.g. "/v1".',
    );
  });

  it('serves an upgrade that arrives before the modules have loaded', async () => {
    const endpoints = mountEndpoints({ dir });
    const server = http.createServer(endpoints);
    endpoints.attach(server);
    const running = await listen(server);
    try {
      const client = await connect(`${running.url.replace('http:', 'ws:')}/echo`);
      client.ws.send('early');
      expect(await client.next()).to.equal('early');
      client.ws.close();
    } finally {
      await running.close();
    }
  });

  it('leaves an upgrade to another protocol alone: the endpoint answers it over HTTP', async () => {
    const running = await host('node:http').start({ dir });
    running.endpoints.attach(running.server);
    try {
      const reply = await httpRequest(`${running.url}/echo`, {
        headers: { connection: 'upgrade', upgrade: 'h2c' },
      });
      expect(reply.status).to.equal(200);
      expect(reply.body.toString()).to.equal('echo over HTTP');
    } finally {
      await running.close();
    }
  });

  it('survives clients that leave mid-handshake or send a broken one', async () => {
    const running = await host('node:http').start({ dir });
    running.endpoints.attach(running.server);
    try {
      const handshake = (target: string, key = 'dGhlIHNhbXBsZSBub25jZQ==') =>
        `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        `Sec-WebSocket-Version: 13\r\n${key ? `Sec-WebSocket-Key: ${key}\r\n` : ''}Cookie: session=ok\r\n\r\n`;
      // Gone while the guard runs.
      for (let i = 0; i < 20; i++) {
        const socket = net.connect(running.port, '127.0.0.1');
        socket.on('error', () => {});
        socket.write(handshake('/guarded'));
        socket.destroy();
      }
      // No Sec-WebSocket-Key: ws refuses the handshake with 400.
      const broken = net.connect(running.port, '127.0.0.1');
      broken.write(handshake('/echo', ''));
      const [answer] = (await once(broken, 'data')) as [Buffer];
      expect(answer.toString()).to.match(/^HTTP\/1\.1 400 /);
      broken.destroy();

      const client = await connect(`${running.url.replace('http:', 'ws:')}/echo`);
      client.ws.send('still here');
      expect(await client.next()).to.equal('still here');
      client.ws.close();
    } finally {
      await running.close();
    }
  });

  it('endpoints.close() closes the tree’s sockets with 1001 and leaves the server listening', async () => {
    const running = await host('Connect').start({ dir });
    running.endpoints.attach(running.server);
    try {
      const client = await connect(`${running.url.replace('http:', 'ws:')}/echo`);
      await running.endpoints.close();
      expect(await client.closed).to.deep.equal({ code: 1001, reason: 'Server shutting down' });
      // The closed tree refuses its own routes; the app's go on.
      expect((await running.request('/echo')).status).to.equal(503);
      expect((await running.request('/contact')).status).to.equal(200);
    } finally {
      await running.close();
    }
  });

  it('serves two trees on one server, each at its mount path, and leaves the rest to the app', async () => {
    const running = await host('Express 5').start({ dir, prefix: '/v1' });
    running.endpoints.attach(running.server, { mountPath: '/v1' });
    const second = mountEndpoints({ dir });
    second.attach(running.server, { mountPath: '/v2' });
    try {
      const ws = running.url.replace('http:', 'ws:');
      for (const prefix of ['/v1', '/v2']) {
        const client = await connect(`${ws}${prefix}/echo`);
        client.ws.send(prefix);
        expect(await client.next()).to.equal(prefix);
        client.ws.close();
      }
      const reply = await httpRequest(`${running.url}/v1/plain`, {
        headers: { connection: 'upgrade', upgrade: 'websocket' },
      });
      expect([reply.status, reply.body.toString()]).to.deep.equal([200, 'plain']);
    } finally {
      await second.close();
      await running.close();
    }
  });

  it('leaves the server’s emit as it is until the app listens for upgrades, then keeps the tree’s requests from its listeners', async () => {
    for (const appListensFirst of [true, false]) {
      const endpoints = mountEndpoints({ dir });
      const server = http.createServer(endpoints);
      const appSockets: WebSocketServer[] = [];
      // A `ws` server with a path, which answers 400 to any other: it must never see the tree's requests.
      const listenAsApp = () => {
        const sockets = new WebSocketServer({ server, path: '/plain' });
        sockets.on('connection', (socket) => socket.send('from the app'));
        appSockets.push(sockets);
      };
      if (appListensFirst) listenAsApp();
      endpoints.attach(server);
      const running = await listen(server);
      const ws = running.url.replace('http:', 'ws:');
      try {
        if (!appListensFirst) {
          expect(server.emit).to.equal(http.Server.prototype.emit);
          const alone = await connect(`${ws}/echo`);
          alone.ws.send('alone');
          expect(await alone.next()).to.equal('alone');
          alone.ws.close();
          listenAsApp();
        }
        const client = await connect(`${ws}/echo`);
        client.ws.send('beside the app');
        expect(await client.next()).to.equal('beside the app');
        client.ws.close();
        const app = await connect(`${ws}/plain`);
        expect(await app.next()).to.equal('from the app');
        app.ws.close();
      } finally {
        appSockets.forEach((sockets) => sockets.close());
        await endpoints.close();
        await running.close();
      }
    }
  });

  it('serves wss:// on an HTTPS server', async () => {
    const endpoints = mountEndpoints({ dir });
    const tls = path.join(__dirname, '../fixtures/tls');
    const server = https.createServer(
      { key: readFileSync(path.join(tls, 'key.pem')), cert: readFileSync(path.join(tls, 'cert.pem')) },
      endpoints,
    );
    endpoints.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      // A certificate of its own, for localhost: trusted for this connection only.
      const client = await connect(`wss://127.0.0.1:${port}/rooms/tls`, { rejectUnauthorized: false });
      const greeting = JSON.parse((await client.next()) as string) as { room: string };
      expect(greeting.room).to.equal('tls');
      client.ws.close();
      await client.closed;
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('on a Node without shouldUpgradeCallback: serves its routes, leaves the rest to the app’s listener, else its request handler', async () => {
    const running = await host('Connect').start({ dir });
    // What Node did before shouldUpgradeCallback: emit `upgrade` whenever the server has a listener.
    type OldServer = { shouldUpgradeCallback?: (this: http.Server) => boolean };
    delete (running.server as OldServer).shouldUpgradeCallback;
    running.endpoints.attach(running.server);
    (running.server as OldServer).shouldUpgradeCallback = function () {
      return this.listenerCount('upgrade') > 0;
    };
    const ws = running.url.replace('http:', 'ws:');
    try {
      const client = await connect(`${ws}/echo`);
      client.ws.send('old');
      expect(await client.next()).to.equal('old');
      client.ws.close();
      // No upgrade listener of the app's: a plain answer, from its request handler, as without the tree.
      const plain = await refusal(`${ws}/plain`);
      expect([plain.status, plain.body]).to.deep.equal([200, 'plain']);
      const h2c = await httpRequest(`${running.url}/plain`, {
        headers: { connection: 'upgrade', upgrade: 'h2c' },
      });
      expect([h2c.status, h2c.body.toString()]).to.deep.equal([200, 'plain']);
      // A client that resets while the app answers: the socket goes, the process stays.
      const reset = net.connect(Number(new URL(running.url).port), '127.0.0.1');
      await once(reset, 'connect');
      reset.write('GET /plain HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: h2c\r\n\r\n');
      reset.resetAndDestroy();
      await delay(100);

      const appSockets = new WebSocketServer({ server: running.server, path: '/plain' });
      appSockets.on('connection', (socket) => socket.send('from the app'));
      const app = await connect(`${ws}/plain`);
      expect(await app.next()).to.equal('from the app');
      app.ws.close();
      appSockets.close();
    } finally {
      await running.close();
    }
  });
});
