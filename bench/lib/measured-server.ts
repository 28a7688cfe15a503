/**
 * A bench server in a child process of its own, measured from the parent over IPC: its CPU time, and its
 * peak RSS since the last reset (the kernel's high-water mark, Linux). bench/uploads.ts and bench/files.ts
 * start theirs with `forkServer` and ask with `ask`; the servers answer with `serveMeasured`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts `script` under tsx with `env` (and `global.gc` exposed), without the parent's NODE_OPTIONS. */
export function forkServer(script: string, env: Record<string, string>): ChildProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.NODE_OPTIONS;
  return fork(script, [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: childEnv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** The server's next message, after sending it `question` if given; rejects if it exits first. */
export function ask<T>(child: ChildProcess, question?: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`a bench server exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (message) => {
      child.off('exit', onExit);
      resolve(message as T);
    });
    if (question) child.send({ ask: question });
  });
}

/** The kernel's high-water mark of this process's RSS, reset by `resetPeak()`. */
const peakRss = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;
const resetPeak = () => writeFileSync('/proc/self/clear_refs', '5');

/**
 * In the child: listens with `server` on a free port (told to the parent as `{ port }`), and answers `cpu`,
 * `reset-peak` and `peak`; `more` answers the bench's own questions.
 */
export function serveMeasured(server: http.Server, more: Record<string, () => Promise<object>> = {}): void {
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
  process.on('message', (message: { ask: string }) => {
    if (message.ask === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send!({ cpu: user + system });
    } else if (message.ask === 'reset-peak') {
      global.gc?.();
      resetPeak();
      process.send!({ rss: process.memoryUsage.rss() });
    } else if (message.ask === 'peak') {
      process.send!({ peak: peakRss() });
    } else if (more[message.ask]) {
      void more[message.ask]!().then((answer) => process.send!(answer));
    }
  });
}
