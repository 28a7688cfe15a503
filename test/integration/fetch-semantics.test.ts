/**
 * What only `.fetch()` does. The handler semantics every host shares run through `.fetch` in
 * semantics.test.ts; here is what follows from `.fetch` having no socket and no app around it: the
 * caller reads the body (so `after()` waits for that read, a HEAD answer's body is dropped, a body
 * that fails fails the caller's read), the handler gets no Node objects, and what no endpoint
 * serves is answered by `.fetch` itself.
 */
import { expect } from 'chai';
import { mountEndpoints, type EndpointErrorInfo } from '../../src';
import { createTestRequest } from '../../src/testing';
import { state } from '../fixtures/app/_lib/store';
import { waitFor } from '../support/net';
import { fixtureApp } from '../support/fixture-app';

const dir = fixtureApp;

describe('what only .fetch() does', () => {
  const errors: Array<[unknown, EndpointErrorInfo]> = [];
  const endpoints = mountEndpoints({ dir, onError: (error, info) => errors.push([error, info]) });
  beforeEach(() => {
    errors.length = 0;
  });

  describe('context.after()', () => {
    const key = (what: string) => `fetch/${what}/${Date.now()}`;

    it('runs once the body has been read, not before', async () => {
      const id = key('read');
      const res = await endpoints.fetch(createTestRequest(`/semantics/after?stream=1&id=${id}`));
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(state.afterLog).not.to.include(`${id}:after`);
      expect(await res.text()).to.equal('chunk1\nchunk2\nchunk3\n');
      await waitFor(() => state.afterLog.includes(`${id}:after`), 1000, 'after()');
    });

    it('runs when the body is cancelled', async () => {
      const id = key('cancel');
      const res = await endpoints.fetch(createTestRequest(`/semantics/after?stream=1&id=${id}`));
      await res.body!.cancel();
      await waitFor(() => state.afterLog.includes(`${id}:after`), 1000, 'after()');
      expect(state.afterLog).not.to.include(`${id}:body-done`);
    });

    it('runs for a HEAD request, whose body is dropped', async () => {
      const id = key('head');
      const res = await endpoints.fetch(createTestRequest(`/semantics/after?id=${id}`, { method: 'HEAD' }));
      expect(res.body).to.equal(null);
      await waitFor(() => state.afterLog.includes(`${id}:after`), 1000, 'after()');
    });
  });

  it('hands a body stream that fails after the headers to the caller, whose read fails, not to onError', async () => {
    const res = await endpoints.fetch(createTestRequest('/errors/mid-stream'));
    expect(res.status).to.equal(200);
    let failure: unknown;
    await res.text().catch((error: unknown) => (failure = error));
    expect((failure as Error).message).to.equal('failed mid-stream');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(errors).to.deep.equal([]);
  });

  it('gives the handler no Node objects: no context.node, no req.route', async () => {
    const whoami = await endpoints.fetch(createTestRequest('/whoami'));
    expect(await whoami.json()).to.deep.equal({ url: 'http://localhost/whoami', user: null });
    const where = await endpoints.fetch(createTestRequest('/semantics/where/a%20b'));
    expect(await where.json()).to.deep.equal({
      mountPath: '',
      route: '/semantics/where/[id]',
      self: '/semantics/where/a%20b',
      reqRoute: null,
    });
  });

  describe('answers what a host app would answer', () => {
    it('404 for a path the tree does not serve', async () => {
      const res = await endpoints.fetch(createTestRequest('/nope'));
      expect(res.status).to.equal(404);
    });

    it("404 for GET of a page's URL: the page is the app's, and there is no app", async () => {
      const res = await endpoints.fetch(createTestRequest('/contact'));
      expect(res.status).to.equal(404);
      const post = await endpoints.fetch(
        createTestRequest('/contact', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'name=Ada&message=Hi',
        }),
      );
      expect(post.status).to.equal(201);
    });

    it('400 for malformed percent-encoding in the path', async () => {
      const res = await endpoints.fetch(createTestRequest('/files/%zz'));
      expect(res.status).to.equal(400);
    });
  });

  describe("the caller's Request", () => {
    const limited = mountEndpoints({
      dir,
      bodyLimit: 1000,
      onError: (error, info) => errors.push([error, info]),
    });
    let next = 0;
    const events = (id: string) =>
      state.signalLog.filter((line) => line.startsWith(`${id}:`)).map((line) => line.slice(id.length + 1));

    it('a Content-Length that says less than the body carries: the body is counted all the same, 413', async () => {
      const res = await limited.fetch(
        new Request('http://localhost/limits/read', {
          method: 'POST',
          headers: { 'content-length': '10' },
          body: 'a'.repeat(5000),
        }),
      );
      expect([res.status, await res.text()]).to.deep.equal([413, 'Payload Too Large']);
    });

    it("its signal aborting before the answer is complete aborts the handler's: the client left", async () => {
      const id = `fetch-signal/${next++}`;
      const caller = new AbortController();
      const pending = endpoints.fetch(
        new Request(`http://localhost/signal?ms=5000&id=${id}`, { signal: caller.signal }),
      );
      await waitFor(() => events(id).includes('started'), 1000, 'the handler');
      caller.abort();
      expect(await (await pending).text()).to.equal('done');
      expect(events(id)).to.deep.equal(['started', 'aborted', 'answered']);
    });

    it("its signal aborting once the body has been read is not the client leaving: the handler's stays", async () => {
      // What Deno.serve does after every response it sent.
      const id = `fetch-signal/${next++}`;
      const caller = new AbortController();
      const res = await endpoints.fetch(
        new Request(`http://localhost/signal?chunks=2&id=${id}`, { signal: caller.signal }),
      );
      expect(await res.text()).to.equal('chunk 1\nchunk 2\n');
      caller.abort();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(events(id)).to.deep.equal(['started', 'answered']);
    });

    it("a body the caller cancels before its end aborts the handler's signal", async () => {
      const id = `fetch-signal/${next++}`;
      const res = await endpoints.fetch(createTestRequest(`/signal?chunks=50&id=${id}`));
      const reader = res.body!.getReader();
      await reader.read();
      await reader.cancel();
      expect(events(id)).to.deep.equal(['started', 'answered', 'aborted']);
    });
  });

  it('serves a request made by createTestRequest, as a unit test of the tree does: a JSON POST', async () => {
    const res = await endpoints.fetch(
      createTestRequest('/api/users', { method: 'POST', body: '{"name":"Katherine"}' }),
    );
    expect(res.status).to.equal(201);
    const user = (await res.json()) as { id: string; name: string };
    expect(user.name).to.equal('Katherine');
    expect(res.headers.get('location')).to.equal(`/api/users/${user.id}`);
  });
});
