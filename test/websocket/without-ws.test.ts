/**
 * `ws` is an optional peer: a tree without a socket handler never loads it, and a tree with one,
 * in an app that has not installed it, fails at startup with the install command.
 * The built package runs in a child process whose node_modules has everything but ws.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(__dirname, '../..');

describe('an app without the ws package', function () {
  this.timeout(60_000);
  let app: string;

  before(() => {
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/tsup/dist/cli-default.js')], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    app = mkdtempSync(path.join(tmpdir(), 'ee-without-ws-'));
    const modules = path.join(app, 'node_modules');
    mkdirSync(modules);
    for (const name of readdirSync(path.join(ROOT, 'node_modules'))) {
      if (name !== 'ws' && name !== '.bin')
        symlinkSync(path.join(ROOT, 'node_modules', name), path.join(modules, name));
    }
    // The package as installed: its files, without the repository's own node_modules (which has ws).
    const pkg = path.join(modules, 'express-file-endpoints');
    mkdirSync(pkg);
    for (const name of ['package.json', 'dist']) symlinkSync(path.join(ROOT, name), path.join(pkg, name));
    for (const [file, text] of Object.entries({
      'sockets/chat/endpoint.js': 'exports.websocket = { message(socket, m) { socket.send(m); } };',
      'plain/hello/endpoint.js': 'exports.GET = () => new Response("hi");',
    })) {
      mkdirSync(path.dirname(path.join(app, file)), { recursive: true });
      writeFileSync(path.join(app, file), text);
    }
    writeFileSync(
      path.join(app, 'main.js'),
      `const { mountEndpoints } = require('express-file-endpoints');
const endpoints = mountEndpoints({ dir: process.argv[2], onError: () => {} });
endpoints.ready.then(
  () => console.log('ready', Object.keys(require.cache).some((file) => /[\\\\/]ws[\\\\/]/.test(file))),
  (error) => console.log('failed:', error.message),
);`,
    );
  });
  after(() => rmSync(app, { recursive: true, force: true }));

  const run = (dir: string) =>
    spawnSync(process.execPath, ['--preserve-symlinks', 'main.js', dir], {
      cwd: app,
      encoding: 'utf8',
    }).stdout.trim();

  it('serves a tree without socket handlers, and never loads ws', () => {
    expect(run('plain')).to.equal('ready false');
  });

  it('fails a tree with one at startup, naming the file and the install command', () => {
    expect(run('sockets')).to.equal(
      'failed: sockets/chat/endpoint.js exports websocket, which needs the ws package: npm install ws',
    );
  });
});
