/**
 * `TRACING=1`: the example prints a line per OpenTelemetry span, the endpoint's server span named by
 * its route; and without the OpenTelemetry packages it warns and serves untraced.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import './support'; // builds the package server.js requires

const SERVER = path.join(__dirname, '..', 'server.js');

/** Makes `@opentelemetry/*` unresolvable, as in an app that did not install them. */
const HIDE_OPENTELEMETRY = `
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request.startsWith('@opentelemetry/')) {
    throw Object.assign(new Error("Cannot find module '" + request + "'"), { code: 'MODULE_NOT_FOUND' });
  }
  return resolve.call(this, request, ...rest);
};`;

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

function start(execArgv: string[] = []): Promise<Started> {
  const child = spawn(process.execPath, [...execArgv, SERVER], {
    env: { ...process.env, TRACING: '1', PORT: '0', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const onData = (chunk: Buffer) => (output += chunk.toString());
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" within 20 s:\n${output}`)), 20_000);
    const check = () => {
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve({ child, url, output: () => output });
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`server.js exited (${code}):\n${output}`)));
  });
}

async function until(check: () => boolean, what: string, output: () => string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  if (!check()) throw new Error(`${what} did not show:\n${output()}`);
}

describe('example app with TRACING=1', function () {
  this.timeout(30_000);
  let server: Started | undefined;
  afterEach(() => {
    server?.child.removeAllListeners('exit');
    server?.child.kill();
  });

  it('prints the endpoint’s server span, named by its route', async () => {
    server = await start();
    const { url, output } = server;
    expect((await fetch(`${url}/api/users/1`)).status).to.equal(200);
    await until(() => /server\s+GET \/api\/users\/:id\s+200/.test(output()), 'the server span', output);
    expect(output()).to.match(/http\.route=\/api\/users\/:id/);
  });

  it('without the OpenTelemetry packages: a warning, and the app serves as usual', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'example-tracing-'));
    const hide = path.join(dir, 'hide-opentelemetry.js');
    writeFileSync(hide, HIDE_OPENTELEMETRY);
    try {
      server = await start(['--require', hide]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await fetch(`${server.url}/api/users/1`)).status).to.equal(200);
    expect(server.output()).to.include(
      'the OpenTelemetry packages are not installed; running without tracing',
    );
    expect(server.output()).not.to.match(/^span /m);
  });
});
