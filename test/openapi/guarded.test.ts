/**
 * The served OpenAPI document is guarded as the endpoints it describes are: on every host, the
 * `middleware` option and the tree root's `middleware` file run around `openapi: { path }`, so an
 * API whose every endpoint needs credentials does not describe itself to anyone. A guard that
 * throws fails the request as it does an endpoint's: `onError`, and the app's error handler.
 */
import path from 'node:path';
import { expect } from 'chai';
import type { EndpointErrorInfo, WebMiddleware } from '../../src';
import { hostsWithFetch, type Served } from '../integration/hosts';

const OPENAPI_APP = path.join(__dirname, '../fixtures/openapi-app/app');
const GUARDED_APP = path.join(__dirname, '../fixtures/guarded-openapi-app/app');
const openapi = { path: '/openapi.json', onWarning: () => {} };

const requireToken: WebMiddleware = async (request, next) => {
  if (request.headers.get('authorization') === 'Bearer broken') throw new Error('the session store is down');
  if (request.headers.get('authorization') !== 'Bearer secret') return new Response(null, { status: 401 });
  return next();
};

describe('the served OpenAPI document, guarded as the endpoints are', () => {
  for (const host of hostsWithFetch) {
    describe(host.name, () => {
      const errors: { error: unknown; info: EndpointErrorInfo }[] = [];
      let byOption: Served;
      let byFile: Served;
      before(async () => {
        const onError = (error: unknown, info: EndpointErrorInfo) => void errors.push({ error, info });
        byOption = await host.start({
          dir: OPENAPI_APP,
          middleware: [requireToken],
          onError,
          mount: { openapi },
        });
        byFile = await host.start({ dir: GUARDED_APP, onError, mount: { openapi } });
      });
      after(() => Promise.all([byOption?.close(), byFile?.close()]));
      beforeEach(() => (errors.length = 0));

      it('the middleware option runs around it', async () => {
        expect((await byOption.request('/openapi.json')).status).to.equal(401);
        expect((await byOption.request('/openapi.json', { method: 'HEAD' })).status).to.equal(401);
        const allowed = await byOption.request('/openapi.json', {
          headers: { authorization: 'Bearer secret' },
        });
        expect(allowed.status).to.equal(200);
        expect(allowed.headers['content-type']).to.equal('application/json; charset=utf-8');
        expect(JSON.parse(allowed.text)).to.have.nested.property('paths./api/users/{id}');
      });

      it("the tree root's middleware file runs around it", async () => {
        expect((await byFile.request('/openapi.json')).status).to.equal(401);
        const allowed = await byFile.request('/openapi.json', { headers: { 'x-api-key': 'key-1' } });
        expect(allowed.status).to.equal(200);
        expect(JSON.parse(allowed.text)).to.have.nested.property('paths./users.get');
      });

      it("a guard that reads locals sees what the mount's locals option put there", async () => {
        // The user is taken from the Node request by the locals option; `.fetch` has none, so it is refused.
        const byLocals = await host.start({
          dir: OPENAPI_APP,
          middleware: [
            (_request, next, context) =>
              context?.locals?.user === 'ada' ? next() : new Response(null, { status: 401 }),
          ],
          mount: {
            openapi,
            locals: ({ req }) => ({ user: req.headers['x-user'] }),
          },
        });
        try {
          const reply = await byLocals.request('/openapi.json', { headers: { 'x-user': 'ada' } });
          expect(reply.status).to.equal(host.node ? 200 : 401);
          expect((await byLocals.request('/openapi.json')).status).to.equal(401);
        } finally {
          await byLocals.close();
        }
      });

      it('a guard that throws fails the request, told to onError', async () => {
        const failed = await byOption.request('/openapi.json', {
          headers: { authorization: 'Bearer broken' },
        });
        expect(failed.status).to.equal(500);
        if (host.node) expect(JSON.parse(failed.text)).to.deep.equal({ caught: 'the session store is down' });
        expect(errors).to.have.length(1);
        expect(errors[0]!.info).to.include({
          route: '/openapi.json',
          export: 'middleware option #1 (requireToken)',
          passedToNext: host.node,
        });
      });
    });
  }
});
