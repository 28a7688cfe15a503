/**
 * A bridged middleware may throw a Response as its answer (`throw Response.redirect(url)`), as a
 * handler and the tree's own middleware may: before next() it is sent as the answer, and after
 * next() it replaces what the app wrote, exactly as a returned Response does. Neither is an error:
 * `onError` hears nothing. On Express 5, Express 4, Connect and node:http.
 */
import { expect } from 'chai';
import { bridgeMiddleware, type EndpointErrorInfo, type WebMiddleware } from '../../src';
import { bridgeHosts } from '../hardening/bridge-hosts';
import { sendText, type RunningChain } from './chain-hosts';
import { requestText as request } from '../support/net';

const guard: WebMiddleware = async (req, next) => {
  const url = new URL(req.url);
  switch (url.pathname) {
    case '/before':
      throw Response.redirect(new URL('/login', url), 302);
    case '/after': {
      await next();
      throw new Response('denied', { status: 403, headers: { 'x-guard': '1' } });
    }
    case '/app-answer':
      throw await next();
    default:
      return next();
  }
};

describe('bridgeMiddleware: a thrown Response is the answer', () => {
  for (const host of bridgeHosts) {
    describe(host.name, () => {
      const reports: EndpointErrorInfo[] = [];
      let appRuns = 0;
      let server: RunningChain;
      before(async () => {
        const onError = (_error: unknown, info: EndpointErrorInfo) => reports.push(info);
        const app = (_req: unknown, res: Parameters<typeof sendText>[0]) => {
          appRuns++;
          res.setHeader('x-app', '1');
          sendText(res, 'from the app');
        };
        server = await host.start([
          { use: (_req, res, next) => (res.setHeader('x-upstream', '1'), next()) },
          { use: bridgeMiddleware(guard, { onError }) },
          { route: '/before', handle: app },
          { route: '/after', handle: app },
          { route: '/app-answer', handle: app },
          { onError: (_error, _req, res) => sendText(res, 'app error', 500) },
        ]);
      });
      after(() => server.close());
      beforeEach(() => {
        reports.length = 0;
        appRuns = 0;
      });

      it('before next(): the thrown redirect is sent, and the app never runs', async () => {
        const res = await request(server.url + '/before');
        expect(res.status).to.equal(302);
        expect(res.headers['location']).to.equal(`${server.url}/login`);
        expect(res.headers['x-upstream']).to.equal('1');
        expect(appRuns).to.equal(0);
        expect(reports).to.deep.equal([]);
      });

      it("after next(): the thrown Response replaces the app's answer", async () => {
        const res = await request(server.url + '/after');
        expect(res.status).to.equal(403);
        expect(res.body).to.equal('denied');
        expect(res.headers['x-guard']).to.equal('1');
        expect(res.headers['x-app']).to.equal(undefined);
        expect(res.headers['x-upstream']).to.equal('1');
        expect(appRuns).to.equal(1);
        expect(reports).to.deep.equal([]);
      });

      it("next()'s own Response thrown is sent as the app wrote it", async () => {
        const res = await request(server.url + '/app-answer');
        expect(res.status).to.equal(200);
        expect(res.body).to.equal('from the app');
        expect(res.headers['x-app']).to.equal('1');
        expect(reports).to.deep.equal([]);
      });
    });
  }
});
