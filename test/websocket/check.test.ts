/** `check` and `check --load` on WebSocket endpoints (issue 28), through the CLI in a child process. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';

const CLI = path.resolve(__dirname, '../../src/cli/main.ts');
const TSX = pathToFileURL(require.resolve('tsx')).href;

describe('check on WebSocket endpoints', function () {
  this.timeout(60_000);
  let cwd: string;
  beforeEach(() => (cwd = mkdtempSync(path.join(os.tmpdir(), 'ee-ws-check-'))));
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
    writeFileSync(path.join(cwd, file), text);
  };
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', TSX, CLI, ...args], { cwd, encoding: 'utf8' });

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
});
