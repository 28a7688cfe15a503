/**
 * What a Response body has ready without waiting: every body made of data is read whole (and can be
 * sent with a Content-Length), a stream that waits on a timer or the network is handed back with the
 * read still under way, a long stream that never waits is cut at the buffering cap, and a failure
 * is the caller's.
 */
import { expect } from 'chai';
import { joinChunks, readAvailable } from '../../src/dispatch';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function availableOf(body: BodyInit | ReadableStream<Uint8Array>) {
  const reader = new Response(body).body!.getReader();
  return { reader, available: await readAvailable(reader) };
}

describe('readAvailable', () => {
  const whole: [string, () => BodyInit, string][] = [
    ['a string', () => 'hello', 'hello'],
    ['bytes', () => new TextEncoder().encode('bytes'), 'bytes'],
    ['JSON', () => JSON.stringify({ ok: true }), '{"ok":true}'],
    ['URLSearchParams', () => new URLSearchParams({ a: '1' }), 'a=1'],
    ['a Blob', () => new Blob(['blob ', 'parts']), 'blob parts'],
  ];
  for (const [name, body, expected] of whole) {
    it(`reads a body of ${name} whole`, async () => {
      const { available } = await availableOf(body());
      expect(available.done).to.equal(true);
      expect(available.pending).to.equal(undefined);
      expect(text(joinChunks(available.chunks))).to.equal(expected);
    });
  }

  it('reads form data whole', async () => {
    const form = new FormData();
    form.set('name', 'value');
    const { available } = await availableOf(form);
    expect(available.done).to.equal(true);
    expect(text(joinChunks(available.chunks))).to.contain('name="name"');
  });

  it('reads an empty body as done with no chunks', async () => {
    const { available } = await availableOf(new Uint8Array(0));
    expect(available.done).to.equal(true);
    expect(joinChunks(available.chunks).byteLength).to.equal(0);
  });

  it('hands back a stream that waits on a timer with its first chunk and the read under way', async () => {
    let timer: NodeJS.Timeout | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('first'));
        timer = setTimeout(() => {
          controller.enqueue(new TextEncoder().encode('second'));
          controller.close();
        }, 50);
      },
    });
    const { reader, available } = await availableOf(stream);
    expect(available.done).to.equal(false);
    expect(text(joinChunks(available.chunks))).to.equal('first');
    expect(available.pending).to.be.an.instanceOf(Promise);
    const next = await available.pending!;
    expect(next.done).to.equal(false);
    expect(text(next.value!)).to.equal('second');
    expect((await reader.read()).done).to.equal(true);
    clearTimeout(timer);
  });

  it('stops collecting a stream that never waits once past the buffering cap, with no read under way', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const { reader, available } = await availableOf(stream);
    expect(available.done).to.equal(false);
    expect(available.pending).to.equal(undefined);
    const collected = joinChunks(available.chunks).byteLength;
    expect(collected).to.be.greaterThan(64 * 1024);
    expect(collected).to.be.at.most(64 * 1024 + 2 * 16 * 1024);
    expect(pulled).to.be.lessThan(10);
    await reader.cancel();
  });

  it('rejects with the error of a body that fails at once', async () => {
    const failure = new Error('source failed');
    const stream = new ReadableStream<Uint8Array>({ start: (controller) => controller.error(failure) });
    const error = await readAvailable(stream.getReader()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.equal(failure);
  });

  it('rejects with the error of a body that fails after its first chunk', async () => {
    const failure = new Error('broke off');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('part'));
      },
      pull(controller) {
        controller.error(failure);
      },
    });
    const error = await readAvailable(stream.getReader()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.equal(failure);
  });

  it('hands a read that fails after it was handed back to the caller, whose await gets the error', async () => {
    let fail!: (error: Error) => void;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        fail = (error) => controller.error(error);
      },
    });
    const available = await readAvailable(stream.getReader());
    expect(available.done).to.equal(false);
    const failure = new Error('late');
    fail(failure);
    const error = await available.pending!.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.equal(failure);
  });
});
