/**
 * The `node:diagnostics_channel` tracing channels: every event in order, with the
 * documented context, for requests that succeed, fail, are aborted or are answered by the tree
 * itself; on Express 5, Express 4, node:http and `.fetch`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import dc from 'node:diagnostics_channel';
import http from 'node:http';
import { expect } from 'chai';
import { mountEndpoints } from '../../src';
import type { MiddlewareTraceContext, RequestTraceContext } from '../../src/observe';
import { delay, requestText, waitFor, type Listening } from '../support/net';
import { HOST_NAMES, TREE, startHost } from './hosts';

type Context = RequestTraceContext | MiddlewareTraceContext;

interface Seen {
  /** `request start`, `middleware error`, … */
  event: string;
  context: Context;
  /** What `status` (and `aborted`, for requests) were when the event was published. */
  status: number | undefined;
  aborted?: boolean;
}

const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;
const FILE = (route: string) => `test/observe/fixtures/app${route}/endpoint.ts`;

/** Subscribes to both channels for the suite, and unsubscribes after it: they are process-wide. */
function record(): { seen: Seen[]; stop(): void } {
  const seen: Seen[] = [];
  const stops: (() => void)[] = [];
  for (const kind of ['request', 'middleware']) {
    const channel = dc.tracingChannel<unknown, Context>(`express-file-endpoints:${kind}`);
    const handlers = Object.fromEntries(
      EVENTS.map((event) => [
        event,
        (context: Context) =>
          seen.push({
            event: `${kind} ${event}`,
            context,
            status: context.status,
            aborted: 'aborted' in context ? context.aborted : undefined,
          }),
      ]),
    ) as unknown as dc.TracingChannelSubscribers<Context>;
    channel.subscribe(handlers);
    stops.push(() => channel.unsubscribe(handlers));
  }
  return { seen, stop: () => stops.forEach((stop) => stop()) };
}

const names = (seen: Seen[]) => seen.map((s) => s.event);
const requestDone = (seen: Seen[]) => () => seen.some((s) => s.event === 'request asyncEnd');
/** A request traced from its start to the end of its answer, with no error. */
const TRACED = ['request start', 'request end', 'request asyncStart', 'request asyncEnd'];

describe('tracing channels', () => {
  let recorder: ReturnType<typeof record>;
  beforeEach(() => (recorder = record()));
  afterEach(() => recorder.stop());

  for (const hostName of HOST_NAMES) {
    describe(hostName, () => {
      let host: Listening;
      before(async () => (host = await startHost(hostName)));
      after(() => host.close());

      /** Requests `path` and resolves with what was published for it once its trace has ended. */
      async function traced(path: string, headers: Record<string, string> = {}, method = 'GET') {
        const reply = await requestText(host.url + path, { headers, method });
        await waitFor(requestDone(recorder.seen), 3000, `the trace of ${path} to end`);
        return { reply, seen: recorder.seen };
      }

      it('a request: start, end, asyncStart, asyncEnd, with route, method, file, export and status', async () => {
        const { reply, seen } = await traced('/api/users/42');
        expect(reply.status).to.equal(200);
        expect(names(seen)).to.deep.equal([
          'request start',
          'request end',
          'request asyncStart',
          'request asyncEnd',
        ]);
        const context = seen[0]!.context as RequestTraceContext;
        expect(seen.every((s) => s.context === context)).to.equal(true);
        expect(context).to.include({
          route: '/api/users/[id]',
          method: 'GET',
          file: FILE('/api/users/[id]'),
          export: 'GET',
          status: 200,
          aborted: false,
        });
        expect(seen.map((s) => s.status)).to.deep.equal([undefined, undefined, 200, 200]);
        expect(context.request).to.be.instanceOf(Request);
        expect(new URL(context.request!.url).pathname).to.equal('/api/users/42');
        expect(context).not.to.have.property('error');
      });

      it('a handler without parameters: the Request is built when a subscriber reads it', async () => {
        const { seen } = await traced('/api/hello');
        const context = seen[0]!.context as RequestTraceContext;
        expect(context).to.include({ route: '/api/hello', export: 'GET', status: 200 });
        expect(context.request?.headers.get('host')).to.equal(`127.0.0.1:${host.port}`);
        expect(context.request, 'the same Request on every read').to.equal(context.request);
      });

      it('a catch-all route', async () => {
        const { reply, seen } = await traced('/files/a/b.txt');
        expect(reply.body).to.equal('a/b.txt');
        expect(seen[0]!.context).to.include({ route: '/files/[...path]', file: FILE('/files/[...path]') });
      });

      it('folder middleware: each step nested in the request, with its own status', async () => {
        const { reply, seen } = await traced('/guarded/secret', { 'x-pass': '1' });
        expect(reply.body).to.equal('secret');
        expect(names(seen)).to.deep.equal([
          'request start',
          'middleware start',
          'middleware end',
          'request end',
          'middleware asyncStart',
          'middleware asyncEnd',
          'request asyncStart',
          'request asyncEnd',
        ]);
        const step = seen[1]!.context as MiddlewareTraceContext;
        expect(step).to.include({
          route: '/guarded/secret',
          method: 'GET',
          file: FILE('/guarded/secret'),
          middleware: 'test/observe/fixtures/app/guarded/middleware.ts',
          index: 0,
          status: 200,
        });
        expect(step.request).to.equal((seen[0]!.context as RequestTraceContext).request);
      });

      it('a middleware that answers by itself', async () => {
        const { reply, seen } = await traced('/guarded/secret');
        expect(reply.status).to.equal(401);
        const statuses = seen.filter((s) => s.event.endsWith('asyncEnd')).map((s) => s.status);
        expect(statuses).to.deep.equal([401, 401]);
      });

      it('a handler that throws: error before asyncStart, and the status the app answered with', async () => {
        const { reply, seen } = await traced('/errors/throw');
        expect(reply.status).to.equal(500);
        expect(names(seen)).to.deep.equal([
          'request start',
          'request end',
          'request error',
          'request asyncStart',
          'request asyncEnd',
        ]);
        const context = seen[0]!.context as RequestTraceContext;
        expect((context.error as Error).message).to.equal('boom');
        expect(context).to.include({ status: 500, aborted: false, export: 'GET' });
      });

      it('a middleware that throws: its error, then the request’s', async () => {
        const { reply, seen } = await traced('/failing');
        expect(reply.status).to.equal(500);
        expect(names(seen)).to.deep.equal([
          'request start',
          'middleware start',
          'middleware end',
          'request end',
          'middleware error',
          'middleware asyncStart',
          'middleware asyncEnd',
          'request error',
          'request asyncStart',
          'request asyncEnd',
        ]);
        const step = seen[1]!.context as MiddlewareTraceContext;
        expect((step.error as Error).message).to.equal('guard failed');
        expect(step.status).to.equal(undefined);
        expect((seen[0]!.context as RequestTraceContext).error).to.equal(step.error);
      });

      it('a body that fails mid-stream: error, then aborted with the status sent', async () => {
        await new Promise<void>((resolve) => {
          http
            .get(`${host.url}/errors/mid-stream`, (response) => {
              response.resume();
              response.on('error', () => resolve()).on('close', () => resolve());
            })
            .on('error', () => resolve());
        });
        await waitFor(requestDone(recorder.seen), 3000, 'the trace to end');
        const { seen } = recorder;
        expect(names(seen)).to.deep.equal([
          'request start',
          'request end',
          'request error',
          'request asyncStart',
          'request asyncEnd',
        ]);
        expect((seen[2]!.context.error as Error).message).to.equal('failed mid-stream');
        expect(seen[3]).to.include({ status: 200, aborted: true });
      });

      it('a client that leaves mid-body: aborted, with the status sent, and no error', async () => {
        await new Promise<void>((resolve, reject) => {
          const request = http.get(`${host.url}/forever`, (response) => {
            response.once('data', () => {
              request.destroy();
              resolve();
            });
          });
          request.on('error', (error) =>
            (error as { code?: string }).code === 'ECONNRESET' ? resolve() : reject(error),
          );
        });
        await waitFor(requestDone(recorder.seen), 3000, 'the trace to end');
        const { seen } = recorder;
        expect(names(seen)).to.deep.equal([
          'request start',
          'request end',
          'request asyncStart',
          'request asyncEnd',
        ]);
        expect(seen[2]).to.include({ status: 200, aborted: true });
      });

      it('a client that leaves before the response: aborted, no status, no error', async () => {
        const request = http.get(`${host.url}/wait`);
        request.on('error', () => {});
        await waitFor(() => recorder.seen.length >= 2, 3000, 'the request to start');
        request.destroy();
        await waitFor(requestDone(recorder.seen), 3000, 'the trace to end');
        expect(names(recorder.seen)).to.deep.equal(TRACED);
        expect(recorder.seen[2]).to.include({ status: undefined, aborted: true });
      });

      it("a method the file does not serve, with unservedMethods: '405': the tree answers 405, with no export", async () => {
        const { reply, seen } = await traced('/api/hello', {}, 'POST');
        expect(reply.status).to.equal(405);
        expect(names(seen)).to.have.length(4);
        const context = seen[0]!.context as RequestTraceContext;
        expect(context).to.include({ route: '/api/hello', method: 'POST', export: undefined, status: 405 });
        expect(context.request).to.equal(undefined);
      });

      it('nothing for requests the tree does not answer', async () => {
        expect((await requestText(`${host.url}/legacy/health`)).body).to.equal('ok');
        expect((await requestText(`${host.url}/nope`)).status).to.equal(404);
        await delay(20);
        expect(recorder.seen).to.deep.equal([]);
      });

      it('stores bound to start are the handler’s: an APM’s active span reaches it', async () => {
        const store = new AsyncLocalStorage<string>();
        const start = dc.tracingChannel<unknown, RequestTraceContext>('express-file-endpoints:request').start;
        (globalThis as { observeStore?: unknown }).observeStore = store;
        start.bindStore(store, (context) => `span for ${context.route}`);
        try {
          expect((await requestText(`${host.url}/store`)).body).to.equal('span for /store');
        } finally {
          start.unbindStore(store);
          delete (globalThis as { observeStore?: unknown }).observeStore;
        }
      });
    });
  }

  describe('.fetch', () => {
    const endpoints = mountEndpoints({ dir: TREE, onError: () => {} });
    before(() => endpoints.ready);

    it("ends when the caller has read the body; request is the handler's, a copy of the Request passed in", async () => {
      const request = new Request('http://localhost/api/users/7');
      const response = await endpoints.fetch(request);
      await delay(5);
      expect(names(recorder.seen)).to.deep.equal(['request start', 'request end']);
      expect(await response.json()).to.deep.equal({ id: '7' });
      await waitFor(requestDone(recorder.seen));
      expect(names(recorder.seen)).to.deep.equal(TRACED);
      const context = recorder.seen[0]!.context as RequestTraceContext;
      expect([context.request?.method, context.request?.url]).to.deep.equal(['GET', request.url]);
      expect(context).to.include({ route: '/api/users/[id]', status: 200, aborted: false });
    });

    it('a thrown error: error, then the 500', async () => {
      const response = await endpoints.fetch(new Request('http://localhost/errors/throw'));
      expect(response.status).to.equal(500);
      await response.text();
      await waitFor(requestDone(recorder.seen));
      expect(names(recorder.seen)).to.deep.equal([
        'request start',
        'request end',
        'request error',
        'request asyncStart',
        'request asyncEnd',
      ]);
      expect(recorder.seen[3]).to.include({ status: 500, aborted: false });
    });

    it('a body over the limit by its Content-Length: traced, and answered 413 before the handler runs', async () => {
      const response = await endpoints.fetch(
        new Request('http://localhost/upload', {
          method: 'POST',
          headers: { 'content-length': String(64 * 1024 * 1024) },
          body: 'small',
        }),
      );
      expect([response.status, await response.text()]).to.deep.equal([413, 'Payload Too Large']);
      await waitFor(requestDone(recorder.seen));
      expect(names(recorder.seen)).to.deep.equal(TRACED);
      expect(recorder.seen.at(-1)!.context).to.include({ route: '/upload', status: 413, aborted: false });
    });

    it('a body the caller cancels: aborted', async () => {
      const response = await endpoints.fetch(new Request('http://localhost/forever'));
      const reader = response.body!.getReader();
      await reader.read();
      await reader.cancel();
      await waitFor(requestDone(recorder.seen));
      expect(recorder.seen.at(-1)).to.include({ status: 200, aborted: true });
      expect(names(recorder.seen)).not.to.include('request error');
    });
  });
});
