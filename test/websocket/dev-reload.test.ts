/** Development mode serves new WebSocket connections with reloaded code; open ones keep theirs. */
import http from 'node:http';
import { expect } from 'chai';
import { scratchTree } from '../dev/scratch-tree';
import { listen, waitFor } from '../support/net';
import { connect } from './sockets';

const version = (n: number) => `exports.websocket = { message(socket) { socket.send('v${n}'); } };`;

describe('WebSocket endpoints in development mode', () => {
  it('a new connection runs the edited hooks; an open one stays on the code it opened with', async () => {
    const tree = scratchTree('commonjs', { 'live/endpoint.js': version(1) });
    const endpoints = tree.mount();
    await endpoints.ready;
    const server = http.createServer(endpoints);
    endpoints.attach(server);
    const running = await listen(server);
    try {
      const url = `${running.url.replace('http:', 'ws:')}/live`;
      const first = await connect(url);
      first.ws.send('?');
      expect(await first.next()).to.equal('v1');

      const reloads = tree.reloads.length;
      tree.write('live/endpoint.js', version(2));
      await waitFor(() => tree.reloads.length > reloads, 5000, 'the reload');

      const second = await connect(url);
      second.ws.send('?');
      expect(await second.next()).to.equal('v2');
      first.ws.send('?');
      expect(await first.next()).to.equal('v1');
      first.ws.close();
      second.ws.close();
    } finally {
      await running.close();
      await endpoints.close();
      await tree.cleanUp();
    }
  });
});
