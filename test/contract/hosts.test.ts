/**
 * Endpoint contracts on every host: the same contract, written in Zod, Valibot and
 * ArkType (test/fixtures/contract-app), served by Express 5, Express 4, Connect and node:http —
 * each bare and behind express.json() and express.urlencoded() — and by `.fetch`. Every input
 * location, each body type, async validators and transforms; invalid requests get RFC 9457
 * problem details listing every issue.
 */
import { expect } from 'chai';
import { multipart, TARGETS, type Reply, type Target } from './targets';

const VALIDATORS = ['zod', 'valibot', 'arktype'] as const;
/** ArkType validates synchronously only. */
const ASYNC_VALIDATORS = ['zod', 'valibot'] as const;

const JSON_HEADERS = { 'content-type': 'application/json', 'x-api-key': 'key-1' };
const ADA = { name: 'Ada', email: 'ada@example.com', age: 36 };

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  issues: { location: string; path: string; pointer: string; message: string }[];
}

/** Checks a problem details answer field by field, and returns it. */
function problemOf(res: Reply, status = 400): Problem {
  expect(res.status, res.text).to.equal(status);
  expect(res.contentType).to.equal('application/problem+json');
  const problem = res.json() as Problem;
  expect(Object.keys(problem)).to.deep.equal(['type', 'title', 'status', 'detail', 'issues']);
  expect(problem.type).to.equal('about:blank');
  expect(problem.title).to.equal(status === 400 ? 'Bad Request' : 'Unsupported Media Type');
  expect(problem.status).to.equal(status);
  expect(problem.detail).to.be.a('string').and.not.equal('');
  for (const issue of problem.issues) {
    // Only these four, all text: no input value, no stack, nothing of the validator's own objects.
    expect(Object.keys(issue)).to.deep.equal(['location', 'path', 'pointer', 'message']);
    for (const value of Object.values(issue)) expect(value).to.be.a('string');
    expect(issue.message).to.not.equal('');
    expect(issue.message).to.not.match(/\bat .+:\d+:\d+/); // no stack frame
  }
  return problem;
}

describe('contracts: validated input on every host', function () {
  this.timeout(20_000);

  for (const spec of TARGETS) {
    describe(spec.name, () => {
      let target: Target;
      const reported: unknown[] = [];
      before(async () => {
        target = await spec.start((error) => void reported.push(error));
      });
      after(() => target?.close());
      afterEach(() => {
        expect(reported, 'onError').to.deep.equal([]);
      });

      for (const validator of VALIDATORS) {
        describe(validator, () => {
          const users = `/${validator}/users`;

          it('every input location validated, transformed and typed on the context', async () => {
            const res = await target.send(`${users}/42?page=2&tag=a&tag=b`, {
              method: 'PUT',
              headers: JSON_HEADERS,
              body: JSON.stringify(ADA),
            });
            expect(res.status, res.text).to.equal(200);
            const { received } = res.json() as { received: Record<string, Record<string, unknown>> };
            expect(received.params).to.deep.equal({ id: 42 });
            expect(received.idType).to.equal('number');
            expect(received.query).to.deep.equal({ page: 2, tag: ['a', 'b'] });
            expect(received.headers!['x-api-key']).to.equal('key-1');
            expect(received.body).to.deep.equal(ADA);
          });

          it('a key once in the query is one value; the schema makes it an array', async () => {
            const res = await target.send(`${users}/1?tag=solo`, {
              method: 'PUT',
              headers: JSON_HEADERS,
              body: JSON.stringify(ADA),
            });
            expect((res.json() as { received: { query: unknown } }).received.query).to.deep.equal({
              tag: ['solo'],
            });
          });

          it('every issue of every location at once, in problem details', async () => {
            const res = await target.send(`${users}/abc?page=x`, {
              method: 'PUT',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ name: '', email: 'nope', age: -1 }),
            });
            const problem = problemOf(res);
            const paths = problem.issues.map((issue) => issue.path);
            expect(paths).to.include.members([
              'params.id',
              'query.page',
              'headers["x-api-key"]',
              'body.name',
              'body.email',
              'body.age',
            ]);
            const locations = problem.issues.map((issue) => issue.location);
            // Listed in the order params, query, headers, body.
            expect(locations).to.deep.equal([...locations].sort(byLocation));
            const email = problem.issues.find((issue) => issue.path === 'body.email')!;
            expect(email).to.include({ location: 'body', pointer: '/email' });
            expect(problem.issues.find((i) => i.location === 'headers')!.pointer).to.equal('/x-api-key');
            expect(problem.detail).to.equal(
              `${problem.issues.length} issues with the request: ${[...new Set(paths)].join(', ')}`,
            );
          });

          it('a JSON body that does not parse is a 400 before validation', async function () {
            // express.json() refuses it itself, before the endpoints: the app's error handler answers.
            if (spec.parsed) this.skip();
            const res = await target.send(`${users}/1`, {
              method: 'PUT',
              headers: JSON_HEADERS,
              body: '{"name": "Ada",',
            });
            const problem = problemOf(res);
            expect(problem.issues).to.deep.equal([
              { location: 'body', path: 'body', pointer: '', message: 'The body is not valid JSON' },
            ]);
            expect(problem.detail).to.equal('body: The body is not valid JSON');
          });

          it('a urlencoded form: fields into an object, a repeated key an array', async () => {
            const res = await target.send(`/${validator}/form`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: 'name=Ada+L&tags=x&tags=y',
            });
            expect(res.status, res.text).to.equal(200);
            expect(res.json()).to.deep.equal({ name: 'Ada L', tags: ['x', 'y'], avatar: null });
          });

          it('a multipart form: fields into an object, files stay Files', async () => {
            const form = new FormData();
            form.append('name', 'Ada');
            form.append('tags', 'one');
            form.append('avatar', new File([new Uint8Array([1, 2, 3, 4])], 'a.png', { type: 'image/png' }));
            const res = await target.send(`/${validator}/form`, {
              method: 'POST',
              ...(await multipart(form)),
            });
            expect(res.status, res.text).to.equal(200);
            expect(res.json()).to.deep.equal({
              name: 'Ada',
              tags: ['one'],
              avatar: { name: 'a.png', type: 'image/png', size: 4, isFile: true },
            });
          });

          it('an invalid form: its fields located in the body', async () => {
            const res = await target.send(`/${validator}/form`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: 'tags=x',
            });
            expect(problemOf(res).issues.map((issue) => issue.path)).to.deep.equal(['body.name']);
          });

          it('a text body, transformed', async () => {
            const res = await target.send(`/${validator}/text`, {
              method: 'POST',
              headers: { 'content-type': 'text/plain; charset=utf-8' },
              body: 'héllo',
            });
            expect(res.status).to.equal(200);
            expect(res.text).to.equal('HÉLLO');
          });

          it('no body where one is required: the schema says what is missing', async () => {
            const res = await target.send(`/${validator}/text`, { method: 'POST' });
            const problem = problemOf(res);
            expect(problem.issues).to.have.length(1);
            expect(problem.issues[0]).to.include({ location: 'body', path: 'body', pointer: '' });
          });

          it('a body of a type no schema can take: 415', async () => {
            const res = await target.send(`/${validator}/text`, {
              method: 'POST',
              headers: { 'content-type': 'application/octet-stream' },
              body: Buffer.from([0, 1, 2]),
            });
            const problem = problemOf(res, 415);
            expect(problem.issues[0]!.message).to.match(
              /^Content-Type application\/octet-stream cannot be validated/,
            );
          });
        });
      }

      for (const validator of ASYNC_VALIDATORS) {
        it(`${validator}: an async validator is awaited`, async () => {
          const free = await target.send(`/${validator}/signup`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"email":"new@example.com"}',
          });
          expect(free.status, free.text).to.equal(201);
          expect(free.json()).to.deep.equal({ email: 'new@example.com' });
          const taken = await target.send(`/${validator}/signup`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"email":"taken@example.com"}',
          });
          expect(problemOf(taken).issues).to.deep.equal([
            { location: 'body', path: 'body.email', pointer: '/email', message: 'This email is taken' },
          ]);
        });
      }

      it("a contract's onInvalid answers instead", async () => {
        const res = await target.send('/custom-invalid', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"email":"nope"}',
        });
        expect(res.status).to.equal(422);
        expect(res.json()).to.deep.equal({ from: 'contract', method: 'POST', fields: ['body.email'] });
      });

      it('a contract on params alone leaves the body to the handler, and the context as it was', async () => {
        const res = await target.send('/params-only/my-post', {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'raw text',
        });
        expect(res.json()).to.deep.equal({
          slug: 'my-post',
          text: 'raw text',
          route: '/params-only/[slug]',
          mountPath: '',
        });
        const bad = await target.send('/params-only/Not_A_Slug', { method: 'POST' });
        expect(problemOf(bad).issues.map((issue) => issue.path)).to.deep.equal(['params.slug']);
      });

      it('a handler without a contract gets its request and context as before', async () => {
        const res = await target.send('/plain', {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'as sent',
        });
        expect(res.status).to.equal(200);
        expect(res.text).to.equal('text/plain|as sent|params');
      });
    });
  }
});

const ORDER = ['params', 'query', 'headers', 'body'];
function byLocation(a: string, b: string): number {
  return ORDER.indexOf(a) - ORDER.indexOf(b);
}
