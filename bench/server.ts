/**
 * One bench server: `node bench/.scratch/build/server.mjs '<json config>'` builds the variant named in the
 * config for one scenario, listens on 127.0.0.1 at an ephemeral port and prints `LISTENING <port>`.
 *
 * Peers are imported only by their own variants, so @hono/node-server's replacement of the global
 * Request/Response (its default) never reaches another variant's process. Handlers of the Web
 * bridges (ours and the peers) are the very endpoint files under bench/trees, so they all run the
 * same code; the native variants rebuild the same bytes the Node/Express way.
 *
 * With an IPC channel (forked), `cpu-start`/`cpu-stop` report the CPU time used in between,
 * `globals` whether the global Request/Response are still the runtime's, and `mem-start`/`mem-stop`
 * the RSS before and the high-water RSS after a transfer (scenario f), with how far ArrayBuffers and
 * the JavaScript heap grew on the way, to tell the bytes in flight from the bridge's own objects.
 */
import { hash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import { pathToFileURL } from 'node:url';
import { Readable, Writable, pipeline } from 'node:stream';
import type { Express } from 'express';
import helmet from 'helmet';
import { bridgeMiddleware, expressMiddleware, mountEndpoints } from '../src/index';
import {
  BIG_CHUNKS,
  CHUNK_SIZE,
  FILL_BYTE,
  HELLO,
  LAST_ROUTE,
  MANY_ROUTES,
  STREAM_CHUNKS,
  routeBody,
  routeName,
} from './lib/payloads';
import { PEERS, peerListener } from './lib/peers';
import {
  BYHAND_TREE,
  CACHED_TREE,
  CONTRACT_TREE,
  REQUEST_TREE,
  SMALL_TREE,
  endpointFile,
  treeDir,
} from './lib/trees';

export interface ServerConfig {
  scenario: 'a' | 'b' | 'c' | 'd' | 'f';
  /** `<host>-<library>` or `<library>-<host>`, then `[+json|+request|+contract|+byhand|+bridged][@one|@many]`; see lib/variants.ts. */
  variant: string;
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

const require = createRequire(import.meta.url);
// Taken before any peer is imported: a variant that swaps them is caught by the driver's check.
const NATIVE_REQUEST = globalThis.Request;
const NATIVE_RESPONSE = globalThis.Response;
const CHUNK = new Uint8Array(CHUNK_SIZE).fill(FILL_BYTE);
const chunkCount = (scenario: ServerConfig['scenario']) => (scenario === 'f' ? BIG_CHUNKS : STREAM_CHUNKS);

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as ServerConfig;
  const listener = await buildListener(config);
  const server = http.createServer(listener);
  await listenBelow60000(server);
  watchMemory();
  process.stdout.write(`LISTENING ${(server.address() as AddressInfo).port}\n`);
  process.on('SIGTERM', () => process.exit(0));
  process.on('SIGINT', () => process.exit(0));
}

/**
 * On a port the OS picks, below 60000: @hono/node-server builds its request URL by its fast path only for
 * a Host whose port it takes for one (1000–59999), and parses it with `new URL()` otherwise. Linux hands
 * out ports up to 60999, so some runs would measure it on its slow path.
 */
async function listenBelow60000(server: http.Server): Promise<void> {
  for (;;) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    if ((server.address() as AddressInfo).port < 60_000) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The large tree's endpoint modules, imported one by one and never mounted (`+modules`). */
async function importManyModules(): Promise<void> {
  for (let i = 0; i < MANY_ROUTES; i++)
    await import(pathToFileURL(endpointFile(treeDir('many-js'), i, 'js')).href);
}

async function buildListener(config: ServerConfig): Promise<RequestListener> {
  const [base, routes = 'one'] = config.variant.split('@') as [string, string | undefined];
  const [name, extra, second] = base.split('+') as [
    string,
    (
      | 'json'
      | 'request'
      | 'contract'
      | 'byhand'
      | 'bridged'
      | 'ctx'
      | 'etag'
      | 'noetag'
      | 'modules'
      | 'setproto'
      | 'helmet'
      | 'apphelmet'
      | 'guard'
      | 'cache'
      | 'apicache'
      | undefined
    ),
    'etag' | undefined,
  ];
  // `+etag` on a floor (after `+request`, if any): the floor also sends the ETag native Express does.
  const floorEtag = extra === 'etag' || second === 'etag';
  // `+modules` (scenario d, one route): the 1,000 endpoint modules of the large tree imported and never
  // mounted, to tell what holding them costs a process from what routing among them costs.
  if (extra === 'modules') await importManyModules();
  const json = extra === 'json';
  // `node-raw`, `express5-native`, `ee-express5`, `hono-node`: one part names the host.
  const parts = name.split('-');
  const host = parts.find((p) => p === 'node' || p.startsWith('express'))!;
  const library = parts.find((p) => p !== host)!;
  const dir =
    config.scenario === 'd'
      ? treeDir(routes === 'many' ? 'many-js' : 'one-js')
      : extra === 'request'
        ? REQUEST_TREE
        : extra === 'cache'
          ? CACHED_TREE
          : extra === 'contract'
            ? CONTRACT_TREE
            : extra === 'byhand'
              ? BYHAND_TREE
              : SMALL_TREE;

  if (host === 'node') {
    if (library === 'raw') return extra === 'setproto' ? rawWithNewPrototypes() : rawNode(config.scenario);
    if (library === 'response') return rawWithResponse();
    if (library === 'readfloor') return readFloor(extra === 'request', floorEtag);
    if (library === 'reqstream') return requestStreamFloor(floorEtag);
    // The middleware answers 404 itself when no `next` is given.
    // `+etag`: ETags and 304s, which node:http has only when the option asks.
    if (library === 'ee')
      return mountEndpoints({ dir, etag: extra === 'etag' }) as unknown as RequestListener;
    if (PEERS.includes(library)) return peerListener(library);
  }

  const express = (
    host === 'express4' ? require('express4') : require('express')
  ) as typeof import('express');
  const app = express();
  // `+noetag`: what the ETag of a body sent whole costs, the app's setting off (native and endpoints alike).
  if (extra === 'noetag') app.set('etag', false);
  if (json) app.use(express.json());
  // A Web middleware that passes every request on: what bridgeMiddleware costs in front of a route.
  if (extra === 'bridged') app.use(bridgeMiddleware((_request, next) => next()));
  switch (library) {
    case 'floor': {
      const body = JSON.stringify(HELLO);
      app.use((_req, res) => res.end(body));
      break;
    }
    case 'native':
      nativeRoutes(app, config.scenario, routes === 'many', routeMiddleware(extra));
      break;
    case 'response':
      app.use(rawWithResponse() as unknown as Middleware);
      break;
    case 'readfloor':
      app.use(readFloor(extra === 'request', floorEtag) as unknown as Middleware);
      break;
    case 'reqstream':
      app.use(requestStreamFloor(floorEtag) as unknown as Middleware);
      break;
    case 'ee': {
      // `+ctx`: what `getContext()` costs a mount that enables it. `+helmet`, `+guard`: Express middleware
      // around the endpoint through expressMiddleware, in the chain a folder's middleware.ts is part of.
      const around = routeMiddleware(extra);
      // `+apphelmet`: the same helmet() in front of the mount, as an app's own app.use() puts it.
      if (extra === 'apphelmet') app.use(helmet() as unknown as Middleware);
      await mountEndpoints(app, {
        dir,
        asyncContext: extra === 'ctx',
        middleware: around.length > 0 ? [expressMiddleware(around)] : undefined,
        // `+cache`: the endpoint exports `cache`, and the mount keeps its answer in memory.
        cache: extra === 'cache' ? {} : undefined,
      });
      break;
    }
    default:
      if (!PEERS.includes(library)) throw new Error(`unknown variant ${config.variant}`);
      app.use((await peerListener(library)) as unknown as Middleware);
  }
  return app as unknown as RequestListener;
}

/** `+helmet`: `helmet()` at its defaults; `+guard`: a trivial `(req, res, next)` guard; in front of the route. */
function routeMiddleware(extra: string | undefined): Middleware[] {
  if (extra === 'helmet') return [helmet() as unknown as Middleware];
  if (extra === 'apicache') return [apicacheStyle()];
  if (extra === 'guard') {
    return [
      (req, res, next) => {
        if (req.headers['x-blocked'] === undefined) return next();
        res.statusCode = 403;
        res.end();
      },
    ];
  }
  return [];
}

/**
 * `+apicache`: what apicache's memory store does for an Express route, written out: the answer's status,
 * headers and body kept by URL the first time, and sent from there after (a hit writes them back itself).
 */
function apicacheStyle(): Middleware {
  const kept = new Map<
    string,
    { status: number; headers: Record<string, string | string[] | number>; body: Buffer }
  >();
  return (req, res, next) => {
    const hit = kept.get(req.url ?? '');
    if (hit) {
      res.writeHead(hit.status, hit.headers);
      res.end(hit.body);
      return;
    }
    const end = res.end.bind(res) as (chunk?: unknown) => typeof res;
    (res as { end: unknown }).end = (chunk?: unknown) => {
      const body = Buffer.isBuffer(chunk) ? chunk : Buffer.from(typeof chunk === 'string' ? chunk : '');
      kept.set(req.url ?? '', {
        status: res.statusCode,
        headers: res.getHeaders() as Record<string, string | string[] | number>,
        body,
      });
      return end(chunk);
    };
    next();
  };
}

function nativeRoutes(
  app: Express,
  scenario: ServerConfig['scenario'],
  many: boolean,
  before: Middleware[] = [],
): void {
  switch (scenario) {
    case 'a':
      app.get('/api/hello', ...before, (_req, res) => {
        res.json(HELLO);
      });
      return;
    case 'b':
      // Behind `express.json()` (the `+json` variants); without it there is no body to echo.
      app.post('/api/echo', (req, res) => {
        res.json(req.body);
      });
      return;
    case 'c':
      app.get('/api/stream', (_req, res) => {
        res.type('application/octet-stream');
        pipeline(Readable.from(chunks(STREAM_CHUNKS)), res, () => {});
      });
      return;
    case 'd':
      // Registered in order, so the requested route is the last one Express tries.
      for (let i = many ? 0 : LAST_ROUTE; i < MANY_ROUTES; i++) {
        app.get(`/api/${routeName(i)}/:id`, (req, res) => {
          res.json(routeBody(i, req.params.id!));
        });
      }
      return;
    case 'f':
      throw new Error('scenario f compares against raw node:http only');
  }
}

/**
 * `node-raw+setproto`, scenario (a): the raw handler after giving `req` and `res` new prototypes, as Express
 * does to every request (`Object.setPrototypeOf(req, app.request)`), to tell what that costs on each Node.
 */
function rawWithNewPrototypes(): RequestListener {
  const requestPrototype = Object.create(http.IncomingMessage.prototype) as object;
  const responsePrototype = Object.create(http.ServerResponse.prototype) as object;
  return (req, res) => {
    Object.setPrototypeOf(req, requestPrototype);
    Object.setPrototypeOf(res, responsePrototype);
    sendJson(res, HELLO);
  };
}

function rawNode(scenario: ServerConfig['scenario']): RequestListener {
  switch (scenario) {
    case 'a':
      return (_req, res) => sendJson(res, HELLO);
    case 'b':
      return (req, res) => {
        const parts: Buffer[] = [];
        req.on('data', (chunk: Buffer) => parts.push(chunk));
        req.on('end', () => sendJson(res, JSON.parse(Buffer.concat(parts).toString('utf8'))));
      };
    case 'c':
      return (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        pipeline(Readable.from(chunks(STREAM_CHUNKS)), res, () => {});
      };
    case 'd':
      return (req, res) => sendJson(res, routeBody(LAST_ROUTE, req.url!.split('/')[3]!));
    case 'f':
      // Piping both ways: the physical limit the bridge is measured against.
      return (req, res) => {
        if (req.method === 'POST') {
          let bytes = 0;
          const counter = new Writable({
            write(chunk: Buffer, _encoding, done) {
              bytes += chunk.length;
              done();
            },
          });
          pipeline(req, counter, (err) => (err ? res.destroy(err) : sendJson(res, { bytes })));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        pipeline(Readable.from(chunks(chunkCount(scenario))), res, () => {});
      };
  }
}

/**
 * Diagnostic for (a): the raw handler (or Express floor) that also builds, and drops, the
 * `Response.json()` the endpoint builds. No bridge can go faster while handlers use the
 * runtime's own Response.
 */
function rawWithResponse(): RequestListener {
  return (_req, res) => {
    const response = Response.json(HELLO);
    if (response.status !== 200) throw new Error('unreachable');
    sendJson(res, HELLO);
  };
}

/**
 * The floors a bridge that hands out the runtime's real `Request` and `Response` cannot go under,
 * with no routing and no checks: (a) `Response.json()` built, its body read back, its headers copied
 * and the bytes written with one `end()`; with `request`, the real Request a `GET(request)` handler
 * gets is built too (the URL, and the headers appended as they were sent).
 */
function readFloor(request: boolean, etag: boolean): RequestListener {
  return (req, res) => {
    if (request) {
      const built = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
        headers: headersOf(req),
      });
      if (built.method !== 'GET') throw new Error('unreachable');
    }
    void writeResponse(res, Response.json(HELLO), etag);
  };
}

/**
 * (b) The floor for a POST: a real Request over a pull stream of the Node request, its JSON read,
 * and the `Response.json()` of it written as `readFloor` writes one.
 */
function requestStreamFloor(etag: boolean): RequestListener {
  return (req, res) => {
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method: req.method,
      headers: headersOf(req),
      body: pullStream(req),
      duplex: 'half',
    } as RequestInit);
    void request.json().then((value) => writeResponse(res, Response.json(value), etag));
  };
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

function pullStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  const iterator = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    },
  });
}

async function writeResponse(res: ServerResponse, response: Response, etag: boolean): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.setHeader('content-length', body.byteLength);
  if (etag) res.setHeader('ETag', weakEtag(body));
  res.end(body);
}

/**
 * The weak ETag Express's default `etag` setting gives these bytes (its `etag` package's format),
 * through the cheapest SHA-1 Node has: the floor of sending the tag native Express sends.
 */
function weakEtag(body: Buffer): string {
  return `W/"${body.byteLength.toString(16)}-${hash('sha1', body, 'base64').slice(0, 27)}"`;
}

function sendJson(res: ServerResponse, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function* chunks(count: number): Generator<Uint8Array> {
  for (let i = 0; i < count; i++) yield CHUNK;
}

/**
 * Over IPC: the CPU time the process used during a measurement (user + system), and for
 * scenario (f) the RSS before a transfer and the process's high-water RSS after it.
 */
function watchMemory(): void {
  if (!process.send) return;
  let before = 0;
  let peakTracker: PeakTracker | undefined;
  let cpu = process.cpuUsage();
  let heap: HeapTracker | undefined;
  process.on('message', (message: { type: string }) => {
    if (message.type === 'cpu-start') {
      heap = trackHeap();
      cpu = process.cpuUsage();
      process.send!({ type: 'cpu-started' });
    } else if (message.type === 'cpu-stop') {
      const used = process.cpuUsage(cpu);
      const { allocated, gcMicros } = heap?.stop() ?? { allocated: Number.NaN, gcMicros: Number.NaN };
      process.send!({
        type: 'cpu',
        micros: used.user + used.system,
        user: used.user,
        system: used.system,
        allocated,
        gcMicros,
      });
    } else if (message.type === 'globals') {
      const replaced = globalThis.Request !== NATIVE_REQUEST || globalThis.Response !== NATIVE_RESPONSE;
      process.send!({ type: 'globals', replaced });
    } else if (message.type === 'mem-start') {
      before = process.memoryUsage.rss();
      peakTracker = trackPeak();
      process.send!({ type: 'mem-started', before });
    } else if (message.type === 'mem-stop') {
      const peaks = peakTracker?.stop() ?? {
        rss: Number.NaN,
        arrayBuffers: Number.NaN,
        heapUsed: Number.NaN,
      };
      process.send!({
        type: 'mem',
        before,
        peak: peaks.rss,
        arrayBuffersGrowth: peaks.arrayBuffers,
        heapUsedGrowth: peaks.heapUsed,
        now: process.memoryUsage.rss(),
      });
    }
  });
}

interface HeapTracker {
  stop(): { allocated: number; gcMicros: number };
}

/**
 * Bytes allocated on the JavaScript heap, and time spent in GC pauses, from now on. V8 exposes no
 * allocation counter, but every collection reports the heap it found and the heap it left: what was
 * allocated is what each collection found beyond what the one before it left, plus the growth since
 * the last one (`v8.GCProfiler`, Node 19.6+).
 */
function trackHeap(): HeapTracker {
  const profiler = new v8.GCProfiler();
  const startUsed = v8.getHeapStatistics().used_heap_size;
  profiler.start();
  return {
    stop() {
      const endUsed = v8.getHeapStatistics().used_heap_size;
      const result = profiler.stop() as {
        statistics: {
          cost: number;
          beforeGC: { heapStatistics: { usedHeapSize: number } };
          afterGC: { heapStatistics: { usedHeapSize: number } };
        }[];
      };
      let allocated = 0;
      let gcMicros = 0;
      let left = startUsed;
      for (const gc of result.statistics) {
        allocated += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - left);
        left = gc.afterGC.heapStatistics.usedHeapSize;
        gcMicros += gc.cost;
      }
      allocated += Math.max(0, endUsed - left);
      return { allocated, gcMicros };
    },
  };
}

interface PeakTracker {
  /** The peak RSS, and how far ArrayBuffers and the heap's used bytes grew at most (sampled), in bytes. */
  stop(): { rss: number; arrayBuffers: number; heapUsed: number };
}

/**
 * The process's peak RSS from now on. Linux: reset the kernel's high-water mark (`VmHWM`, via
 * /proc/self/clear_refs) and read it back at the end, which misses nothing. Elsewhere: sample
 * every 5 ms. (`resourceUsage().maxRSS` will not do: it counts from the process's start.)
 * ArrayBuffers (a request body's chunks, until a GC frees them) and the heap are sampled only.
 */
function trackPeak(): PeakTracker {
  const start = process.memoryUsage();
  const peak = { rss: start.rss, arrayBuffers: start.arrayBuffers, heapUsed: start.heapUsed };
  const sample = () => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
  };
  const timer = setInterval(sample, 5);
  let kernel = false;
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    kernel = true;
  } catch {
    // not Linux, or not allowed: sampling only
  }
  return {
    stop() {
      clearInterval(timer);
      sample();
      const grown = {
        arrayBuffers: peak.arrayBuffers - start.arrayBuffers,
        heapUsed: peak.heapUsed - start.heapUsed,
      };
      if (!kernel) return { rss: peak.rss, ...grown };
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
      return { rss: hwm ? Math.max(peak.rss, Number(hwm[1]) * 1024) : peak.rss, ...grown };
    },
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
