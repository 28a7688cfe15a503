/**
 * The chat example of docs/websockets.md, as written there, in two mounts joined by a backplane (two
 * processes' worth, on a BroadcastChannel): a message sent in a room reaches its members on both
 * servers but not the sender, a POST to either reaches them all, and another room hears nothing.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { broadcastChannelBackplane, mountEndpoints, type EndpointsMiddleware } from '../../src';
import { listen, type Listening } from '../support/net';
import { socketClient, type SocketClient } from './clients';

function chatExample(): string {
  const doc = readFileSync(path.join(__dirname, '../../docs/websockets.md'), 'utf8');
  const start = doc.indexOf('```ts\n// app/chat/[room]/endpoint.ts');
  return doc.slice(doc.indexOf('\n', start) + 1, doc.indexOf('```', start + 5));
}

describe("docs/websockets.md's chat, across two mounts", () => {
  let dir: string;
  const running: { endpoints: EndpointsMiddleware; server: Listening }[] = [];
  const sockets: SocketClient[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    for (const { endpoints, server } of running.splice(0)) {
      await server.close();
      await endpoints.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('reaches the room in both processes, never the sender, and a POST reaches everyone', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'efe-chat-'));
    mkdirSync(path.join(dir, 'chat/[room]'), { recursive: true });
    writeFileSync(path.join(dir, 'chat/[room]/endpoint.ts'), chatExample());
    for (let i = 0; i < 2; i++) {
      const endpoints = mountEndpoints({
        dir,
        topics: { backplane: broadcastChannelBackplane({ channel: dir }) },
      });
      await endpoints.ready;
      const node = http.createServer(endpoints);
      endpoints.attach(node);
      running.push({ endpoints, server: await listen(node) });
    }
    const [one, two] = running.map(({ server }) => server.url);
    const ada = await socketClient(`${one!.replace('http', 'ws')}/chat/lobby`);
    const bob = await socketClient(`${two!.replace('http', 'ws')}/chat/lobby`);
    const eve = await socketClient(`${two!.replace('http', 'ws')}/chat/other`);
    sockets.push(ada, bob, eve);
    ada.ws.send('hello from ada');
    expect(await bob.waitFor(1)).to.deep.equal(['hello from ada']);
    const posted = await fetch(`${two}/chat/lobby`, { method: 'POST', body: 'from the server' });
    expect(posted.status).to.equal(204);
    expect(await ada.waitFor(1)).to.deep.equal(['from the server']);
    expect(await bob.waitFor(2)).to.deep.equal(['hello from ada', 'from the server']);
    expect(eve.received).to.deep.equal([]);
  });
});
