/**
 * Unit tests of the endpoint handlers, the typical use of createTestRequest: build a Request with
 * createTestRequest, call the exported GET/POST/... directly (no server, no Express), check
 * the status and the JSON.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
// First: it builds the package when dist/ is missing, and the endpoints below import it by name.
import { createTestRequest } from './support';
import { entriesAfter, type Entry } from '../app/_lib/activity';
import { createUser, resetUsers, updateUser } from '../app/_lib/users';
import * as users from '../app/api/users/endpoint';
import * as user from '../app/api/users/[id]/endpoint';
import * as contact from '../app/contact/endpoint';
import * as events from '../app/events/endpoint';
import * as feed from '../app/feed/endpoint';
import * as proxy from '../app/proxy/[[...path]]/endpoint';

/** The first event of an event stream (the stream is then left), as its fields. */
async function readFirstEvent(res: Response): Promise<{ id?: string; event?: string; data: string }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const end = text.indexOf('\n\n');
    if (end === -1) {
      text += decoder.decode((await reader.read()).value, { stream: true });
      continue;
    }
    const fields: Record<string, string> = {};
    for (const line of text.slice(0, end).split('\n')) {
      const colon = line.indexOf(': ');
      fields[line.slice(0, colon)] = line.slice(colon + 2);
    }
    text = text.slice(end + 2);
    // A block without data (the stream's `retry:`) is no event.
    if (fields.data === undefined) continue;
    await reader.cancel();
    return fields as { id?: string; event?: string; data: string };
  }
}

describe('example endpoints (unit, createTestRequest)', () => {
  beforeEach(() => resetUsers());

  describe('api/users/endpoint.ts', () => {
    it('GET lists the users', async () => {
      const res = await users.GET();
      expect(res.status).to.equal(200);
      expect(await res.json()).to.have.length(2);
    });

    it('POST creates a user: 201 and the JSON', async () => {
      const req = createTestRequest('/api/users', {
        method: 'POST',
        body: JSON.stringify({ name: 'Alan Turing', email: 'alan@example.com' }),
      });
      expect(req.headers.get('content-type')).to.equal('application/json'); // set by the helper
      const res = await users.POST(req);
      expect(res.status).to.equal(201);
      expect(await res.json()).to.deep.equal({ id: '3', name: 'Alan Turing', email: 'alan@example.com' });
      expect(res.headers.get('location')).to.equal('/api/users/3');
    });

    it('POST rejects a body that is not a user: 400', async () => {
      for (const body of ['{"name":"x"}', '[]', 'not json', '{"name":" ","email":"e"}']) {
        const res = await users.POST(createTestRequest('/api/users', { method: 'POST', body }));
        expect(res.status, body).to.equal(400);
      }
    });

    it('POST: the 400 lists each issue with where it is (RFC 9457 problem details)', async () => {
      const req = createTestRequest('/api/users', { method: 'POST', body: '{"name":"Alan"}' });
      const res = await users.POST(req);
      expect(res.headers.get('content-type')).to.equal('application/problem+json');
      const problem = (await res.json()) as { issues: { path: string; message: string }[] };
      expect(problem.issues).to.deep.equal([
        { location: 'body', path: 'body.email', pointer: '/email', message: 'Enter an email address' },
      ]);
    });
  });

  describe('api/users/[id]/endpoint.ts', () => {
    const params = (id: string) => ({ params: { id } });

    it('GET finds a user by id', async () => {
      const res = await user.GET(createTestRequest('/api/users/1'), params('1'));
      expect(res.status).to.equal(200);
      expect(await res.json()).to.include({ id: '1', name: 'Ada Lovelace' });
    });

    it('GET an absent user: 404 with a null body', async () => {
      const res = await user.GET(createTestRequest('/api/users/42'), params('42'));
      expect(res.status).to.equal(404);
      expect(res.body).to.equal(null);
    });

    it('PUT replaces, PATCH merges', async () => {
      const put = await user.PUT(
        createTestRequest('/api/users/1', {
          method: 'PUT',
          body: '{"name":"Ada King","email":"ak@example.com"}',
        }),
        params('1'),
      );
      expect(await put.json()).to.deep.equal({ id: '1', name: 'Ada King', email: 'ak@example.com' });
      const patch = await user.PATCH(
        createTestRequest('/api/users/1', { method: 'PATCH', body: '{"name":"Countess"}' }),
        params('1'),
      );
      expect(await patch.json()).to.deep.equal({ id: '1', name: 'Countess', email: 'ak@example.com' });
    });

    it('PUT needs every field; PATCH on an absent user is 404', async () => {
      const put = await user.PUT(
        createTestRequest('/api/users/1', { method: 'PUT', body: '{"name":"x"}' }),
        params('1'),
      );
      expect(put.status).to.equal(400);
      const patch = await user.PATCH(
        createTestRequest('/api/users/9', { method: 'PATCH', body: '{"name":"x"}' }),
        params('9'),
      );
      expect(patch.status).to.equal(404);
    });

    it('DELETE: 204 with a null body, then GET is 404', async () => {
      const del = await user.DELETE(createTestRequest('/api/users/2', { method: 'DELETE' }), params('2'));
      expect(del.status).to.equal(204);
      expect(del.body).to.equal(null);
      expect((await user.GET(createTestRequest('/api/users/2'), params('2'))).status).to.equal(404);
    });
  });

  describe('contact/endpoint.ts', () => {
    const post = (body: string) =>
      contact.POST(
        createTestRequest('/contact', {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body,
        }),
      );

    it('POST thanks the sender by name, HTML-escaped', async () => {
      const res = await post(new URLSearchParams({ name: '<script>x</script>', message: 'hi' }).toString());
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/html/);
      const html = await res.text();
      expect(html).to.include('Thanks, &lt;script&gt;x&lt;/script&gt;');
      expect(html).not.to.include('<script>');
    });

    it('POST without a name: 400', async () => {
      expect((await post('message=hi')).status).to.equal(400);
    });

    it('exports no GET: the page answers GET /contact', () => {
      expect(Object.keys(contact)).to.deep.equal(['POST']);
    });
  });

  describe('events/endpoint.ts', () => {
    it('GET returns an event stream of ticks', async () => {
      const res = events.GET(createTestRequest('/events'));
      expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).to.match(
        /^event: tick\nid: 1\ndata: \{"tick":1,"time":"/,
      );
      await reader.cancel(); // stops the loop: the test would otherwise keep ticking
    });
  });

  describe('feed/endpoint.ts', () => {
    it('GET sends what happened to users after the Last-Event-ID, typed by the contract', async () => {
      const { id } = createUser({ name: 'Alan Turing', email: 'alan@example.com' });
      updateUser(id, { name: 'Alan M. Turing' });
      const [{ id: latest }] = entriesAfter(undefined, 1) as [Entry];
      // A client that saw the event before the last one gets the last one again, and only it.
      const res = await feed.GET(
        createTestRequest('/feed', { headers: { 'last-event-id': String(latest - 1) } }),
      );
      expect(res.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8; data=json');
      const event = await readFirstEvent(res);
      expect(event).to.deep.include({ id: String(latest), event: 'activity' });
      expect(JSON.parse(event.data)).to.deep.include({
        action: 'updated',
        user: { id, name: 'Alan M. Turing' },
      });
    });
  });

  describe('proxy/[[...path]]/endpoint.ts', () => {
    let upstream: http.Server;
    let seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string };
    const savedUpstream = process.env.UPSTREAM_URL;

    before(async () => {
      upstream = http.createServer((req, res) => {
        let body = '';
        req.setEncoding('utf8');
        req.on('data', (chunk: string) => (body += chunk));
        req.on('end', () => {
          seen = { method: req.method, url: req.url, headers: req.headers, body };
          res.writeHead(201, { 'Content-Type': 'text/plain', 'X-Upstream': 'yes' }).end('from upstream');
        });
      });
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      process.env.UPSTREAM_URL = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/base/`;
    });

    after(async () => {
      if (savedUpstream === undefined) delete process.env.UPSTREAM_URL;
      else process.env.UPSTREAM_URL = savedUpstream;
      await new Promise((resolve) => upstream.close(resolve));
    });

    it('ANY forwards method, path, query, headers and body, and returns the upstream Response', async () => {
      const req = createTestRequest('/proxy/a/b%20c?x=1', {
        method: 'PUT',
        headers: { 'X-Demo': 'yes' },
        body: '{"a":1}',
      });
      const res = await proxy.ANY(req, { params: { path: ['a', 'b c'] } });
      expect(res.status).to.equal(201);
      expect(res.headers.get('x-upstream')).to.equal('yes');
      expect(await res.text()).to.equal('from upstream');
      expect(seen).to.include({ method: 'PUT', url: '/base/a/b%20c?x=1', body: '{"a":1}' });
      expect(seen.headers).to.include({ 'x-demo': 'yes', 'content-type': 'application/json' });
      // The client's Host (localhost) is not forwarded: fetch names the upstream.
      expect(seen.headers.host).to.equal(new URL(process.env.UPSTREAM_URL!).host);
    });

    it('with no path (the optional catch-all absent), forwards to the upstream root', async () => {
      await proxy.ANY(createTestRequest('/proxy'), { params: {} });
      expect(seen).to.include({ method: 'GET', url: '/base/' });
    });
  });
});
