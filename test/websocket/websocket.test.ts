/**
 * WebSocket endpoints on every host: Express 5, Express 4, Connect and node:http, each
 * with the tree attached to its server and a `ws` server of the app's own beside it on `/plain`.
 */
import http from 'node:http';
import path from 'node:path';
import { once } from 'node:events';
import { expect } from 'chai';
import WebSocket, { WebSocketServer } from 'ws';
import type { EndpointErrorInfo } from '../../src';
import { hosts, type RunningHost } from '../integration/hosts';
import { httpRequest, waitFor } from '../support/net';
import { connect, refusal } from './sockets';
import { audit } from '../fixtures/socket-app/_lib/audit';

const dir = path.join(__dirname, '../fixtures/socket-app');

for (const host of hosts) {
  describe(`WebSocket endpoints on ${host.name}`, () => {
    let running: RunningHost;
    let appSockets: WebSocketServer;
    let ws: string;
    const errors: { error: unknown; info: EndpointErrorInfo }[] = [];

    before(async () => {
      running = await host.start({ dir, onError: (error, info) => errors.push({ error, info }) });
      running.endpoints.attach(running.server, { maxMessageSize: 1024 });
      // The app's own socket server, as apps have beside the tree: it answers 400 to any other path.
      appSockets = new WebSocketServer({ server: running.server, path: '/plain' });
      appSockets.on('connection', (socket) => socket.send('from the app'));
      ws = running.url.replace('http:', 'ws:');
    });
    after(async () => {
      appSockets.close();
      await running.close();
    });

    it('echoes text to Node’s global WebSocket', async () => {
      const socket = new globalThis.WebSocket(`${ws}/echo`);
      await once(socket, 'open');
      const reply = new Promise<string>((resolve) =>
        socket.addEventListener('message', (event) => resolve(event.data as string), { once: true }),
      );
      socket.send('hello');
      expect(await reply).to.equal('hello');
      socket.close();
    });

    it('echoes binary as binary to the ws client', async () => {
      const client = await connect(`${ws}/echo`);
      client.ws.send(Buffer.from([0, 1, 2, 255]));
      const reply = await client.next();
      expect(Buffer.isBuffer(reply)).to.equal(true);
      expect([...(reply as Buffer)]).to.deep.equal([0, 1, 2, 255]);
      client.ws.close();
    });

    it('gives the hooks the route’s params and the upgrade request', async () => {
      const client = await connect(`${ws}/rooms/caf%C3%A9?user=ada`, { headers: { cookie: 'a=1' } });
      expect(JSON.parse((await client.next()) as string)).to.deep.equal({
        room: 'café',
        route: '/rooms/[room]',
        user: 'ada',
        cookie: 'a=1',
      });
      client.ws.close();
    });

    it('refuses with the upgrade hook’s Response', async () => {
      const answer = await refusal(`${ws}/refuse`);
      expect(answer.status).to.equal(401);
      expect(answer.headers['www-authenticate']).to.equal('Name');
      expect(answer.body).to.equal('Who are you?');
      const client = await connect(`${ws}/refuse?name=ada`);
      expect(await client.next()).to.equal('welcome');
      client.ws.close();
    });

    it('an upgrade hook that returns false refuses with 403; true accepts', async () => {
      expect((await refusal(`${ws}/token?token=no`)).status).to.equal(403);
      const client = await connect(`${ws}/token?token=ok`);
      expect(await client.next()).to.equal('token accepted');
      client.ws.close();
    });

    it('refuses when a middleware turns the accepted answer into an error, even keeping its headers', async () => {
      const answer = await refusal(`${ws}/rewrapped`);
      expect(answer.status).to.equal(403);
      expect(answer.body).to.equal('denied');
    });

    it('runs folder middleware on the upgrade: a guard refuses with 401, and its headers reach the 101', async () => {
      const answer = await refusal(`${ws}/guarded`);
      expect(answer.status).to.equal(401);
      expect(answer.body).to.equal('Unauthorized');
      const client = await connect(`${ws}/guarded`, { headers: { cookie: 'session=ok' } });
      expect(client.upgrade.headers['set-cookie']).to.deep.equal(['seen=1; Path=/']);
      expect(await client.next()).to.equal('inside');
      client.ws.close();
    });

    it('runs the middleware’s after() callbacks once the handshake is answered, not when the socket closes', async () => {
      const id = `${host.name}-${Date.now()}`;
      const client = await connect(`${ws}/guarded?audit=${encodeURIComponent(id)}`, {
        headers: { cookie: 'session=ok' },
      });
      expect(await client.next()).to.equal('inside');
      await waitFor(() => audit.includes(id), 2000, 'the after() callback');
      expect(client.ws.readyState).to.equal(WebSocket.OPEN);
      client.ws.close();
    });

    it('leaves an upgrade to a route without a socket handler to the app’s own listener', async () => {
      const client = await connect(`${ws}/plain`);
      expect(await client.next()).to.equal('from the app');
      client.ws.close();
      // And plain HTTP to both kinds of route is untouched.
      expect((await running.request('/plain')).text).to.equal('plain');
      expect((await running.request('/echo')).text).to.equal('echo over HTTP');
    });

    it('answers a GET without an upgrade to a socket-only route with 426, after its guard', async () => {
      const plain = await running.request('/refuse');
      expect(plain.status).to.equal(426);
      expect(plain.headers.upgrade).to.equal('websocket');
      expect((await running.request('/guarded')).status).to.equal(401);
      expect((await running.request('/guarded', { headers: { cookie: 'session=ok' } })).status).to.equal(426);
      expect((await running.endpoints.fetch(new Request('http://localhost/refuse'))).status).to.equal(426);
    });

    it('closes with 1009 past the largest message', async () => {
      const client = await connect(`${ws}/echo`);
      client.ws.send('x'.repeat(1025));
      expect((await client.closed).code).to.equal(1009);
    });

    it('closes with 1011 when a hook throws, and tells onError', async () => {
      errors.length = 0;
      const client = await connect(`${ws}/crash`);
      client.ws.send('boom');
      expect((await client.closed).code).to.equal(1011);
      await waitFor(() => errors.length === 1, 3000, 'onError');
      expect(errors[0]!.info).to.include({ route: '/crash', export: 'websocket.message' });
      expect((errors[0]!.error as Error).message).to.equal('the message hook failed');
    });

    it('closes open sockets with 1001 when the server closes', async () => {
      const own = await host.start({ dir });
      own.endpoints.attach(own.server);
      const client = await connect(`${own.url.replace('http:', 'ws:')}/echo`);
      const closedServer = new Promise((resolve) => own.server.close(resolve));
      expect(await client.closed).to.deep.equal({ code: 1001, reason: 'Server shutting down' });
      await closedServer;
    });

    it('gives an upgrade still in its guard when the server closes no open socket, and the close completes', async () => {
      const own = await host.start({ dir });
      own.endpoints.attach(own.server);
      const url = `${own.url.replace('http:', 'ws:')}/guarded?wait=300`;
      const pending = new WebSocket(url, { headers: { cookie: 'session=ok' } });
      pending.on('error', () => {});
      const outcome = new Promise<string>((resolve) => {
        pending.once('unexpected-response', (_req, res) => resolve(`refused ${res.statusCode}`));
        pending.once('close', (code) => resolve(`closed ${code}`));
      });
      await new Promise((resolve) => setTimeout(resolve, 100)); // the upgrade is in the guard now
      const closedServer = new Promise((resolve) => own.server.close(resolve));
      expect(await outcome).to.be.oneOf(['refused 503', 'closed 1001']);
      await closedServer;
      pending.terminate();
    });
  });
}

describe('WebSocket endpoints beside an app with no upgrade listener', () => {
  it('answers an upgrade to an HTTP-only route as a plain request', async () => {
    const host = hosts[0]!;
    const running = await host.start({ dir });
    running.endpoints.attach(running.server);
    try {
      const reply = await httpRequest(`${running.url}/plain`, {
        headers: { connection: 'upgrade', upgrade: 'websocket' },
      });
      expect(reply.status).to.equal(200);
      expect(reply.body.toString()).to.equal('plain');
      const client = await connect(`${running.url.replace('http:', 'ws:')}/echo`);
      client.ws.send('still served');
      expect(await client.next()).to.equal('still served');
      client.ws.close();
    } finally {
      await running.close();
    }
  });

  it('takes no new upgrade once the endpoints are closed: it is the app’s plain request, which the closed tree refuses', async () => {
    const running = await hosts[0]!.start({ dir });
    running.endpoints.attach(running.server);
    try {
      await running.endpoints.close();
      const answer = await refusal(`${running.url.replace('http:', 'ws:')}/refuse?name=ada`);
      expect(answer.status).to.equal(503); // a closed tree answers its routes' plain requests so
    } finally {
      await running.close();
    }
  });

  it('leaves the server untouched when attach is never called', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    expect(server.emit).to.equal(http.Server.prototype.emit);
    server.close();
    expect(WebSocket).to.be.a('function');
  });
});
