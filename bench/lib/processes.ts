/** The bench's child processes: servers (one per variant) and the load process. */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { CannonJob, CannonResult, TransferJob, TransferResult } from '../load';
import type { ServerConfig } from '../server';
import { BUILD } from './build';
import { BENCH_DIR } from './trees';

export const ROOT = path.resolve(BENCH_DIR, '..');

export const childEnv = (extra: Record<string, string> = {}) => {
  // The driver runs under tsx; its loader must not leak into the measured processes.
  const env: Record<string, string | undefined> = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  return env as NodeJS.ProcessEnv;
};

export interface RunningServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `build`: the folder holding server.mjs (bench/compare.ts also starts builds it kept). */
export function startServer(
  config: ServerConfig,
  execArgv: string[] = [],
  build = BUILD,
): Promise<RunningServer> {
  const child = fork(path.join(build, 'server.mjs'), [JSON.stringify(config)], {
    execArgv,
    env: childEnv(),
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => fail(new Error('no LISTENING line within 60 s')), 60_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill();
      reject(new Error(`${config.variant} (${config.scenario}): ${error.message}\n${stderr}`));
    };
    child.once('exit', (code) => fail(new Error(`exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /LISTENING (\d+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        url: `http://127.0.0.1:${match[1]}`,
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

export function ask<T>(child: ChildProcess, message: { type: string }, reply: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (m: { type: string }) => {
      if (m.type !== reply) return;
      child.off('message', onMessage);
      resolve(m as T);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

export class LoadProcess {
  private child = fork(path.join(BUILD, 'load.mjs'), [], { execArgv: [], env: childEnv(), cwd: ROOT });
  private next = 0;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly ready = new Promise<void>((resolve) => {
    this.child.on('message', (m: { type?: string; id?: number; result?: unknown; error?: string }) => {
      if (m.type === 'ready') return resolve();
      const job = this.pending.get(m.id!);
      if (!job) return;
      this.pending.delete(m.id!);
      if (m.error) job.reject(new Error(m.error));
      else job.resolve(m.result);
    });
  });

  run(job: Omit<CannonJob, 'id'>): Promise<CannonResult>;
  run(job: TransferJob): Promise<TransferResult>;
  run(job: CannonJob | TransferJob): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ ...job, id });
    });
  }

  close(): void {
    this.child.kill();
  }
}
