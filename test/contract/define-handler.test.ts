/**
 * defineHandler called directly, as a unit test calls a handler: no server, no mount.
 * How each part of a request is read, the problem details, the context the handler gets, the
 * contract kept on the handler, and the mistakes a contract can have.
 */
import { expect } from 'chai';
import { z } from 'zod';
import { defineHandler, ResponseContractError, type StandardSchemaV1 } from '../../src';
import { contractOf } from '../../src/contract';
import { createTestContext, createTestRequest } from '../../src/testing';

/** A handler answering with what it received: its context's own keys and values. */
const echo = (_request: Request, context: object) =>
  Response.json({ keys: Object.keys(context), ...context });

/** Any Standard Schema, not only the three libraries': passes its value through, or fails with `issues`. */
function handWritten(issues?: StandardSchemaV1.Issue[]): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'hand-written',
      validate: (value) => (issues ? { issues } : { value }),
    },
  };
}

const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  createTestRequest(path, { method: 'POST', body, headers });

describe('contracts: defineHandler called directly', () => {
  describe('the handler it returns', () => {
    const handler = defineHandler({ body: z.object({ a: z.number() }) }, echo);

    it('is a plain function of (request, context) that resolves to a Response', async () => {
      expect(handler).to.be.a('function');
      expect(handler.length).to.equal(2);
      const res = await handler(post('/x', '{"a":1}'));
      expect(res).to.be.instanceOf(Response);
      expect(await res.json()).to.deep.equal({ keys: ['params', 'body'], params: {}, body: { a: 1 } });
    });

    it('keeps its contract for the library to read', () => {
      const contract = { body: z.string() };
      expect(contractOf(defineHandler(contract, echo))).to.equal(contract);
      expect(contractOf(echo)).to.equal(undefined);
      expect(contractOf({})).to.equal(undefined);
    });

    it('takes the context a test builds, and passes on route, mountPath, after and node', async () => {
      let seen: Record<string, unknown> = {};
      const handler = defineHandler({ params: z.object({ id: z.coerce.number() }) }, (_request, context) => {
        const { params, route, mountPath, after, node } = context;
        seen = { params, route, mountPath, after: typeof after, user: node?.req.user };
        return new Response(null, { status: 204 });
      });
      const context = createTestContext({
        params: { id: '7' },
        route: '/users/[id]',
        mountPath: '/v1',
        node: { req: { user: 'ada' } },
      });
      await handler(createTestRequest('/v1/users/7'), context);
      expect(seen).to.deep.equal({
        params: { id: 7 },
        route: '/users/[id]',
        mountPath: '/v1',
        after: 'function',
        user: 'ada',
      });
      expect(context.params).to.deep.equal({ id: '7' }); // the context given is left as it was
    });

    it("declares on the context only the parts its contract checks; params stay the route's own", async () => {
      const handler = defineHandler({ query: z.object({ q: z.string() }) }, echo);
      const res = await handler(createTestRequest('/search?q=x'), { params: { id: '1' } });
      expect(await res.json()).to.deep.equal({
        keys: ['params', 'query'],
        params: { id: '1' },
        query: { q: 'x' },
      });
    });

    it('a validator that throws fails the call, as a handler that throws does', async () => {
      const broken: StandardSchemaV1 = {
        '~standard': {
          version: 1,
          vendor: 'broken',
          validate: () => {
            throw new Error('validator bug');
          },
        },
      };
      const handler = defineHandler({ query: broken }, echo);
      let error: unknown;
      await handler(createTestRequest('/')).catch((thrown: unknown) => (error = thrown));
      expect((error as Error).message).to.equal('validator bug');
    });
  });

  describe('reading the request', () => {
    const body = defineHandler({ body: handWritten() }, (_request, context) =>
      Response.json({ body: context.body === undefined ? '(undefined)' : context.body }),
    );
    const read = async (request: Request) => ((await (await body(request)).json()) as { body: unknown }).body;

    it('JSON by any JSON media type, with parameters, a byte order mark dropped', async () => {
      expect(
        await read(post('/', '{"a":1}', { 'content-type': 'application/merge-patch+json' })),
      ).to.deep.equal({ a: 1 });
      expect(
        await read(post('/', '\uFEFF[1,2]', { 'content-type': 'Application/JSON; charset=utf-8' })),
      ).to.deep.equal([1, 2]);
      expect(await read(post('/', '"text"', { 'content-type': 'application/json' }))).to.equal('text');
    });

    it('no body, or an empty one, is undefined', async () => {
      expect(await read(createTestRequest('/', { method: 'POST' }))).to.equal('(undefined)');
      expect(await read(post('/', '', { 'content-type': 'application/json' }))).to.equal('(undefined)');
      expect(await read(createTestRequest('/'))).to.equal('(undefined)'); // GET
    });

    it('a urlencoded body as an object of its fields; a __proto__ field stays a field', async () => {
      const value = await read(
        post('/', 'a=1&b=2&a=3&__proto__=x&c', { 'content-type': 'application/x-www-form-urlencoded' }),
      );
      expect(value).to.deep.equal({ a: ['1', '3'], b: '2', ['__proto__']: 'x', c: '' });
    });

    it('a multipart body that does not parse: 400', async () => {
      const res = await body(
        post('/', 'not multipart', { 'content-type': 'multipart/form-data; boundary=x' }),
      );
      expect(res.status).to.equal(400);
      expect(((await res.json()) as { issues: unknown[] }).issues).to.deep.equal([
        { location: 'body', path: 'body', pointer: '', message: 'The body is not valid multipart/form-data' },
      ]);
    });

    it('a body without a Content-Type: 415', async () => {
      const request = new Request('http://localhost/', { method: 'POST', body: new Uint8Array([1]) });
      const res = await body(request);
      expect(res.status).to.equal(415);
      expect(res.headers.get('content-type')).to.equal('application/problem+json');
      const problem = (await res.json()) as { title: string; issues: { message: string }[] };
      expect(problem.title).to.equal('Unsupported Media Type');
      expect(problem.issues[0]!.message).to.equal(
        'A body without a Content-Type cannot be validated: send JSON, a form (urlencoded or multipart) or text',
      );
    });

    it('the query: a repeated key is an array; headers: lower-case names', async () => {
      const handler = defineHandler({ query: handWritten(), headers: handWritten() }, echo);
      const res = await handler(createTestRequest('/?a=1&a=2&b=&c=%20x', { headers: { 'X-Custom': 'Yes' } }));
      const { query, headers } = (await res.json()) as { query: unknown; headers: Record<string, string> };
      expect(query).to.deep.equal({ a: ['1', '2'], b: '', c: ' x' });
      expect(headers).to.deep.equal({ 'x-custom': 'Yes' });
    });

    it('a multipart contract called directly: files in memory without an after(), on disk with one', async () => {
      const handler = defineHandler(
        { body: handWritten(), multipart: { limits: { fileSize: 8 } } },
        async (_request, { body }) => {
          const { note, file } = body as { note: string; file: File };
          return Response.json({ note, name: file.name, text: await file.text() });
        },
      );
      const form = () => {
        const data = new FormData();
        data.append('note', 'hi');
        data.append('file', new File(['12345678'], 'n.txt', { type: 'text/plain' }));
        return data;
      };
      const direct = await handler(post('/', form()));
      expect(await direct.json()).to.deep.equal({ note: 'hi', name: 'n.txt', text: '12345678' });
      const withAfter = await handler(post('/', form()), createTestContext());
      expect(await withAfter.json()).to.deep.equal({ note: 'hi', name: 'n.txt', text: '12345678' });

      const over = new FormData();
      over.append('file', new File(['123456789'], 'n.txt'));
      const error = await handler(post('/', over)).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).to.include({ name: 'MultipartError', status: 413, code: 'LIMIT_FILE_SIZE' });
    });

    it('a key the schema wants as an array is one when sent once: in the query and in forms; unions stay as sent', async () => {
      const handler = defineHandler(
        {
          query: z.object({ tag: z.array(z.string()), one: z.union([z.string(), z.array(z.string())]) }),
          body: z.object({ files: z.array(z.file()), name: z.string() }),
        },
        (_request, { query, body }) =>
          Response.json({ query, files: body.files.map((file) => file.name), name: body.name }),
      );
      const form = new FormData();
      form.append('files', new File(['x'], 'only.txt'));
      form.append('name', 'n');
      const res = await handler(post('/?tag=a&one=b', form));
      expect(await res.json()).to.deep.equal({
        query: { tag: ['a'], one: 'b' },
        files: ['only.txt'],
        name: 'n',
      });
      const urlencoded = defineHandler(
        { body: z.object({ tags: z.array(z.string()) }) },
        (_request, { body }) => Response.json(body),
      );
      const encoded = await urlencoded(
        post('/', 'tags=x', { 'content-type': 'application/x-www-form-urlencoded' }),
      );
      expect(await encoded.json()).to.deep.equal({ tags: ['x'] });
    });

    it('multipart: true reads a form under the default limits, and refuses any other type', async () => {
      const handler = defineHandler({ body: handWritten(), multipart: true }, echo);
      const res = await handler(post('/', 'a=1', { 'content-type': 'application/x-www-form-urlencoded' }));
      expect(res.status).to.equal(415);
      const problem = (await res.json()) as { issues: { message: string }[] };
      expect(problem.issues[0]!.message).to.equal(
        'Content-Type application/x-www-form-urlencoded is not what this endpoint reads: send multipart/form-data',
      );
    });

    it('a contract without a body schema leaves the body unread', async () => {
      let used: boolean | undefined;
      const handler = defineHandler({ query: handWritten() }, (request) => {
        used = request.bodyUsed;
        return new Response();
      });
      await handler(post('/', 'x'));
      expect(used).to.equal(false);
    });
  });

  describe('issues', () => {
    it('paths for people, JSON Pointers for programs, whatever the keys', async () => {
      const issues: StandardSchemaV1.Issue[] = [
        { message: 'whole', path: [] },
        { message: 'none' },
        { message: 'nested', path: ['items', 0, { key: 'name' }] },
        { message: 'odd keys', path: ['a.b', 'c/d', 'e~f', 'has space'] },
        { message: 'symbol', path: [Symbol('s')] },
      ];
      const handler = defineHandler({ body: handWritten(issues) }, echo);
      const res = await handler(post('/', '{}'));
      const problem = (await res.json()) as { detail: string; issues: unknown[] };
      expect(problem.issues).to.deep.equal([
        { location: 'body', path: 'body', pointer: '', message: 'whole' },
        { location: 'body', path: 'body', pointer: '', message: 'none' },
        { location: 'body', path: 'body.items[0].name', pointer: '/items/0/name', message: 'nested' },
        {
          location: 'body',
          path: 'body["a.b"]["c/d"]["e~f"]["has space"]',
          pointer: '/a.b/c~1d/e~0f/has space',
          message: 'odd keys',
        },
        { location: 'body', path: 'body[Symbol(s)]', pointer: '/Symbol(s)', message: 'symbol' },
      ]);
      expect(problem.detail).to.equal(
        '5 issues with the request: body, body.items[0].name, body["a.b"]["c/d"]["e~f"]["has space"], body[Symbol(s)]',
      );
    });

    it("onInvalid: the contract's answer, given every issue and the request", async () => {
      let seen: { issues: unknown; url: string } | undefined;
      const handler = defineHandler(
        {
          query: z.object({ page: z.coerce.number().int() }),
          onInvalid: async (issues, request) => {
            seen = { issues, url: request.url };
            return Response.json({ ok: false }, { status: 422 });
          },
        },
        echo,
      );
      const res = await handler(createTestRequest('/list?page=1.5'));
      expect(res.status).to.equal(422);
      expect(seen).to.deep.equal({
        url: 'http://localhost/list?page=1.5',
        issues: [
          {
            location: 'query',
            path: 'query.page',
            pointer: '/page',
            message: 'Invalid input: expected int, received number',
          },
        ],
      });
    });

    it('onInvalid and a broken response: the first 100 issues, and how many more there were', async () => {
      let seen: { count: number; omittedIssues: number } | undefined;
      const items = defineHandler(
        {
          body: z.array(z.string()),
          responses: { 200: z.array(z.string()) },
          onInvalid: (issues, _request, { omittedIssues }) => {
            seen = { count: issues.length, omittedIssues };
            return new Response(null, { status: 422 });
          },
        },
        () => Response.json(new Array(250).fill(0)),
      );
      const json = { 'content-type': 'application/json' };
      const invalid = await items(post('/items', JSON.stringify(new Array(1000).fill(0)), json));
      expect(invalid.status).to.equal(422);
      expect(seen).to.deep.equal({ count: 100, omittedIssues: 900 });

      const logged: unknown[][] = [];
      const consoleError = console.error;
      console.error = (...args: unknown[]) => void logged.push(args);
      try {
        await items(post('/items', '["a"]', json));
      } finally {
        console.error = consoleError;
      }
      const error = logged[0]![1] as ResponseContractError;
      expect(error.issues).to.have.length(100);
      expect(error.omittedIssues).to.equal(150);
      expect(error.message).to.include('response[99]').and.include('150 more');
    });
  });

  describe('response contracts, called directly', () => {
    const handler = defineHandler(
      { responses: { 200: z.object({ id: z.number() }), 204: z.undefined() } },
      (request) => {
        const url = new URL(request.url);
        if (url.pathname === '/empty') return new Response(null, { status: 204 });
        return Response.json({ id: url.searchParams.get('id') ?? 1 });
      },
    );
    let logged: unknown[][];
    const consoleError = console.error;
    const env = process.env.NODE_ENV;
    beforeEach(() => {
      logged = [];
      console.error = (...args: unknown[]) => void logged.push(args);
    });
    afterEach(() => {
      console.error = consoleError;
      if (env === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = env;
    });

    it('a body its schema rejects is logged, and the response is returned unchanged', async () => {
      const res = await handler(createTestRequest('/?id=x'));
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ id: 'x' });
      expect(logged).to.have.length(1);
      expect(logged[0]![0]).to.equal('express-file-endpoints: GET http://localhost/?id=x:');
      const error = logged[0]![1] as ResponseContractError;
      expect(error).to.be.instanceOf(ResponseContractError);
      expect(error.status).to.equal(200);
      expect(error.issues).to.deep.equal([
        {
          location: 'response',
          path: 'response.id',
          pointer: '/id',
          message: 'Invalid input: expected number, received string',
        },
      ]);
      expect(error.message).to.equal(
        "The handler answered 200 with a body that does not match its contract's responses[200]: response.id: Invalid input: expected number, received string",
      );
    });

    it('a body that matches, and a 204 without a body, are not reported', async () => {
      await handler(createTestRequest('/'));
      await handler(createTestRequest('/empty'));
      expect(logged).to.deep.equal([]);
    });

    it('never when NODE_ENV is production', async () => {
      process.env.NODE_ENV = 'production';
      await handler(createTestRequest('/?id=x'));
      expect(logged).to.deep.equal([]);
    });

    it('a streamed body is returned before it ends, and checked once it has', async () => {
      let finish!: () => void;
      const streamed = defineHandler({ responses: { 200: z.string().max(3) } }, () => {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('one,'));
            finish = () => (controller.enqueue(new TextEncoder().encode('two')), controller.close());
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/plain' } });
      });
      const res = await streamed(createTestRequest('/'));
      expect(logged).to.deep.equal([]);
      const reader = res.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).to.equal('one,');
      finish();
      expect(new TextDecoder().decode((await reader.read()).value)).to.equal('two');
      expect((await reader.read()).done).to.equal(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(logged).to.have.length(1);
      expect((logged[0]![1] as ResponseContractError).issues.map((issue) => issue.path)).to.deep.equal([
        'response',
      ]);
    });
  });

  describe('mistakes in a contract are found when the file loads', () => {
    const cases: [string, () => unknown, string | RegExp][] = [
      ['not an object', () => defineHandler(null as never, echo), /the contract must be an object/],
      [
        'a Zod shape instead of a schema',
        () => defineHandler({ body: { name: z.string() } } as never, echo),
        /contract\.body is not a Standard Schema \(an object \(Object\) without a "~standard" property\)/,
      ],
      [
        'a status that is not one',
        () => defineHandler({ responses: { 99: z.string() } }, echo),
        /"99", which is not an HTTP status/,
      ],
      [
        'a response that is not a schema',
        () => defineHandler({ responses: { 200: 'User' } } as never, echo),
        /contract\.responses\[200\] is not a Standard Schema \(a string\)/,
      ],
      [
        'onInvalid not a function',
        () => defineHandler({ onInvalid: 1 } as never, echo),
        /onInvalid must be a function/,
      ],
      ['no handler', () => defineHandler({}, undefined as never), /the handler must be a function/],
      [
        'multipart not an object',
        () => defineHandler({ body: z.object({}), multipart: 'yes' } as never, echo),
        /contract\.multipart must be true or an object/,
      ],
      [
        'multipart without a body schema',
        () => defineHandler({ multipart: true }, echo),
        /contract\.multipart says how the body is read: give a body schema too/,
      ],
      [
        'a multipart limit that is not one',
        () => defineHandler({ body: z.object({}), multipart: { limits: { fileSize: 'big' } } }, echo),
        /defineHandler: contract\.multipart: limits\.fileSize must be a number/,
      ],
    ];
    for (const [what, call, message] of cases) {
      it(what, () => {
        expect(call).to.throw(TypeError, message);
      });
    }
  });
});
