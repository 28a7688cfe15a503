/**
 * A WebSocket upgrade is served as any request of its route (`serveRoute`), so it is traced as one:
 * the request channel sees its route, its file and the `websocket.upgrade` hook in the handler's
 * place, and its status once the handshake is written: `101` for a socket, the refusal's otherwise.
 */
import dc from 'node:diagnostics_channel';
import path from 'node:path';
import { expect } from 'chai';
import type { RequestTraceContext } from '../../src';
import { hosts, type RunningHost } from '../integration/hosts';
import { connect, refusal } from './sockets';

const dir = path.join(__dirname, '../fixtures/socket-app');
const channel = dc.tracingChannel<unknown, RequestTraceContext>('express-file-endpoints:request');

/** The traces that end while `run` runs, as their `asyncEnd` publishes them. */
async function traced(run: () => Promise<void>, count: number): Promise<RequestTraceContext[]> {
  const ended: RequestTraceContext[] = [];
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  const asyncEnd = (context: RequestTraceContext) => {
    ended.push({ ...context, status: context.status } as RequestTraceContext);
    if (ended.length === count) done();
  };
  channel.asyncEnd.subscribe(asyncEnd as (message: unknown) => void);
  try {
    await run();
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 2000))]);
  } finally {
    channel.asyncEnd.unsubscribe(asyncEnd as (message: unknown) => void);
  }
  return ended;
}

const host = hosts[0]!;

describe(`WebSocket upgrades, traced (${host.name})`, () => {
  let running: RunningHost;
  let ws: string;
  before(async () => {
    running = await host.start({ dir });
    running.endpoints.attach(running.server);
    ws = running.url.replace('http:', 'ws:');
  });
  after(() => running.close());

  it('traces an accepted upgrade by its route, with the hook as its export and 101 as its status', async () => {
    const [trace] = await traced(async () => {
      const client = await connect(`${ws}/echo`);
      client.ws.close();
      await client.closed;
    }, 1);
    expect(trace).to.include({
      route: '/echo',
      method: 'GET',
      export: 'websocket.upgrade',
      status: 101,
      aborted: false,
    });
    expect(trace!.file).to.match(/socket-app\/echo\/endpoint\.ts$/);
  });

  it("traces a refusal with the refusal's status: a guard's, and an origin's", async () => {
    const traces = await traced(async () => {
      expect((await refusal(`${ws}/guarded`)).status).to.equal(401);
      expect((await refusal(`${ws}/echo`, { headers: { origin: 'https://evil.example' } })).status).to.equal(
        403,
      );
    }, 2);
    expect(traces.map((trace) => [trace.route, trace.status])).to.deep.equal([
      ['/guarded', 401],
      ['/echo', 403],
    ]);
  });
});
