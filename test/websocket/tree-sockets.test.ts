/**
 * A handshake that fails after the tree took the upgrade (an app listener that throws, `ws` failing) is told
 * to `onError`, and its socket is destroyed: never a silent end, never an unhandled rejection.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import type { EndpointErrorInfo } from '../../src';
import { buildMethodTable, LOADING } from '../../src/route';
import { treeSockets } from '../../src/websocket/tree-sockets';

describe('WebSockets: a handshake that fails', () => {
  it('is told to onError, and its socket is destroyed; one handed back to the app is named by its URL', async () => {
    const reports: { error: unknown; info: EndpointErrorInfo }[] = [];
    let loaded = false;
    const route = { pattern: '/plain', displayPath: 'app/plain/endpoint.ts', table: buildMethodTable({}) };
    const mount = {
      // While loading, the route may serve sockets; loaded, it turns out not to: the app's after all.
      router: () => ({ match: () => ({ value: loaded ? route : LOADING, params: {} }) }),
      loaded: Promise.resolve().then(() => void (loaded = true)),
      mayServeSockets: true,
      onError: (error: unknown, info: EndpointErrorInfo) => void reports.push({ error, info }),
    };
    const failure = new Error("the app's upgrade listener failed");
    const tree = treeSockets(mount as never, { pingInterval: false }, () => {
      throw failure;
    });
    const req = {
      method: 'GET',
      url: '/plain',
      headers: { upgrade: 'websocket' },
    } as unknown as IncomingMessage;
    const socket = new PassThrough();
    expect(tree.claims(req)).to.equal(true);
    await tree.serve(req, socket, Buffer.alloc(0));
    expect(socket.destroyed).to.equal(true);
    expect(reports).to.have.length(1);
    expect(reports[0]!.error).to.equal(failure);
    expect(reports[0]!.info).to.deep.equal({
      route: '/plain',
      file: 'attach',
      export: 'websocket',
      passedToNext: false,
    });
  });
});
