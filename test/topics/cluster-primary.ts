/**
 * The primary of the cluster topic tests: relays the workers' publications (setupClusterPrimary),
 * forks WORKERS workers running topic-server.ts, and passes messages between them and the test:
 * a worker's as `{ worker: i, message }`, and `{ worker: i, command }` from the test to worker i;
 * `{ worker: i, raw, count }` sends `raw` to worker i `count` times as the primary, untouched.
 */
import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { setupClusterPrimary } from '../../src';

setupClusterPrimary();
cluster.setupPrimary({
  exec: path.join(__dirname, 'topic-server.ts'),
  execArgv: ['--import', 'tsx'],
});
const workers: Worker[] = [];
const count = Number(process.env.WORKERS ?? 3);
for (let i = 0; i < count; i++) {
  const worker = cluster.fork({ BACKPLANE: 'cluster' });
  workers.push(worker);
  worker.on('message', (message: { type?: string }) => {
    // The library's own messages (tagged) are relayed between workers, not to the test.
    if (typeof message?.type === 'string') process.send!({ worker: i, message });
  });
}
interface FromTest {
  worker?: number;
  command?: { type: string };
  raw?: object;
  count?: number;
}
process.on('message', ({ worker, command, raw, count = 1 }: FromTest) => {
  if (typeof worker !== 'number') return;
  if (raw !== undefined) for (let i = 0; i < count; i++) workers[worker]!.send(raw);
  else workers[worker]!.send(command!);
});
process.on('disconnect', () => {
  for (const worker of workers) worker.kill();
  process.exit(0);
});
