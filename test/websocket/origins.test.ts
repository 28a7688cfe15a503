/**
 * Cross-site WebSocket hijacking, refused on every host: a browser attaches the user's cookies to a
 * handshake whatever page starts it, and no CORS applies to WebSockets. So a handshake whose Origin
 * is not the server's own host gets 403 before any middleware or hook runs, unless `attach`'s
 * `allowedOrigins` lists it (or is `'*'`); one without an Origin (not a browser) goes on to the
 * route's guard as before.
 */
import path from 'node:path';
import { expect } from 'chai';
import { hosts, type RunningHost } from '../integration/hosts';
import { audit } from '../fixtures/socket-app/_lib/audit';
import { connect, refusal } from './sockets';

const dir = path.join(__dirname, '../fixtures/socket-app');
const SESSION = { cookie: 'session=ok' };
let audits = 0;

for (const host of hosts) {
  describe(`WebSocket origins on ${host.name}`, () => {
    let running: RunningHost;
    let ws: string;
    before(async () => {
      running = await host.start({ dir });
      running.endpoints.attach(running.server);
      ws = running.url.replace('http:', 'ws:');
    });
    after(() => running.close());

    it("refuses another site's page carrying the user's session cookie, before the guard runs", async () => {
      const id = `evil-${++audits}`;
      const answer = await refusal(`${ws}/guarded?audit=${id}`, {
        headers: { ...SESSION, origin: 'https://evil.example' },
      });
      expect(answer.status).to.equal(403);
      expect(answer.body).to.match(/origin/);
      expect(audit).to.not.include(id);
    });

    it("accepts the server's own pages, and clients that send no Origin", async () => {
      const own = await connect(`${ws}/guarded`, { headers: { ...SESSION, origin: running.url } });
      expect(await own.next()).to.equal('inside');
      own.ws.close();
      const ownByName = await connect(`ws://localhost:${running.port}/guarded`, {
        headers: { ...SESSION, origin: `http://LOCALHOST:${running.port}` },
      });
      expect(await ownByName.next()).to.equal('inside');
      ownByName.ws.close();
      const noOrigin = await connect(`${ws}/guarded`, { headers: SESSION });
      expect(await noOrigin.next()).to.equal('inside');
      noOrigin.ws.close();
      // Not from a browser, but still the route's guard to pass.
      expect((await refusal(`${ws}/guarded`)).status).to.equal(401);
    });

    it('refuses the same host on another port, an opaque origin, and one that is not a URL', async () => {
      for (const origin of [`http://127.0.0.1:${running.port + 1}`, 'null', 'not a url']) {
        const answer = await refusal(`${ws}/guarded`, { headers: { ...SESSION, origin } });
        expect(answer.status, origin).to.equal(403);
      }
    });

    describe('allowedOrigins', () => {
      let listed: RunningHost;
      let any: RunningHost;
      before(async () => {
        listed = await host.start({ dir });
        listed.endpoints.attach(listed.server, { allowedOrigins: ['https://App.example.com/'] });
        any = await host.start({ dir });
        any.endpoints.attach(any.server, { allowedOrigins: '*' });
      });
      after(() => Promise.all([listed.close(), any.close()]));

      it('lets the listed origins in, besides the own host', async () => {
        const url = `${listed.url.replace('http:', 'ws:')}/guarded`;
        const app = await connect(url, { headers: { ...SESSION, origin: 'https://app.example.com' } });
        expect(await app.next()).to.equal('inside');
        app.ws.close();
        const own = await connect(url, { headers: { ...SESSION, origin: listed.url } });
        expect(await own.next()).to.equal('inside');
        own.ws.close();
        for (const origin of ['https://evil.example', 'http://app.example.com']) {
          expect((await refusal(url, { headers: { ...SESSION, origin } })).status, origin).to.equal(403);
        }
      });

      it("'*' lets any page in: for sockets that authenticate with a token", async () => {
        const url = `${any.url.replace('http:', 'ws:')}/guarded`;
        const evil = await connect(url, { headers: { ...SESSION, origin: 'https://evil.example' } });
        expect(await evil.next()).to.equal('inside');
        evil.ws.close();
      });

      it('an entry that is not an origin is refused at attach', () => {
        for (const entry of ['app.example.com', 'https://app.example.com/path', '*.example.com']) {
          expect(() => listed.endpoints.attach(listed.server, { allowedOrigins: [entry] }), entry).to.throw(
            TypeError,
            /is not an origin; write it as a browser sends it/,
          );
        }
      });
    });
  });
}
