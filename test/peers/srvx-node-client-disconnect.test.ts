/**
 * Ports https://github.com/h3js/srvx/blob/main/test/node-client-disconnect.test.ts onto endpoints mounted
 * by this library (test/fixtures/peers-app, `/srvx/disconnect`): a client that promises 100 bytes, sends
 * 7 and hangs up. Every way of reading the body must reject, promptly, with an error that says the
 * client left (never "disturbed or locked", never a truncated body), and `request.signal` must be
 * aborted. On Express 5 and a bare node:http server over HTTP/1.1, and over HTTP/2 (h2c).
 *
 * Peers disagree on the error's shape (srvx: the socket's ECONNRESET error over HTTP/1, an AbortError
 * over HTTP/2); the library's is a ClientClosedError (`code: 'CLIENT_CLOSED'`) on both.
 */
import http2 from 'node:http2';
import net from 'node:net';
import { expect } from 'chai';
import { outcome, type ErrorInfo } from '../fixtures/peers-app/_lib/state';
import { eachHost, newId, within, h2cServer } from './hosts';

interface ReadOutcome {
  error?: ErrorInfo;
  aborted?: boolean;
  isReason?: boolean;
  isEarlyReason?: boolean;
  reasonName?: string;
}

const METHODS = ['arrayBuffer', 'bytes', 'blob', 'formData', 'text', 'json'] as const;

function expectClientClosed(result: ReadOutcome) {
  expect(result.error, 'the read rejects').to.not.equal(undefined);
  expect(result.error!.isError).to.equal(true);
  expect(result.error!.message).to.not.match(/disturbed or locked/);
  expect(result.error!.name).to.equal('ClientClosedError');
  expect(result.error!.code).to.equal('CLIENT_CLOSED');
  expect(result.aborted).to.equal(true);
}

describe('peers: srvx node-client-disconnect.test', function () {
  this.timeout(10_000);

  eachHost('node client disconnect before a body read (#293)', (app) => {
    /** The request promises 100 bytes, sends 7, and the socket is destroyed 20 ms later. */
    async function readAfterDisconnect(read: string, extra = ''): Promise<ReadOutcome> {
      const id = newId(`h1-disconnect-${read}`);
      const socket = net.connect(app().port, '127.0.0.1', () => {
        socket.write(
          `POST /srvx/disconnect?read=${read}&id=${id}${extra} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\npartial`,
        );
        setTimeout(() => socket.destroy(), 20);
      });
      socket.on('error', () => {});
      return within(outcome<ReadOutcome>(`${id}:result`), 3000, `${read}() to settle`);
    }

    for (const method of METHODS) {
      it(`srvx node-client-disconnect.test: ${method}() rejects with the abort reason`, async () => {
        expectClientClosed(await readAfterDisconnect(method));
      });
    }

    it('srvx node-client-disconnect.test: body stream errors with the abort reason', async () => {
      expectClientClosed(await readAfterDisconnect('stream-read-once'));
    });

    it('srvx node-client-disconnect.test: the rejection is the abort reason', async () => {
      // srvx rejects with `request.signal.reason` itself, so `error === signal.reason` identifies a
      // disconnect. The library's rejection and reason are two ClientClosedErrors: the name (or the
      // code) identifies it, not the identity.
      const result = await readAfterDisconnect('text', '&reason=1');
      expectClientClosed(result);
      expect(result.reasonName).to.equal('ClientClosedError');
      expect(result.isEarlyReason).to.equal(false);
      expect(result.isReason).to.equal(false);
    });

    it('srvx node-client-disconnect.test: a destroy without an error during a buffered read still settles', async () => {
      const id = newId('self-destroy');
      const socket = net.connect(app().port, '127.0.0.1', () => {
        socket.write(
          `POST /srvx/disconnect/self-destroy?id=${id} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\npartial`,
        );
      });
      socket.on('error', () => {});
      try {
        const result = await within(outcome<ReadOutcome>(`${id}:result`), 3000, 'the read to settle');
        // srvx: an AbortError. The library: its ClientClosedError, as for any stream cut short.
        expect(result.error?.isError).to.equal(true);
        expect(result.error?.name).to.equal('ClientClosedError');
      } finally {
        socket.destroy();
      }
    });
  });

  describe('http2 client disconnect before a body read (#293)', () => {
    const h2c = h2cServer();

    /** The HTTP/2 counterpart: a stream that promises 100 bytes, sends 7, and is destroyed 40 ms later. */
    async function readAfterDisconnectHttp2(read: string, wait: 'aborted' | 'none' = 'aborted', extra = '') {
      const id = newId(`h2-disconnect-${read}`);
      const client = http2.connect(h2c.origin());
      client.on('error', () => {});
      try {
        const stream = client.request({
          ':method': 'POST',
          ':path': `/srvx/disconnect?read=${read}&wait=${wait}&id=${id}${extra}`,
          'content-length': 100,
        });
        stream.on('error', () => {});
        stream.resume();
        stream.write('partial');
        setTimeout(() => stream.destroy(), 40);
        return await within(outcome<ReadOutcome>(`${id}:result`), 3000, `${read}() to settle`);
      } finally {
        client.destroy();
      }
    }

    for (const method of METHODS) {
      it(`srvx node-client-disconnect.test (http2): ${method}() rejects with the abort reason`, async () => {
        expectClientClosed(await readAfterDisconnectHttp2(method));
      });
    }
    it('srvx node-client-disconnect.test (http2): body stream errors with the abort reason', async () => {
      expectClientClosed(await readAfterDisconnectHttp2('stream-read-once'));
    });
    it('srvx node-client-disconnect.test (http2): the rejection is the abort reason', async () => {
      const result = await readAfterDisconnectHttp2('text', 'aborted', '&reason=1');
      expectClientClosed(result);
    });
    it('srvx node-client-disconnect.test (http2): a buffered read in flight rejects instead of resolving truncated', async () => {
      expectClientClosed(await readAfterDisconnectHttp2('text', 'none'));
    });
    it('srvx node-client-disconnect.test (http2): a streamed read in flight errors instead of ending cleanly', async () => {
      expectClientClosed(await readAfterDisconnectHttp2('stream-to-end', 'none'));
    });
  });
});
