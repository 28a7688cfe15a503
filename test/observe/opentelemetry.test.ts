/**
 * OpenTelemetry without setup, with the real SDK and instrumentations: the server span
 * of a request an endpoint answers is named `GET /api/users/:id` and carries `http.route`; the app's
 * own routes and 404 keep their names; an error records its exception; a streamed response's span
 * lasts until the body has ended. Each host runs in a child process that registers the SDK first,
 * as apps do. And `@opentelemetry/api` stays unloaded without an SDK, and optional.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import type { HostName } from './hosts';
import type { Observed, ProbeRequest, ServerSpan } from './otel-app';

const run = promisify(execFile);

async function child<T>(script: string, args: string[]): Promise<T> {
  const { stdout } = await run(
    process.execPath,
    ['--require', 'tsx/cjs', path.join(__dirname, script), ...args],
    {
      timeout: 60_000,
    },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

interface Probe extends ProbeRequest {
  what: string;
  /** The span's name and `http.route`, below the mount; `undefined`: the span keeps the bare method. */
  route: string | undefined;
  status?: number;
  /** The exception recorded on the span. */
  error?: string;
  /** The app's own: paths never prefixed, routes named only where Express is instrumented. */
  app?: boolean;
}

const PROBES: Probe[] = [
  { what: 'a static route', path: '/api/hello', route: '/api/hello' },
  { what: 'a dynamic segment', path: '/api/users/42', route: '/api/users/:id' },
  { what: 'a catch-all', path: '/files/a/b.txt', route: '/files/*path' },
  {
    what: 'a route behind folder middleware',
    path: '/guarded/secret',
    headers: { 'x-pass': '1' },
    route: '/guarded/secret',
  },
  {
    what: 'a method the file does not serve',
    path: '/api/hello',
    method: 'POST',
    status: 405,
    route: '/api/hello',
  },
  {
    what: 'a handler that throws',
    path: '/errors/throw',
    status: 500,
    error: 'boom',
    route: '/errors/throw',
  },
  {
    what: 'a middleware that throws',
    path: '/failing',
    status: 500,
    error: 'guard failed',
    route: '/failing',
  },
  { what: 'a streamed response', path: '/stream', route: '/stream' },
  {
    what: 'a body that fails mid-stream',
    path: '/errors/mid-stream',
    error: 'failed mid-stream',
    route: '/errors/mid-stream',
  },
  {
    what: 'a path the tree leaves to the app’s own route',
    path: '/legacy/health',
    app: true,
    route: '/legacy/health',
  },
  { what: 'a path nobody serves: the app’s 404', path: '/nope', app: true, status: 404, route: undefined },
];

interface Setup {
  host: HostName;
  /** Where the tree is mounted, as the app writes it, and as requests reach it. */
  prefix?: { pattern: string; path: string };
  /** The Express instrumentation names the app's own routes. */
  namesAppRoutes: boolean;
}

const SETUPS: Setup[] = [
  { host: 'Express 5', namesAppRoutes: true },
  { host: 'Express 4', namesAppRoutes: true },
  { host: 'node:http', namesAppRoutes: false },
  { host: 'Express 5', prefix: { pattern: '/v1', path: '/v1' }, namesAppRoutes: true },
  { host: 'Express 4', prefix: { pattern: '/t/:tenant', path: '/t/acme' }, namesAppRoutes: true },
];

describe('OpenTelemetry', function () {
  this.timeout(90_000);

  for (const setup of SETUPS) {
    const title = setup.prefix ? `${setup.host}, the tree under ${setup.prefix.pattern}` : setup.host;
    describe(title, () => {
      const probes = PROBES.map((probe) =>
        probe.app || !setup.prefix ? probe : { ...probe, path: setup.prefix.path + probe.path },
      );
      let spans: ServerSpan[];
      let metricRoutes: unknown[];
      before(async () => {
        ({ spans, metricRoutes } = await child<Observed>('otel-app.ts', [
          JSON.stringify({ host: setup.host, prefix: setup.prefix?.pattern }),
          JSON.stringify(probes),
        ]));
      });

      probes.forEach((probe, index) => {
        const named = probe.route !== undefined && (!probe.app || setup.namesAppRoutes);
        const route = named ? (probe.app ? '' : (setup.prefix?.pattern ?? '')) + probe.route : undefined;
        const method = probe.method ?? 'GET';
        it(`${probe.what}: ${route ? `${method} ${route}` : `${method}, no route`}`, () => {
          const span = spans[index]!;
          expect(span.status).to.equal(probe.status ?? 200);
          expect(span.name).to.equal(route ? `${method} ${route}` : method);
          expect(span.route).to.equal(route);
          if (probe.error) {
            expect(span.exceptions).to.deep.equal([probe.error]);
            expect(span.code, 'status ERROR').to.equal(2);
          } else {
            expect(span.exceptions).to.deep.equal([]);
          }
          // Its three chunks take 120 ms after the handler has returned: the span covers them.
          if (probe.path.endsWith('/stream')) expect(span.durationMs).to.be.at.least(110);
        });
      });

      it('the request-duration metric has the same routes', () => {
        expect(metricRoutes).to.include.members(spans.flatMap((span) => (span.route ? [span.route] : [])));
      });
    });
  }

  describe('.fetch behind srvx', () => {
    const probes: Probe[] = PROBES.filter((probe) => !probe.app && probe.status !== 405);
    let spans: ServerSpan[];
    before(async () => {
      ({ spans } = await child<Observed>('otel-app.ts', [
        JSON.stringify({ host: 'srvx' }),
        JSON.stringify(probes),
      ]));
    });

    it('names the server span of every route, records errors, ends with the body', () => {
      expect(spans.map((span) => span.name)).to.deep.equal(probes.map((probe) => `GET ${probe.route}`));
      expect(spans.map((span) => span.route)).to.deep.equal(probes.map((probe) => probe.route));
      expect(spans.flatMap((span) => span.exceptions)).to.deep.equal([
        'boom',
        'guard failed',
        'failed mid-stream',
      ]);
      expect(spans[probes.findIndex((probe) => probe.path === '/stream')]!.durationMs).to.be.at.least(110);
    });
  });

  describe('an optional peer dependency', () => {
    interface Absent {
      statuses: number[];
      asked: string[];
      loaded: string[];
    }

    it('without an SDK, @opentelemetry/api is never even looked up', async () => {
      const result = await child<Absent>('otel-absent.ts', ['no-sdk']);
      expect(result.statuses).to.deep.equal([200, 500, 200, 404]);
      expect(result.asked).to.deep.equal([]);
      expect(result.loaded).to.deep.equal([]);
    });

    it('not installed, it is looked up once and requests are served as usual', async () => {
      const result = await child<Absent>('otel-absent.ts', ['not-installed']);
      expect(result.statuses).to.deep.equal([200, 500, 200, 404]);
      expect(result.asked).to.deep.equal(['@opentelemetry/api']);
      expect(result.loaded).to.deep.equal([]);
    });
  });
});
