/**
 * What a mount brings to contracts: its `onInvalid`, when responses are checked
 * (`checkResponses`, NODE_ENV, development mode, createTestRequest), reports through `onError`
 * naming the route, the file and the export, and nothing at all for handlers without a contract.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import { mountEndpoints, ResponseContractError, type EndpointErrorInfo, type MountOptions } from '../../src';
import { withContractSettings } from '../../src/define-handler';
import { createTestRequest } from '../../src/testing';
import { httpRequest, listen } from '../support/net';
import { CONTRACT_APP } from './targets';

const BROKEN = '/zod/users/7?broken';
const FILE = 'test/fixtures/contract-app/app/zod/users/[id]/endpoint.ts';

/** A mount of the contract app whose `onError` reports are kept. */
async function mount(options: MountOptions = {}) {
  const reports: { error: unknown; info: EndpointErrorInfo }[] = [];
  const endpoints = mountEndpoints({
    dir: CONTRACT_APP,
    onError: (error, info) => void reports.push({ error, info }),
    ...options,
  });
  await endpoints.ready;
  return { endpoints, reports };
}

describe('contracts: what a mount brings', () => {
  const env = process.env.NODE_ENV;
  afterEach(() => {
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
  });

  describe('onInvalid', () => {
    const onInvalid: MountOptions['onInvalid'] = (issues, request) =>
      Response.json(
        { from: 'mount', path: new URL(request.url).pathname, count: issues.length },
        { status: 422 },
      );

    it("answers every contract's invalid requests, under .fetch", async () => {
      const { endpoints } = await mount({ onInvalid });
      const res = await endpoints.fetch(
        new Request('http://localhost/valibot/text', {
          method: 'POST',
          body: '',
          headers: { 'content-type': 'text/plain' },
        }),
      );
      expect(res.status).to.equal(422);
      expect(await res.json()).to.deep.equal({ from: 'mount', path: '/valibot/text', count: 1 });
    });

    it("and in an Express app; a contract's own onInvalid wins", async () => {
      const app = express();
      app.use(express.json());
      await mountEndpoints(app, { dir: CONTRACT_APP, onInvalid });
      const server = await listen(http.createServer(app));
      try {
        const send = (path: string, body: string) =>
          httpRequest(server.url + path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
        const mounts = await send('/zod/signup', '{"email":"taken@example.com"}');
        expect(mounts.status).to.equal(422);
        expect(JSON.parse(mounts.body.toString())).to.deep.equal({
          from: 'mount',
          path: '/zod/signup',
          count: 1,
        });
        const contracts = await send('/custom-invalid', '{"email":"x"}');
        expect(contracts.status).to.equal(422);
        expect(JSON.parse(contracts.body.toString())).to.include({ from: 'contract' });
      } finally {
        await server.close();
      }
    });
  });

  describe('response contracts', () => {
    it('a request built by createTestRequest: checked, told to onError, the response unchanged', async () => {
      const { endpoints, reports } = await mount();
      const request = createTestRequest(BROKEN);
      const res = await endpoints.fetch(request);
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ id: '7', name: 'Ada', email: 'ada@example.com' });
      expect(reports).to.have.length(1);
      const { error, info } = reports[0]!;
      expect(error).to.be.instanceOf(ResponseContractError);
      expect((error as ResponseContractError).status).to.equal(200);
      expect((error as ResponseContractError).issues.map((issue) => issue.path)).to.deep.equal([
        'response.id',
      ]);
      const { request: seen, ...rest } = info;
      expect(rest).to.deep.equal({
        route: '/zod/users/[id]',
        file: FILE,
        export: 'GET',
        passedToNext: false,
      });
      // The handler's Request: under `.fetch`, a copy of the one passed in (its signal and body limit are the tree's).
      expect([seen?.method, seen?.url]).to.deep.equal([request.method, request.url]);
    });

    it('a response that matches is not reported', async () => {
      const { endpoints, reports } = await mount();
      expect((await endpoints.fetch(createTestRequest('/arktype/users/7'))).status).to.equal(200);
      expect(reports).to.deep.equal([]);
    });

    it('other requests: not checked by default when NODE_ENV says nothing', async () => {
      delete process.env.NODE_ENV;
      const { endpoints, reports } = await mount();
      await endpoints.fetch(new Request(`http://localhost${BROKEN}`));
      expect(reports).to.deep.equal([]);
    });

    for (const value of ['development', 'test']) {
      it(`every request when NODE_ENV is ${value}`, async () => {
        process.env.NODE_ENV = value;
        // `dev: false`: NODE_ENV=development alone would also start development mode's watcher.
        const { endpoints, reports } = await mount({ dev: false });
        await endpoints.fetch(new Request(`http://localhost${BROKEN}`));
        expect(reports).to.have.length(1);
      });
    }

    it('never when NODE_ENV is production, not even for createTestRequest', async () => {
      process.env.NODE_ENV = 'production';
      const { endpoints, reports } = await mount();
      await endpoints.fetch(createTestRequest(BROKEN));
      expect(reports).to.deep.equal([]);
    });

    it('every request in development mode', async () => {
      delete process.env.NODE_ENV;
      const { endpoints, reports } = await mount({
        dev: { types: false, logger: { info() {}, error() {} } },
      });
      try {
        await endpoints.fetch(new Request(`http://localhost${BROKEN}`));
        expect(reports).to.have.length(1);
      } finally {
        await endpoints.close();
      }
    });

    it('checkResponses decides when given', async () => {
      process.env.NODE_ENV = 'production';
      const on = await mount({ checkResponses: true });
      await on.endpoints.fetch(new Request(`http://localhost${BROKEN}`));
      expect(on.reports).to.have.length(1);
      process.env.NODE_ENV = 'test';
      const off = await mount({ checkResponses: false });
      await off.endpoints.fetch(createTestRequest(BROKEN));
      expect(off.reports).to.deep.equal([]);
    });

    it('on a real host: reported, and the client gets the bytes the handler made', async () => {
      const reports: { error: unknown; info: EndpointErrorInfo }[] = [];
      const app = express();
      await mountEndpoints(app, {
        dir: CONTRACT_APP,
        checkResponses: true,
        onError: (error, info) => void reports.push({ error, info }),
      });
      const server = await listen(http.createServer(app));
      try {
        const res = await httpRequest(`${server.url}/valibot/users/3?broken`);
        expect(res.status).to.equal(200);
        expect(res.headers['content-type']).to.equal('application/json');
        expect(res.body.toString()).to.equal('{"id":"3","name":"Ada","email":"ada@example.com"}');
        // Sent whole, with its length, as it is when nothing is checked.
        expect(res.headers['content-length']).to.equal(String(res.body.length));
        expect(reports).to.have.length(1);
        expect(reports[0]!.error).to.be.instanceOf(ResponseContractError);
        expect(reports[0]!.info).to.include({
          route: '/valibot/users/[id]',
          export: 'GET',
          passedToNext: false,
        });
      } finally {
        await server.close();
      }
    });

    it('the default onError logs the report', async () => {
      const logged: unknown[][] = [];
      const consoleError = console.error;
      console.error = (...args: unknown[]) => void logged.push(args);
      try {
        const endpoints = mountEndpoints({ dir: CONTRACT_APP });
        await endpoints.fetch(createTestRequest(BROKEN));
      } finally {
        console.error = consoleError;
      }
      expect(logged).to.have.length(1);
      expect(logged[0]![0]).to.equal(
        `express-file-endpoints: ${FILE} (export GET) failed on GET http://localhost${BROKEN}:`,
      );
      expect(logged[0]![1]).to.be.instanceOf(ResponseContractError);
    });
  });

  describe('bodies', () => {
    it('a body over the limit is still a 413, not an issue', async () => {
      const app = express();
      await mountEndpoints(app, { dir: CONTRACT_APP, bodyLimit: 8, onError() {} });
      app.use(
        (
          error: { status?: number },
          _req: express.Request,
          res: express.Response,
          _next: express.NextFunction,
        ) => {
          res.status(error.status ?? 500).end(`host: ${error.status}`);
        },
      );
      const server = await listen(http.createServer(app));
      try {
        const res = await httpRequest(`${server.url}/zod/text`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'more than eight bytes',
        });
        expect(res.status).to.equal(413);
      } finally {
        await server.close();
      }
    });
  });

  describe('.routes', () => {
    it('once loaded, shows what each handler validates and the statuses its responses list', async () => {
      const endpoints = mountEndpoints({ dir: CONTRACT_APP });
      const row = (pattern: string) => endpoints.routes.find((route) => route.pattern === pattern)!;
      const kept = row('/zod/users/[id]');
      expect(kept).to.not.have.property('contracts'); // not known before loading
      await endpoints.ready;
      expect(row('/zod/users/[id]').contracts).to.deep.equal({
        GET: { validates: ['params'], responses: [200] },
        PUT: { validates: ['params', 'query', 'headers', 'body'], responses: [200] },
      });
      // Updated in place, as docs/mounting.md says: a row kept before `.ready` is the row after it.
      expect(kept).to.equal(row('/zod/users/[id]'));
      expect(row('/custom-invalid').contracts).to.deep.equal({
        POST: { validates: ['body'], responses: [] },
      });
      expect(row('/plain').contracts).to.deep.equal({});
    });

    it('in development mode too', async () => {
      const endpoints = mountEndpoints({
        dir: CONTRACT_APP,
        dev: { types: false, logger: { info() {}, error() {} } },
      });
      try {
        await endpoints.ready;
        const row = endpoints.routes.find((route) => route.pattern === '/arktype/text')!;
        expect(row.contracts).to.deep.equal({ POST: { validates: ['body'], responses: [] } });
      } finally {
        await endpoints.close();
      }
    });
  });

  describe('contracts that check nothing: a body on HEAD, params on a route without any', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'ee-contract-problems-'));
      const write = (file: string, handlers: string) => {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(
          path.join(dir, file),
          `import { defineHandler } from ${JSON.stringify(path.resolve(__dirname, '../../src'))};\n` +
            "const any = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };\n" +
            handlers,
        );
      };
      write(
        'search/endpoint.ts',
        'export const HEAD = defineHandler({ body: any }, () => new Response());\n',
      );
      write(
        'static/endpoint.ts',
        'export const POST = defineHandler({ params: any }, () => new Response());\n',
      );
      write(
        '[id]/endpoint.ts',
        'export const POST = defineHandler({ params: any, body: any }, () => new Response());\n',
      );
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('do not stop the mount: check --load reports them, and the routes serve', async () => {
      const endpoints = mountEndpoints({ dir, onError: () => {} });
      await endpoints.ready;
      const response = await endpoints.fetch(new Request('http://x/7', { method: 'POST', body: '{}' }));
      expect(response.status).to.equal(200);
      const loaded = endpoints.routes.find((route) => route.pattern === '/static')!;
      expect(loaded.contracts).to.deep.equal({ POST: { validates: ['params'], responses: [] } });
    });
  });

  describe('handlers without a contract', () => {
    it('a module without contracts is used as it is: nothing is wrapped, nothing copied', () => {
      const mod = { GET: () => new Response(), config: { bodyLimit: 1 } };
      expect(withContractSettings(mod, () => expect.fail('no settings are asked for'))).to.equal(mod);
    });

    it('beside a contract, the other exports stay the very same functions', async () => {
      const { GET } = (await import('../fixtures/contract-app/app/zod/users/[id]/endpoint')) as Record<
        string,
        unknown
      >;
      const plain = () => new Response();
      const mod = { GET, POST: plain, helper: 42 };
      const bound = withContractSettings(mod, () => ({
        onInvalid: undefined,
        checksResponses: () => false,
        report() {},
      }));
      expect(bound).to.not.equal(mod);
      expect(bound.POST).to.equal(plain);
      expect(bound.helper).to.equal(42);
      expect(bound.GET).to.not.equal(GET);
      expect(mod.GET).to.equal(GET); // the module itself is not changed
    });
  });
});
