/**
 * eventStream(request, run) on its own, with no server: the Response, the framing of each field,
 * what it refuses, heartbeats, Last-Event-ID, backpressure, its end, a failing `run`, a reader that
 * leaves, and the end a shutdown gives it.
 */
import { expect } from 'chai';
import { eventStream, type EventStream } from '../../src';
import { eventStreamOf } from '../../src/event-stream';
import { createTestRequest } from '../../src/testing';
import { parseEventStream, readChunks, readEventStream } from './support';

const request = (headers?: Record<string, string>) => createTestRequest('/feed', { headers });

describe('eventStream()', () => {
  describe('the Response', () => {
    it('is a 200 text/event-stream that proxies neither cache nor buffer', () => {
      const response = eventStream(request(), (stream) => stream.close());
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
      expect(response.headers.get('cache-control')).to.equal('no-cache');
      expect(response.headers.get('x-accel-buffering')).to.equal('no');
    });

    it('takes headers of its own beside, or instead of, the stream’s', () => {
      const response = eventStream(request(), (stream) => stream.close(), {
        headers: { 'cache-control': 'no-cache, no-transform', 'x-feed': 'prices' },
      });
      expect(response.headers.get('cache-control')).to.equal('no-cache, no-transform');
      expect(response.headers.get('x-feed')).to.equal('prices');
    });

    it('says data=json in its Content-Type when every event’s data is JSON', () => {
      const response = eventStream(request(), (stream) => stream.close(), { json: true });
      expect(response.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8; data=json');
    });
  });

  describe('framing', () => {
    it('writes each field of an event, then a blank line', async () => {
      const response = eventStream(request(), async (stream) => {
        await stream.send({ event: 'tick', id: '7', retry: 2500, data: 'hello' });
      });
      expect(await response.text()).to.equal('event: tick\nid: 7\nretry: 2500\ndata: hello\n\n');
    });

    it('splits data into a data: line per line; CRLF, CR and LF all arrive as LF', async () => {
      const response = eventStream(request(), async (stream) => {
        await stream.send({ data: 'one\r\ntwo\rthree\nfour\n' });
        await stream.send({ data: '' });
      });
      const text = await response.text();
      expect(text).to.equal('data: one\ndata: two\ndata: three\ndata: four\ndata: \n\ndata: \n\n');
      expect(parseEventStream(text).events.map((e) => e.data)).to.deep.equal(['one\ntwo\nthree\nfour\n', '']);
    });

    it('keeps leading spaces, colons and field-like text inside data as data', async () => {
      const tricky = ' starts with a space\nid: 99\nevent: forged\n\ndata: x\n:comment';
      const response = eventStream(request(), (stream) => stream.send({ id: '1', data: tricky }));
      const { events } = await readEventStream(response);
      expect(events).to.deep.equal([{ event: 'message', id: '1', data: tricky }]);
    });

    it('sends a string as it is and any other value as JSON', async () => {
      const response = eventStream(request(), async (stream) => {
        await stream.send({ data: 'plain' });
        await stream.send({ data: { n: 1, text: 'a\nb' } });
        await stream.send({ data: [1, 2] });
        await stream.send({ data: 42 });
      });
      const { events } = await readEventStream(response);
      expect(events.map((e) => e.data)).to.deep.equal(['plain', '{"n":1,"text":"a\\nb"}', '[1,2]', '42']);
    });

    it('sends every value as JSON, a string too, with { json: true }', async () => {
      const response = eventStream(request(), (stream) => stream.send({ data: 'plain' }), { json: true });
      expect((await readEventStream(response)).events[0]!.data).to.equal('"plain"');
    });

    it('writes comments as comment lines, one per line', async () => {
      const response = eventStream(request(), (stream) => stream.comment('a\nb'));
      expect(await response.text()).to.equal(': a\n: b\n');
    });

    it('sends the retry option first', async () => {
      const response = eventStream(request(), (stream) => stream.send({ data: 'x' }), { retry: 1000 });
      const text = await response.text();
      expect(text.startsWith('retry: 1000\n\n')).to.equal(true);
      expect(parseEventStream(text).retries).to.deep.equal([1000]);
    });
  });

  describe('what cannot be framed is refused', () => {
    const refused = [
      ['an event name with LF', { event: 'a\nb', data: 'x' }, /event cannot hold a line break/],
      ['an event name with CR', { event: 'a\rb', data: 'x' }, /event cannot hold a line break/],
      ['an id with LF', { id: '1\n2', data: 'x' }, /id cannot hold a line break/],
      ['an id with CRLF', { id: '1\r\n', data: 'x' }, /id cannot hold a line break/],
      ['an id with NUL', { id: '1\u00002', data: 'x' }, /id cannot hold NUL/],
      ['a negative retry', { retry: -1, data: 'x' }, /retry must be a whole number/],
      ['a fractional retry', { retry: 1.5, data: 'x' }, /retry must be a whole number/],
      ['data that is no JSON value', { data: undefined }, /must be a string or a JSON value/],
    ] as const;
    for (const [what, message, error] of refused) {
      it(`${what}: send() throws, and nothing of it is written`, async () => {
        let thrown: unknown;
        const response = eventStream(request(), async (stream) => {
          await stream.send({ data: 'before' });
          try {
            await stream.send(message as Parameters<EventStream['send']>[0]);
          } catch (error) {
            thrown = error;
          }
        });
        expect(await response.text()).to.equal('data: before\n\n');
        expect(thrown).to.be.instanceOf(TypeError);
        expect((thrown as Error).message).to.match(error);
      });
    }

    it('a refusal `run` does not catch fails the stream, after the events sent before it', async () => {
      const response = eventStream(request(), async (stream) => {
        await stream.send({ id: '1', data: 'kept' });
        await stream.send({ id: 'bad\nid', data: 'refused' });
      });
      let text = '';
      let failure: unknown;
      await readChunks(response.body!, (chunk) => void (text += chunk)).catch(
        (error: unknown) => (failure = error),
      );
      expect(text).to.equal('id: 1\ndata: kept\n\n');
      expect(failure).to.be.instanceOf(TypeError);
    });
  });

  describe('Last-Event-ID', () => {
    it('is the header the reconnecting client sent', async () => {
      let seen: string | undefined = 'unset';
      await eventStream(
        request({ 'last-event-id': '41' }),
        (stream) => void (seen = stream.lastEventId),
      ).text();
      expect(seen).to.equal('41');
    });

    it('is undefined on a first connection', async () => {
      let seen: string | undefined = 'unset';
      await eventStream(request(), (stream) => void (seen = stream.lastEventId)).text();
      expect(seen).to.equal(undefined);
    });
  });

  describe('heartbeats', () => {
    it('sends a comment line after each heartbeat of silence', async () => {
      const response = eventStream(request(), (stream) => stream.sleep(200), { heartbeat: 40 });
      const { comments, events } = await readEventStream(response);
      expect(events).to.have.length(0);
      // About four; timers run late on a busy machine, never early.
      expect(comments.length).to.be.within(2, 5);
    });

    it('sends none while events flow', async () => {
      const response = eventStream(
        request(),
        async (stream) => {
          for (let i = 0; i < 15; i++) {
            await stream.send({ data: String(i) });
            await stream.sleep(15);
          }
        },
        { heartbeat: 100 },
      );
      const { comments, events } = await readEventStream(response);
      expect(events).to.have.length(15);
      expect(comments).to.have.length(0);
    });

    it('none at all with heartbeat: false', async () => {
      const response = eventStream(request(), (stream) => stream.sleep(60), { heartbeat: false });
      expect(await response.text()).to.equal('');
    });
  });

  describe('delivery', () => {
    it('send() resolves once the reader has taken the event, and events sent meanwhile go out as one chunk', async () => {
      let stream!: EventStream;
      const response = eventStream(request(), (s) => {
        stream = s;
        return new Promise<void>((resolve) => s.signal.addEventListener('abort', () => resolve()));
      });
      await new Promise((resolve) => setImmediate(resolve));
      let taken = false;
      const first = stream.send({ data: 'a' }).then((sent) => (taken = sent));
      void stream.send({ data: 'b' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(taken, 'nobody has read yet').to.equal(false);
      const reader = response.body!.getReader();
      const chunk = await reader.read();
      expect(new TextDecoder().decode(chunk.value)).to.equal('data: a\n\ndata: b\n\n');
      expect(await first).to.equal(true);
      // A reader already waiting takes the next event at once.
      const next = reader.read();
      expect(await stream.send({ data: 'c' })).to.equal(true);
      expect(new TextDecoder().decode((await next).value)).to.equal('data: c\n\n');
      stream.close();
      expect((await reader.read()).done).to.equal(true);
    });

    it('close() ends the stream after everything sent before it', async () => {
      const response = eventStream(request(), (stream) => {
        void stream.send({ data: '1' });
        void stream.send({ data: '2' });
        stream.close();
        expect(stream.closed).to.equal(true);
        return stream.send({ data: 'after close' }).then((sent) => expect(sent).to.equal(false));
      });
      expect((await readEventStream(response)).events.map((e) => e.data)).to.deep.equal(['1', '2']);
    });

    it('a run that throws fails the stream after the events sent before it', async () => {
      const boom = new Error('feed broke');
      const response = eventStream(request(), async (stream) => {
        void stream.send({ data: 'sent first' });
        throw boom;
      });
      let text = '';
      let failure: unknown;
      await readChunks(response.body!, (chunk) => void (text += chunk)).catch(
        (error: unknown) => (failure = error),
      );
      expect(text).to.equal('data: sent first\n\n');
      expect(failure).to.equal(boom);
    });

    it('a reader that leaves aborts the signal with its reason; send() and sleep() then resolve false', async () => {
      let stream!: EventStream;
      let slept: Promise<boolean> | undefined;
      const response = eventStream(request(), (s) => {
        stream = s;
        slept = s.sleep(10_000);
        return slept;
      });
      const reader = response.body!.getReader();
      await new Promise((resolve) => setImmediate(resolve));
      const reason = new Error('client gone');
      await reader.cancel(reason);
      expect(stream.signal.aborted).to.equal(true);
      expect(stream.signal.reason).to.equal(reason);
      expect(await slept).to.equal(false);
      expect(await stream.send({ data: 'x' })).to.equal(false);
      expect(stream.closed).to.equal(true);
    });

    it('a run that rethrows the signal’s reason after the reader left is no failure', async () => {
      const response = eventStream(request(), async (stream) => {
        await new Promise((resolve) => stream.signal.addEventListener('abort', resolve));
        throw stream.signal.reason;
      });
      const reader = response.body!.getReader();
      await reader.cancel(new Error('left'));
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
  });

  describe('shutdown, as the mount asks it', () => {
    it('sends the final event, ends the stream, and aborts the signal with the given reason', async () => {
      let stream!: EventStream;
      const req = request();
      const response = eventStream(req, async (s) => {
        stream = s;
        await s.send({ id: '1', data: 'one' });
        await s.sleep(60_000);
        await s.send({ id: '2', data: 'never' });
      });
      const control = eventStreamOf(req)!;
      const reason = new Error('shutting down');
      setTimeout(() => control.shutdown(reason), 20);
      const { events } = await readEventStream(response);
      expect(events).to.deep.equal([
        { event: 'message', id: '1', data: 'one' },
        { event: 'shutdown', id: undefined, data: '' },
      ]);
      expect(stream.signal.reason).to.equal(reason);
      await control.over;
    });

    it('takes a final event of its own, or none', async () => {
      const custom = request();
      const first = eventStream(custom, (s) => s.sleep(60_000), {
        shutdownEvent: { event: 'bye', data: 'reconnect elsewhere', retry: 100 },
      });
      setTimeout(() => eventStreamOf(custom)!.shutdown(new Error('x')), 5);
      expect((await readEventStream(first)).events).to.deep.equal([
        { event: 'bye', id: undefined, data: 'reconnect elsewhere' },
      ]);

      const silent = request();
      const second = eventStream(silent, (s) => s.sleep(60_000), { shutdownEvent: false });
      setTimeout(() => eventStreamOf(silent)!.shutdown(new Error('x')), 5);
      expect(await second.text()).to.equal('');
    });

    it('refuses, at the call, a final event that cannot be framed, as toEventStream() does', () => {
      const run = (s: { sleep(ms: number): Promise<boolean> }) => s.sleep(10);
      expect(() =>
        eventStream(request(), run, { shutdownEvent: { event: 'bye\nid: 7', data: '' } }),
      ).to.throw(TypeError);
    });
  });
});
