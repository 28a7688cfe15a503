/**
 * A real Redis for the tests: Debian's `redis-server` (or REDIS_SERVER), started by the test itself
 * on a free loopback port, with no persistence, in a folder of its own, and stopped by its pid.
 * Without the binary the test is skipped with the command that installs it, except under CI=true,
 * where it fails: CI installs it (.ci/run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
export const INSTALL_HINT = `redis-server not found at ${REDIS_SERVER}: apt-get update && apt-get install -y redis-server (or set REDIS_SERVER)`;

export interface RedisServer {
  port: number;
  url: string;
  pid: number;
  /** Kills it (SIGKILL: a broker that dies, not one that says goodbye); resolves once it has exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  restart(): Promise<void>;
  /** Stops it for good and removes its folder. */
  stop(): Promise<void>;
}

/** Whether the tests can have a Redis; under CI a missing one throws. */
export function redisAvailable(): boolean {
  if (existsSync(REDIS_SERVER)) return true;
  if (process.env.CI) throw new Error(INSTALL_HINT);
  return false;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'efe-redis-'));
  let child: ChildProcess | undefined;
  const run = async () => {
    child = await launch(port, dir);
  };
  await run();
  const stopChild = async (signal: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    process.kill(running.pid!, signal);
    await exited;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child?.pid ?? 0;
    },
    kill: () => stopChild('SIGKILL'),
    restart: run,
    async stop() {
      await stopChild('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function launch(port: number, dir: string): Promise<ChildProcess> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
  ];
  const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start in 10 s:\n${output}`)),
      10_000,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return child;
}

/** A port nothing listens on now: the kernel's pick for a listener closed at once. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
