/**
 * Ports https://github.com/h3js/srvx/blob/main/test/node-trust-proxy.test.ts onto endpoints mounted by
 * this library (test/fixtures/peers-app, `/srvx/url-info`). srvx's `trustProxy` option is Express's
 * `trust proxy` setting here: the scheme of `request.url` is Express's `req.protocol`. A bare node:http
 * server has no such setting and never trusts the headers. The client-IP cases are about srvx's
 * `request.ip` (Express's `req.ip` is Express's own) and are left out.
 *
 * Where srvx honours `X-Forwarded-Host` under `trustProxy`, the library does not: the host of
 * `request.url` is the Host header's, whatever the setting.
 */
import { expect } from 'chai';
import { peerHosts, rawRequest, type PeerServer } from './hosts';

const [expressHost, nodeHost] = peerHosts as [(typeof peerHosts)[0], (typeof peerHosts)[0]];

async function urlOf(server: PeerServer, headers: Record<string, string>): Promise<URL> {
  const lines = Object.entries({ Host: 'real.example', ...headers }).map(
    ([name, value]) => `${name}: ${value}`,
  );
  const res = await rawRequest(server.port, ['GET /srvx/url-info HTTP/1.1', ...lines].join('\r\n'));
  expect(res.status).to.equal(200);
  return new URL(JSON.parse(res.body.toString()).url);
}

describe('peers: srvx node-trust-proxy.test', function () {
  this.timeout(10_000);

  const running: PeerServer[] = [];
  const start = async (host: typeof expressHost, trustProxy?: unknown) => {
    const server = await host.start(
      trustProxy === undefined ? {} : { settings: { 'trust proxy': trustProxy } },
    );
    running.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()));
  });

  describe('trustProxy protocol gating', () => {
    it('srvx node-trust-proxy.test: default (trustProxy unset) ignores X-Forwarded-Proto on plaintext', async () => {
      for (const host of [expressHost, nodeHost]) {
        const server = await start(host);
        expect((await urlOf(server, { 'X-Forwarded-Proto': 'https' })).protocol, host.name).to.equal('http:');
      }
    });

    it('srvx node-trust-proxy.test: trustProxy: false ignores X-Forwarded-Proto', async () => {
      const server = await start(expressHost, false);
      expect((await urlOf(server, { 'X-Forwarded-Proto': 'https' })).protocol).to.equal('http:');
    });

    it('srvx node-trust-proxy.test: trustProxy: true honors X-Forwarded-Proto', async () => {
      const server = await start(expressHost, true);
      expect((await urlOf(server, { 'X-Forwarded-Proto': 'https' })).protocol).to.equal('https:');
    });

    it('srvx node-trust-proxy.test: trustProxy: true honors the leftmost entry of a comma-joined X-Forwarded-Proto', async () => {
      const server = await start(expressHost, true);
      expect((await urlOf(server, { 'X-Forwarded-Proto': 'https, http' })).protocol).to.equal('https:');
    });

    it('srvx node-trust-proxy.test: trustProxy: "loopback" trusts a same-host peer', async () => {
      const server = await start(expressHost, 'loopback');
      expect((await urlOf(server, { 'X-Forwarded-Proto': 'https' })).protocol).to.equal('https:');
    });

    it('srvx node-trust-proxy.test: trustProxy allowlist honors trusted peer address', async () => {
      const server = await start(expressHost, ['127.0.0.1', '::1']);
      expect((await urlOf(server, { 'X-Forwarded-Proto': 'https' })).protocol).to.equal('https:');
    });

    it("srvx node-trust-proxy.test: (allowlist) an untrusted peer's X-Forwarded-Proto is ignored", async () => {
      const server = await start(expressHost, ['10.0.0.1']);
      expect((await urlOf(server, { 'X-Forwarded-Proto': 'https' })).protocol).to.equal('http:');
    });

    it('srvx node-trust-proxy.test: no forwarded header stays http on plaintext regardless of trustProxy', async () => {
      const server = await start(expressHost, true);
      expect((await urlOf(server, {})).protocol).to.equal('http:');
    });
  });

  describe('trustProxy host gating', () => {
    it('srvx node-trust-proxy.test: default (trustProxy unset) ignores X-Forwarded-Host', async () => {
      for (const host of [expressHost, nodeHost]) {
        const server = await start(host);
        expect((await urlOf(server, { 'X-Forwarded-Host': 'spoofed.example' })).host, host.name).to.equal(
          'real.example',
        );
      }
    });

    it('srvx node-trust-proxy.test: trustProxy: true honors X-Forwarded-Host (the Host header is used)', async () => {
      const server = await start(expressHost, true);
      expect((await urlOf(server, { 'X-Forwarded-Host': 'forwarded.example' })).host).to.equal(
        'real.example',
      );
    });

    it('srvx node-trust-proxy.test: trustProxy: true uses first entry of an X-Forwarded-Host chain (the Host header is used)', async () => {
      const server = await start(expressHost, true);
      expect((await urlOf(server, { 'X-Forwarded-Host': 'outer.example, inner.example' })).host).to.equal(
        'real.example',
      );
    });

    it('srvx node-trust-proxy.test: falls back to Host when X-Forwarded-Host is absent', async () => {
      const server = await start(expressHost, true);
      expect((await urlOf(server, {})).host).to.equal('real.example');
    });

    it('srvx node-trust-proxy.test: falls back to Host when a trusted X-Forwarded-Host is malformed', async () => {
      const server = await start(expressHost, true);
      expect((await urlOf(server, { 'X-Forwarded-Host': 'bad_host:notaport' })).host).to.equal(
        'real.example',
      );
    });
  });
});
