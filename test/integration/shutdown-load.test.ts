/**
 * A rolling deploy's SIGTERM, for real: a child process serves 50 slow requests, 20 event streams
 * and 20 WebSockets when it is told to stop, and runs the SIGTERM recipe of docs/mounting.md. Every
 * request it had accepted completes with its whole body, every stream gets its final event, every
 * socket a 1001, every `after()` callback runs, and the process exits 0 within the timeout. Past
 * the timeout, the handlers still running see an abort whose reason says shutdown.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { once } from 'node:events';
import { expect } from 'chai';
import { parseEventStream } from '../event-stream/support';

const SERVER = path.join(__dirname, '../fixtures/shutdown-app/server.ts');
const ROOT = path.join(__dirname, '../..');

interface Child {
  child: ChildProcess;
  port: number;
  /** Resolves with what the server printed once closed, and its exit code. */
  exited: Promise<{ code: number | null; closed: unknown; at: number }>;
}

async function startServer(timeout: number): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: ROOT,
    env: { ...process.env, SHUTDOWN_TIMEOUT: String(timeout) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  let seePort!: (port: number) => void;
  const port = new Promise<number>((resolve) => (seePort = resolve));
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    output += chunk;
    const first = /^\{"port":(\d+)\}\n/.exec(output);
    if (first) seePort(Number(first[1]));
  });
  const exited = once(child, 'exit').then(([code]) => {
    const closed = /\{"closed":.*\}/.exec(output);
    return {
      code: code as number | null,
      closed: closed ? (JSON.parse(closed[0]) as { closed: unknown }).closed : undefined,
      at: performance.now(),
    };
  });
  return { child, port: await port, exited };
}

function get(port: number, urlPath: string, agent: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** An event stream: resolves its text once it ends; `opened` once its first event is in. */
function stream(port: number): { text: Promise<string>; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const text = new Promise<string>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/feed', agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          if (body.includes('\n\n')) open();
        });
        res.on('end', () => resolve(body));
        res.on('error', reject);
      })
      .on('error', reject);
  });
  return { text, opened };
}

/** A WebSocket: resolves once open, with `closed`: the close code the server gave. */
async function socket(port: number): Promise<{ closed: Promise<number> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/socket`);
  const closed = new Promise<number>((resolve) =>
    ws.addEventListener('close', (event) => resolve(event.code)),
  );
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve);
    ws.addEventListener('error', reject);
  });
  // In an object: an async function returning the promise itself would wait for it.
  return { closed };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SIGTERM under load, in a child process', function () {
  this.timeout(30_000);
  let server: Child | undefined;
  afterEach(() => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  });

  it('finishes every request, ends every stream and socket, runs every after(), and exits 0 in time', async () => {
    const TIMEOUT = 5000;
    server = await startServer(TIMEOUT);
    const { port } = server;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 100 });

    const streams = Array.from({ length: 20 }, () => stream(port));
    const sockets = await Promise.all(Array.from({ length: 20 }, () => socket(port)));
    await Promise.all(streams.map((s) => s.opened));
    const requests = Array.from({ length: 50 }, () => get(port, '/slow?ms=600&kib=64', agent));
    // Every request is in the server's hands (600 ms from its answer) when the signal comes.
    await sleep(300);

    const signalled = performance.now();
    server.child.kill('SIGTERM');

    for (const reply of await Promise.all(requests)) {
      expect(reply.status).to.equal(200);
      expect(reply.body.length).to.equal(64 * 1024);
    }
    for (const { text } of streams) {
      const { events } = parseEventStream(await text);
      expect(events.at(-1)).to.deep.equal({ event: 'shutdown', data: '', id: undefined });
    }
    expect(await Promise.all(sockets.map((s) => s.closed))).to.deep.equal(Array(20).fill(1001));

    // The client's keep-alive connections hold nothing open: the process ends by itself.
    const { code, closed, at } = await server.exited;
    agent.destroy();
    expect(code).to.equal(0);
    expect(closed).to.deep.include({ afterCallbacks: 50, aborts: [] });
    expect((closed as { streamEnds: string[] }).streamEnds).to.deep.equal(Array(20).fill('ShutdownError'));
    expect(at - signalled).to.be.lessThan(TIMEOUT);
  });

  it('past the timeout, aborts the handlers still running with a reason that says shutdown, and exits 0', async () => {
    const TIMEOUT = 300;
    server = await startServer(TIMEOUT);
    const { port } = server;
    const stuck = Array.from({ length: 5 }, () =>
      get(port, '/stuck', new http.Agent()).then(
        () => 'answered',
        (error: NodeJS.ErrnoException) => error.code,
      ),
    );
    await sleep(200);
    const signalled = performance.now();
    server.child.kill('SIGTERM');

    expect(await Promise.all(stuck)).to.deep.equal(Array(5).fill('ECONNRESET'));
    const { code, closed, at } = await server.exited;
    expect(code).to.equal(0);
    const { aborts } = closed as { aborts: { name: string; message: string }[] };
    expect(aborts).to.have.length(5);
    for (const abort of aborts) {
      expect(abort.name).to.equal('ShutdownError');
      expect(abort.message).to.match(/shutting down: endpoints\.close\(\) stopped waiting/);
    }
    // The timeout, then a moment for the aborted handlers to end.
    expect(at - signalled).to.be.within(TIMEOUT, TIMEOUT + 1500);
  });
});
