import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { BodyLimitError, nodeBodyToWebStream } from '../../src/bridge/request-body';

/** A Node request body: a readable stream, which is all nodeBodyToWebStream reads. */
const nodeBody = () => new PassThrough() as unknown as IncomingMessage & PassThrough;

describe('nodeBodyToWebStream', () => {
  it('streams the chunks as they come', async () => {
    const req = nodeBody();
    const reader = nodeBodyToWebStream(req, false).getReader();
    req.write('ab');
    expect(Buffer.from((await reader.read()).value!).toString()).to.equal('ab');
    req.end('c');
    expect(Buffer.from((await reader.read()).value!).toString()).to.equal('c');
    expect((await reader.read()).done).to.equal(true);
  });

  it('on cancel removes only its own data listener (the bounded drain keeps its own)', async () => {
    const req = nodeBody();
    const other = () => {};
    req.on('data', other);
    const reader = nodeBodyToWebStream(req, false).getReader();
    req.write('x');
    await reader.read();
    await reader.cancel();
    expect(req.listeners('data')).to.deep.equal([other]);
  });

  it('past the limit errors with BodyLimitError and removes only its own listener', async () => {
    const req = nodeBody();
    const other = () => {};
    req.on('data', other);
    const reader = nodeBodyToWebStream(req, 3).getReader();
    req.write('12345');
    const error = await reader.read().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(BodyLimitError);
    expect(req.listeners('data')).to.deep.equal([other]);
  });
});
