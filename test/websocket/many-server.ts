/**
 * The server of many-connections.test.ts, in a child process so that its memory is measured
 * alone: the socket fixture tree on the host named by argv[2], attached, with one message
 * from the parent through IPC per measurement ("measure": heap and RSS after a full gc), and
 * "close", which closes the server.
 */
import path from 'node:path';
import { hosts } from '../integration/hosts';

const gc = (globalThis as { gc?: () => void }).gc!;

async function main(): Promise<void> {
  const host = hosts.find((candidate) => candidate.name === process.argv[2])!;
  const running = await host.start({ dir: path.join(__dirname, '../fixtures/socket-app') });
  running.endpoints.attach(running.server);
  process.on('message', (message: string) => {
    if (message === 'close') running.server.close(() => process.exit(0));
    if (message !== 'measure') return;
    for (let i = 0; i < 3; i++) gc();
    const { heapUsed, rss } = process.memoryUsage();
    process.send!({ type: 'memory', heapUsed, rss });
  });
  process.send!({ type: 'ready', port: running.port });
}

void main();
