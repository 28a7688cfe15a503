/**
 * The clients of the fan-out benchmark, in a process of their own: `sockets` per server (WebSockets
 * for `efe`, socket.io-client over WebSocket for `socket.io`). Each message's latency is the
 * monotonic clock at receipt minus the one it carries. Told `{ type: 'reset' }` it forgets what came
 * before; `{ type: 'report' }` answers the count and the latencies' percentiles.
 */
import { io } from 'socket.io-client';
import WebSocket from 'ws';

const [variant, ports, perServer] = [
  process.argv[2]!,
  process.argv[3]!.split(',').map(Number),
  Number(process.argv[4]),
];
let latencies: number[] = [];
let warmed = 0;
const warm = new Set<number>();

function received(data: string, id: number): void {
  const bar = data.indexOf('|');
  const sent = BigInt(data.slice(0, bar));
  if (data.startsWith('warm', bar + 1)) {
    if (!warm.has(id)) {
      warm.add(id);
      warmed++;
    }
    return;
  }
  latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
}

let id = 0;
const opened: Promise<unknown>[] = [];
for (const port of ports) {
  for (let i = 0; i < perServer; i++) {
    const me = id++;
    if (variant === 'efe') {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/feed`);
      ws.on('message', (data: Buffer) => received(data.toString(), me));
      opened.push(new Promise((resolve) => ws.once('open', resolve)));
    } else {
      const socket = io(`http://127.0.0.1:${port}`, { transports: ['websocket'] });
      socket.on('m', (data: string) => received(data, me));
      opened.push(new Promise((resolve) => socket.once('connect', () => resolve(undefined))));
    }
  }
}
await Promise.all(opened);
process.send!({ type: 'connected' });
process.on('message', (command: { type: string }) => {
  if (command.type === 'warmed') process.send!({ type: 'warmed', count: warmed });
  if (command.type === 'reset') latencies = [];
  if (command.type === 'report') {
    const sorted = Float64Array.from(latencies).sort();
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
    process.send!({ type: 'report', count: sorted.length, p50: at(0.5), p99: at(0.99), max: at(1) });
  }
});
process.on('disconnect', () => process.exit(0));
