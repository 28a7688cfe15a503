/**
 * 1,000 WebSockets open at once on each host, every one echoing a message: the server's heap,
 * measured after a full gc in its own process (many-server.ts), may grow by less than 20 KiB per
 * connection (measured on Node 24: 6.7 KiB of heap, 21 to 36 KiB of RSS; ws's socket and ours, Node's socket and parser
 * buffers), and every socket closes with 1001 when the server closes.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { expect } from 'chai';
import WebSocket from 'ws';
import { hosts } from '../integration/hosts';

const CONNECTIONS = 1000;
const BUDGET_PER_CONNECTION = 20 * 1024;

type Memory = { type: 'memory'; heapUsed: number; rss: number };

describe('1,000 concurrent WebSockets', function () {
  this.timeout(120_000);
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill();
  });

  for (const host of hosts) {
    it(`on ${host.name}: echo on every one, bounded server memory`, async () => {
      child = fork(path.join(__dirname, 'many-server.ts'), [host.name], {
        execArgv: ['--expose-gc', '--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const [ready] = (await once(child, 'message')) as [{ port: number }];
      const measure = async (): Promise<Memory> => {
        child!.send('measure');
        const [memory] = (await once(child!, 'message')) as [Memory];
        return memory;
      };
      const url = `ws://127.0.0.1:${ready.port}/echo`;
      // One connection first, so that what loads once (ws itself) is not counted per connection.
      const warm = new WebSocket(url);
      await once(warm, 'open');
      const before = await measure();

      const sockets: WebSocket[] = [];
      for (let batch = 0; batch < CONNECTIONS; batch += 100) {
        const opened = Array.from({ length: 100 }, () => new WebSocket(url));
        await Promise.all(opened.map((ws) => once(ws, 'open')));
        sockets.push(...opened);
      }
      const echoes = await Promise.all(
        sockets.map(async (ws, i) => {
          const reply = once(ws, 'message');
          ws.send(`#${i}`);
          const [data] = (await reply) as [Buffer];
          return data.toString() === `#${i}`;
        }),
      );
      expect(echoes.every(Boolean)).to.equal(true);
      const after = await measure();
      const perConnection = (after.heapUsed - before.heapUsed) / CONNECTIONS;
      if (process.env.SHOW_MEMORY)
        console.log(
          `    ${host.name}: heap +${(perConnection / 1024).toFixed(1)} KiB, RSS +${((after.rss - before.rss) / CONNECTIONS / 1024).toFixed(1)} KiB per connection`,
        );
      expect(perConnection).to.be.below(BUDGET_PER_CONNECTION);

      const codes = [warm, ...sockets].map((ws) => once(ws, 'close').then(([code]) => code as number));
      child.send('close');
      expect(new Set(await Promise.all(codes))).to.deep.equal(new Set([1001]));
    });
  }
});
