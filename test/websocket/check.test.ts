/**
 * `check`, `check --load` and `build` on WebSocket endpoints, through the CLI in a child
 * process; the build is then mounted here and serves its sockets.
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { mountEndpoints } from '../../src';
import { listen } from '../support/net';
import { runCli, writeFiles } from '../support/cli';
import { connect } from './sockets';

describe('check on WebSocket endpoints', function () {
  this.timeout(60_000);
  let cwd: string;
  beforeEach(() => (cwd = mkdtempSync(path.join(os.tmpdir(), 'ee-ws-check-'))));
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  const write = (file: string, text: string) => writeFiles(cwd, { [file]: text });
  const run = (...args: string[]) => runCli(args, { cwd });

  it('accepts an endpoint that only serves WebSockets, and --load finds a malformed websocket export', () => {
    write('app/chat/endpoint.js', 'exports.websocket = { message(socket, m) { socket.send(m); } };\n');
    write('app/typo/endpoint.js', 'exports.websocket = { onMessage() {} };\n');
    expect(run('check').status).to.equal(0);
    const loaded = run('check', '--load');
    expect(loaded.status).to.equal(1);
    expect(loaded.stderr).to.include(
      'app/typo/endpoint.js: websocket.onMessage is not a WebSocket hook; the hooks are upgrade, open, message, close, error, drain.',
    );
    expect(loaded.stderr).not.to.include('app/chat/');
  });

  it('a build serves the sockets of its tree', async () => {
    write(
      'app/chat/endpoint.js',
      'exports.websocket = { message(socket, m) { socket.send(`built: ${m}`); } };\n',
    );
    const built = run('build', 'app', '--out', 'build');
    expect(built.status, built.stderr).to.equal(0);
    const endpoints = mountEndpoints({ dir: path.join(cwd, 'build') });
    await endpoints.ready;
    expect(endpoints.routes.map((route) => [route.pattern, route.websocket])).to.deep.equal([
      ['/chat', true],
    ]);
    const server = http.createServer(endpoints);
    endpoints.attach(server);
    const running = await listen(server);
    try {
      const client = await connect(`${running.url.replace('http:', 'ws:')}/chat`);
      client.ws.send('hi');
      expect(await client.next()).to.equal('built: hi');
      client.ws.close();
    } finally {
      await running.close();
    }
  });
});
