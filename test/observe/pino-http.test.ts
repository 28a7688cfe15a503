/**
 * Request logs by route: pino-http, configured as docs/observability.md shows, logs the
 * endpoint's route pattern (`req.route`, with the mount path) beside the status.
 */
import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import pinoHttp from 'pino-http';
import { requestText, waitFor, type Listening } from '../support/net';
import { HOST_NAMES, startHost, type HostName, type Middleware } from './hosts';

type RoutedRequest = { route?: { path: string }; baseUrl?: string };

/** The configuration the docs give, logging JSON lines into `lines`. */
function requestLogger(lines: Record<string, unknown>[]): Middleware {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return pinoHttp({
    logger: pino(stream),
    // `req.route` is set while an endpoint answers: the pattern, relative to the mount.
    customProps: (req: RoutedRequest) => (req.route ? { route: (req.baseUrl ?? '') + req.route.path } : {}),
  }) as unknown as Middleware;
}

const SETUPS: { host: HostName; prefix?: string }[] = [
  ...HOST_NAMES.map((host) => ({ host })),
  { host: 'Express 5', prefix: '/v1' },
  { host: 'Express 4', prefix: '/v1' },
];

describe('pino-http logs the route', () => {
  for (const { host: name, prefix = '' } of SETUPS) {
    describe(prefix ? `${name}, the tree under ${prefix}` : name, () => {
      const lines: Record<string, unknown>[] = [];
      let host: Listening;
      before(async () => (host = await startHost(name, { prefix, first: requestLogger(lines) })));
      after(() => host.close());
      beforeEach(() => lines.splice(0));

      async function logged(path: string): Promise<Record<string, unknown>> {
        await requestText(host.url + path);
        await waitFor(() => lines.length > 0, 3000, 'a log line');
        return lines[0]!;
      }

      it('an endpoint: its route', async () => {
        const line = await logged(`${prefix}/api/users/42`);
        expect(line).to.include({ route: `${prefix}/api/users/:id`, msg: 'request completed' });
        expect(line.res).to.include({ statusCode: 200 });
      });

      it('an error: the route beside the 500', async () => {
        const line = await logged(`${prefix}/errors/throw`);
        // Express gives the app's error handler the parent's `req.baseUrl` back, as it does for
        // its own routers' errors: the mount path is missing from the line (the docs say so).
        expect(line).to.include({ route: '/errors/throw' });
        expect(line.res).to.include({ statusCode: 500 });
      });

      it('the app’s 404: no route', async () => {
        const line = await logged('/nope');
        expect(line).not.to.have.property('route');
        expect(line.res).to.include({ statusCode: 404 });
      });
    });
  }
});
