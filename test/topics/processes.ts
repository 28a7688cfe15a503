/**
 * Servers of the topics fixture in processes of their own (topic-server.ts): forked one by one
 * (`forkServers`, each with the Redis backplane, say) or as the workers of a node:cluster
 * (`forkCluster`), each on its own port. The test talks to each through IPC.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface ServerProcess {
  port: number;
  base: string;
  wsBase: string;
  /** What onError was told, in order. */
  errors: { export: string; message: string }[];
  /** Sends a command and resolves with the next message of `reply`'s type. */
  ask<T = Record<string, unknown>>(command: object, reply: string): Promise<T>;
  stats(): Promise<{
    published: number;
    received: number;
    delivered: number;
    slowSubscribers: number;
    lost: number;
    backplane?: { name: string; up: boolean };
  }>;
}

interface Channel {
  send(command: object): void;
  listen(listener: (message: { type: string } & Record<string, unknown>) => void): void;
}

function serverProcess(channel: Channel): Promise<ServerProcess> {
  const waiting: { type: string; resolve: (message: never) => void }[] = [];
  const errors: ServerProcess['errors'] = [];
  return new Promise((resolve) => {
    channel.listen((message) => {
      if (message.type === 'error') errors.push(message as never);
      if (message.type === 'ready') {
        const port = message.port as number;
        const server: ServerProcess = {
          port,
          base: `http://127.0.0.1:${port}`,
          wsBase: `ws://127.0.0.1:${port}`,
          errors,
          ask: (command, reply) =>
            new Promise((answer) => {
              waiting.push({ type: reply, resolve: answer as never });
              channel.send(command);
            }),
          stats: () => server.ask<{ stats: never }>({ type: 'stats' }, 'stats').then((reply) => reply.stats),
        };
        resolve(server);
        return;
      }
      const at = waiting.findIndex((wait) => wait.type === message.type);
      if (at !== -1) waiting.splice(at, 1)[0]!.resolve(message as never);
    });
  });
}

export interface Processes {
  servers: ServerProcess[];
  /** In a cluster: the primary sends `message` to worker `worker` `count` times, as it is. */
  sendFromPrimary?(worker: number, message: object, count: number): void;
  close(): Promise<void>;
}

const SERVER = path.join(__dirname, 'topic-server.ts');

/** `count` servers, each its own process with `env` (BACKPLANE, REDIS_URL, LIMIT). */
export async function forkServers(count: number, env: Record<string, string>): Promise<Processes> {
  const children: ChildProcess[] = [];
  const servers = await Promise.all(
    Array.from({ length: count }, () => {
      const child = fork(SERVER, {
        execArgv: ['--expose-gc', '--import', 'tsx'],
        env: { ...process.env, ...env },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      children.push(child);
      return serverProcess({
        send: (command) => child.send(command),
        listen: (listener) => child.on('message', listener as never),
      });
    }),
  );
  return { servers, close: () => closeAll(children) };
}

/** A node:cluster primary (cluster-primary.ts) with `count` workers on the cluster backplane. */
export async function forkCluster(count: number): Promise<Processes> {
  const primary = fork(path.join(__dirname, 'cluster-primary.ts'), {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, WORKERS: String(count) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const servers = await Promise.all(
    Array.from({ length: count }, (_, worker) =>
      serverProcess({
        send: (command) => primary.send({ worker, command }),
        listen: (listener) =>
          primary.on('message', (relayed: { worker: number; message: { type: string } }) => {
            if (relayed.worker === worker) listener(relayed.message);
          }),
      }),
    ),
  );
  return {
    servers,
    sendFromPrimary: (worker, raw, count) => primary.send({ worker, raw, count }),
    close: () => closeAll([primary]),
  };
}

async function closeAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // The cluster's primary ends its workers when its channel closes; a server ends on `close`.
      if (child.connected) child.send({ type: 'close' }, () => child.disconnect());
      const cut = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(cut);
    }),
  );
}
