/**
 * Run by Bun or Deno, never by Node: serves endpoint trees through `endpoints.fetch` on the runtime's
 * own server (`Bun.serve`, `Deno.serve`), as a user's app does, for the shared suites to drive over
 * HTTP from Node (./runtime-hosts.ts). Under Deno it runs with `--allow-read --allow-net` only: what
 * the library needs there, and no more.
 *
 *   bun run test/runtimes/harness.ts <library bundle>
 *   deno run --allow-read --allow-net test/runtimes/harness.ts <library bundle>
 *
 * It prints `listening <port>` once its control server listens on a loopback port, then answers:
 *   POST /start  {dir, bodyLimit?, middleware?, asyncContext?, cache?, etag?}  mounts the tree, serves it on a port of its own:
 *                                                {id, port}; `middleware` are functions' source
 *   POST /stop   {id}                            stops that server
 *   GET  /events?since=<n>                       what happened in this process that a test asserts
 *                                                on, from the n-th on: `onError` calls, and what the
 *                                                fixture endpoints recorded in their shared state;
 *                                                and the hardening fixtures' stream records as they are
 */
import { pathToFileURL } from 'node:url';
import type { EndpointErrorInfo, EndpointsMiddleware, MountOptions, WebMiddleware } from '../../src';
import { state } from '../fixtures/app/_lib/store';
import { state as hardening } from '../fixtures/hardening-app/app/_lib/state';

type Fetch = (request: Request) => Promise<Response>;
interface RunningServer {
  port: number;
  stop(): Promise<void>;
}
interface BunGlobal {
  serve(options: { port: number; hostname: string; fetch: Fetch }): {
    port: number;
    stop(closeActiveConnections?: boolean): Promise<void> | void;
  };
}
interface DenoGlobal {
  serve(
    options: { port: number; hostname: string; onListen(address: { port: number }): void },
    handler: Fetch,
  ): { finished: Promise<void>; shutdown(): Promise<void> };
}

const runtime = globalThis as { Bun?: BunGlobal; Deno?: DenoGlobal };

/** `Bun.serve` or `Deno.serve` on a free loopback port: the serve line docs/runtimes.md gives. */
async function serve(fetch: Fetch): Promise<RunningServer> {
  if (runtime.Bun) {
    const server = runtime.Bun.serve({ port: 0, hostname: '127.0.0.1', fetch });
    return { port: server.port, stop: async () => void (await server.stop(true)) };
  }
  let listening!: (port: number) => void;
  const port = new Promise<number>((resolve) => (listening = resolve));
  const server = runtime.Deno!.serve(
    { port: 0, hostname: '127.0.0.1', onListen: (address) => listening(address.port) },
    fetch,
  );
  return { port: await port, stop: () => server.shutdown() };
}

/** What the suites read back: each event once, in order. */
const events: unknown[] = [];

/** What the fixture endpoints record in their shared state (arrays: `afterLog`, `slowAborted`…), as it is added. */
for (const [key, value] of Object.entries(state)) {
  if (!Array.isArray(value)) continue;
  const push = value.push.bind(value);
  Object.defineProperty(value, 'push', {
    value: (...items: unknown[]) => {
      for (const item of items) events.push({ kind: 'state', key, item });
      return push(...items);
    },
  });
}

const library = (await import(pathToFileURL(process.argv[2]!).href)) as typeof import('../../src');
const servers = new Map<number, { server: RunningServer; endpoints: EndpointsMiddleware }>();
let nextId = 1;

interface StartRequest {
  dir: string;
  bodyLimit?: MountOptions['bodyLimit'];
  middleware?: string[];
  asyncContext?: boolean;
  /** The `cache` option: `true` for a store in memory. */
  cache?: boolean;
  etag?: MountOptions['etag'];
}

async function start(options: StartRequest) {
  const id = nextId++;
  const onError = (error: unknown, info: EndpointErrorInfo) => {
    const { request, ...rest } = info;
    events.push({
      kind: 'error',
      server: id,
      name: (error as Error | undefined)?.name,
      message: (error as Error | undefined)?.message ?? String(error),
      info: rest,
      request: request && { method: request.method, url: request.url },
    });
  };
  // Functions sent as their source: the suites' middleware are self-contained.
  const middleware = options.middleware?.map((source) => (0, eval)(`(${source})`) as WebMiddleware);
  const endpoints = library.mountEndpoints({
    dir: options.dir,
    bodyLimit: options.bodyLimit,
    onError,
    middleware,
    asyncContext: options.asyncContext,
    ...(options.cache && { cache: {} }),
    etag: options.etag,
  });
  await endpoints.ready;
  const server = await serve(endpoints.fetch);
  servers.set(id, { server, endpoints });
  return { id, port: server.port, routes: endpoints.routes };
}

async function control(request: Request): Promise<Response> {
  const url = new URL(request.url);
  try {
    if (url.pathname === '/events') {
      const since = Number(url.searchParams.get('since') ?? 0);
      return Response.json({ events: events.slice(since), next: events.length, streams: hardening.streams });
    }
    if (url.pathname === '/start') return Response.json(await start((await request.json()) as StartRequest));
    if (url.pathname === '/stop') {
      const { id } = (await request.json()) as { id: number };
      const running = servers.get(id);
      servers.delete(id);
      await running?.endpoints.close();
      await running?.server.stop();
      return new Response(null, { status: 204 });
    }
    return new Response('no such command', { status: 404 });
  } catch (error) {
    return new Response((error as Error).stack ?? String(error), { status: 500 });
  }
}

const controlServer = await serve(control);
console.log(`listening ${controlServer.port}`);
