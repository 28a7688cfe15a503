import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { BodyLimitError, nodeBodyToWebStream } from '../../src/bridge/node-body';
import { countedBody } from '../../src/dispatch/body-rules';

const tick = () => new Promise((resolve) => setImmediate(resolve));

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

  it('takes no chunk before it is read, and one chunk per read: the rest stays in the Node stream', async () => {
    const req = nodeBody();
    for (const part of ['aa', 'bb', 'cc']) req.write(part);
    const reader = nodeBodyToWebStream(req, false).getReader();
    await tick();
    expect(req.readableLength).to.equal(6);
    expect(Buffer.from((await reader.read()).value!).toString()).to.equal('aa');
    await tick();
    expect(req.readableLength).to.equal(4);
    expect(req.isPaused()).to.equal(true);
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

describe('countedBody', () => {
  it('reads its source only when it is read: one read of the source per read', async () => {
    let pulls = 0;
    const source = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulls++;
          controller.enqueue(new Uint8Array(4));
        },
      },
      { highWaterMark: 0 },
    );
    const reader = countedBody(source, false).getReader();
    await tick();
    expect(pulls).to.equal(0);
    await reader.read();
    await tick();
    expect(pulls).to.equal(1);
  });
});
