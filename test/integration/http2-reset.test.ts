/**
 * An HTTP/2 stream the client resets mid-body: Node's compatibility API then ends the request's
 * stream and marks it complete, as if all of the body had come. The handler's body read must still
 * reject (a body cut short is never handed over as whole), and its `request.signal` abort.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { mountEndpoints } from '../../src';

describe('HTTP/2: a stream reset mid-body', () => {
  let root: string;
  let server: http2.Http2Server;
  let port: number;

  before(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'ee-h2-reset-'));
    writeFileSync(path.join(root, 'package.json'), '{"type":"commonjs"}');
    mkdirSync(path.join(root, 'app/upload'), { recursive: true });
    writeFileSync(
      path.join(root, 'app/upload/endpoint.js'),
      `const { seen } = require('../../seen.js');
       exports.POST = async (request) => {
         const record = {};
         seen.push(record);
         try { record.read = 'whole: ' + (await request.text()).length; }
         catch (error) { record.read = 'rejected: ' + error.name; }
         record.aborted = request.signal.aborted;
         return new Response('done');
       };`,
    );
    writeFileSync(path.join(root, 'seen.js'), 'exports.seen = [];');
    const endpoints = mountEndpoints({ dir: path.join(root, 'app') });
    await endpoints.ready;
    server = http2.createServer(endpoints as unknown as (req: unknown, res: unknown) => void);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  it('rejects the body read and aborts the signal, never hands over half a body', async () => {
    // The fixture's own module instance, which its endpoint writes to.
    const records = require(path.join(root, 'seen.js')).seen as { read?: string; aborted?: boolean }[];
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on('error', () => {});
    const stream = session.request({
      ':method': 'POST',
      ':path': '/upload',
      'content-type': 'text/plain',
      'content-length': '100000',
    });
    stream.on('error', () => {});
    stream.write(Buffer.alloc(1000, 'a'));
    const deadline = Date.now() + 3000;
    while (records.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    stream.close(http2.constants.NGHTTP2_CANCEL);
    while (records[0]?.read === undefined && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    session.close();
    expect(records[0]).to.deep.equal({ read: 'rejected: ClientClosedError', aborted: true });
  });
});
