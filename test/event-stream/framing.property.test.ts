/**
 * The framing as a property: whatever strings a handler sends as data, event names and ids (CR, LF,
 * CRLF, NUL, spaces and colons, non-BMP characters, lone surrogates), a parser of the WHATWG rules
 * gives back exactly the events sent, or the helper refused the event at `send()`: an event name or
 * an id with a line break, an id with NUL. Data's line breaks arrive as LF, and a lone surrogate as
 * U+FFFD, as UTF-8 must carry it; nothing else changes. The typed client's own parser agrees with
 * it, whatever chunks the text arrives in.
 *
 * Runs with a fixed seed, then a fresh one; fast-check names the seed of a failing run.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { eventStream, type EventMessage } from '../../src';
import { createTestRequest } from '../../src/testing';
import { EventParser } from '../../src/client/event-parser';
import { parseEventStream, readEventStream, type ParsedEvent } from './support';

const FIXED_SEED = 40_1;
const RUNS = 300;

/** Strings built from the characters framing must survive, and any others. */
const tricky = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '\r',
        '\n',
        '\r\n',
        '\n\n',
        '\0',
        ' ',
        ':',
        'data: ',
        'id:',
        '\uFEFF',
        '\u2028',
        '😀',
        '\uD800',
        '\uDC00',
      ),
      fc.string({ unit: 'binary', maxLength: 6 }),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

const message = fc.record(
  { data: tricky, event: tricky, id: tricky, retry: fc.integer({ min: 0, max: 100_000 }) },
  { requiredKeys: ['data'] },
);

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The string as UTF-8 carries it: a lone surrogate becomes U+FFFD. */
const wellFormed = (text: string): string => fromUtf8.decode(utf8.encode(text));

/** What a client receives of `sent`, or `undefined` for an event the helper must refuse. */
function received(sent: EventMessage<string>): ParsedEvent | undefined {
  if (sent.event !== undefined && /[\r\n]/.test(sent.event)) return undefined;
  if (sent.id !== undefined && /[\r\n\0]/.test(sent.id)) return undefined;
  return {
    event: sent.event ? wellFormed(sent.event) : 'message',
    data: wellFormed(sent.data).replace(/\r\n?/g, '\n'),
    id: sent.id === undefined ? undefined : wellFormed(sent.id),
  };
}

/** The client's own parser, fed the text cut at `cuts` (fractions of its length): CRLF split across chunks too. */
function parseInChunks(text: string, cuts: number[]): ClientParsed[] {
  const parser = new EventParser();
  const points = [...new Set(cuts.map((cut) => Math.floor(cut * text.length)))].sort((a, b) => a - b);
  const events: ClientParsed[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    events.push(...parser.push(text.slice(from, point)));
    from = point;
  }
  return events;
}

type ClientParsed = ReturnType<EventParser['push']>[number];

/** What the client's parser gives for the events received: the id carries over until another is set. */
function asClientSees(events: ParsedEvent[]): ClientParsed[] {
  let lastEventId = '';
  return events.map((event) => {
    if (event.id !== undefined) lastEventId = event.id;
    return { type: event.event, data: event.data, lastEventId };
  });
}

async function roundTrip(
  messages: EventMessage<string>[],
): Promise<{ parsed: ParsedEvent[]; refused: number[]; text: string }> {
  const refused: number[] = [];
  const response = eventStream(
    createTestRequest('/feed'),
    async (stream) => {
      for (const [i, sent] of messages.entries()) {
        try {
          await stream.send(sent);
        } catch (error) {
          expect(error).to.be.instanceOf(TypeError);
          refused.push(i);
        }
      }
    },
    { heartbeat: false },
  );
  const text = await response.text();
  return { parsed: parseEventStream(text).events, refused, text };
}

describe('event framing, as a property (fast-check)', function () {
  this.timeout(60_000);

  for (const [name, seed] of [
    ['fixed seed', FIXED_SEED],
    ['fresh seed', undefined],
  ] as const) {
    it(`strings: the events parsed are the events sent, or send() refused them (${name})`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(message, { maxLength: 6 }),
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
          async (messages, cuts) => {
            const { parsed, refused, text } = await roundTrip(messages);
            const expected = messages.map(received);
            expect(refused).to.deep.equal(expected.flatMap((event, i) => (event === undefined ? [i] : [])));
            const sent = expected.filter((event) => event !== undefined);
            expect(parsed).to.deep.equal(sent);
            // The typed client's parser agrees, however the text is cut into chunks.
            expect(parseInChunks(text, cuts)).to.deep.equal(asClientSees(sent));
          },
        ),
        { seed, numRuns: RUNS },
      );
    });
  }

  it('the client’s parser reads the same events from a stream whose lines end in CRLF, CR or LF, cut anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { maxLength: 5 }),
        fc.array(fc.constantFrom('\r\n', '\r', '\n'), { minLength: 1, maxLength: 8 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
        async (messages, endings, cuts) => {
          const { parsed, text } = await roundTrip(messages);
          // Another server's stream: the same lines, each ending as that server chose. A CR and an LF
          // right after it are one line end: an empty line after a CR ends in CRLF or CR instead.
          let line = 0;
          let before = '';
          const other = text.replace(/\n/g, () => {
            let ending = endings[line++ % endings.length]!;
            if (before.endsWith('\r') && ending === '\n') ending = '\r\n';
            before = ending;
            return ending;
          });
          expect(parseInChunks(other, cuts)).to.deep.equal(asClientSees(parsed));
        },
      ),
      { seed: FIXED_SEED, numRuns: RUNS },
    );
  });

  it('JSON values: the data parsed is the value sent, as JSON carries it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 5 }), async (values) => {
        const response = eventStream(
          createTestRequest('/feed'),
          async (stream) => {
            for (const data of values) await stream.send({ data });
          },
          { json: true, heartbeat: false },
        );
        const { events } = await readEventStream(response);
        expect(events.map((event) => JSON.parse(event.data) as unknown)).to.deep.equal(
          values.map((value) => JSON.parse(JSON.stringify(value)) as unknown),
        );
      }),
      { seed: FIXED_SEED, numRuns: RUNS },
    );
  });
});
