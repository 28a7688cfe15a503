/**
 * `eventStream(request, run, options)`: a `text/event-stream` Response whose events `run` sends,
 * for a handler to return. Web-standard only (a `ReadableStream` body), so it works under the Node
 * bridge, `.fetch`, other runtimes and in a unit test alike.
 *
 * What it takes care of: the framing (format.ts); a comment whenever nothing was sent for
 * `heartbeat` milliseconds, so proxies and load balancers do not cut an idle stream (heartbeat.ts);
 * the headers that keep proxies from buffering it; the reconnecting client's `Last-Event-ID`, read as
 * UTF-8 (last-event-id.ts); backpressure (`send()` resolves once the reader has taken the event); an
 * end that delivers everything sent before it; and a final event when the mount shuts down
 * (`endpoints.close()`). The stream itself is event-writer.ts.
 */
import { EventWriter } from './event-writer';
import { lastEventIdOf } from './last-event-id';
import type {
  EventDataSettings,
  EventStreamControl,
  EventStreamFailure,
  EventStreamOptions,
  EventStreamRun,
} from './types';

// The request a stream answers, found by the mount when it shuts down, and by a contract's checks.
const streams = new WeakMap<Request, EventStreamControl>();
const dataSettings = new WeakMap<Request, EventDataSettings>();

/** The stream answering `request`, if its handler made one. */
export function eventStreamOf(request: Request): EventStreamControl | undefined {
  return streams.get(request);
}

/** For a contract with `events`: how the stream answering `request` writes and checks its data. */
export function setEventData(request: Request, settings: EventDataSettings): void {
  dataSettings.set(request, settings);
}

/**
 * @example
 * export function GET(request: Request) {
 *   return eventStream(request, async (stream) => {
 *     let n = Number(stream.lastEventId ?? 0);
 *     while (await stream.sleep(1000)) await stream.send({ id: String(++n), data: { n } });
 *   });
 * }
 */
export function eventStream<Data = unknown>(
  request: Request,
  run: EventStreamRun<Data>,
  options: EventStreamOptions = {},
): Response {
  if (typeof run !== 'function') throw new TypeError('eventStream(request, run): run must be a function');
  const settings = dataSettings.get(request);
  const json = settings?.json === true || options.json === true;
  const writer = new EventWriter<Data>({
    lastEventId: lastEventIdOf(request),
    heartbeat: options.heartbeat,
    retry: options.retry,
    shutdownEvent: options.shutdownEvent,
    json,
    check: settings?.check,
    caller: 'eventStream',
  });
  streams.set(request, writer.control);
  const headers = new Headers({
    'content-type': json ? 'text/event-stream; charset=utf-8; data=json' : 'text/event-stream; charset=utf-8',
    // Never stored: each client must get its own live stream.
    'cache-control': 'no-cache',
    // nginx (and proxies that copy it) would otherwise buffer the stream until a buffer fills.
    'x-accel-buffering': 'no',
  });
  new Headers(options.headers).forEach((value, name) => headers.set(name, value));
  const response = new Response(writer.body, { status: 200, headers });
  // After the Response exists: whatever `run` throws, even at once, ends the stream instead.
  Promise.resolve()
    .then(() => run(writer))
    .then(
      () => writer.close(),
      (error: unknown) => writer.fail(error),
    );
  return response;
}

/**
 * For a host that hands the Response on unread (`.fetch`), an event stream's errors as the Node
 * bridge has them: `undefined` at once when `response` is not the stream answering `request`; else
 * `{ error }` when `run` threw before it sent anything (the host answers with the error, as with any
 * handler's; the stream's body is cancelled), or `undefined` once it has begun, `late` being told of a
 * failure after that.
 */
export function eventStreamFailure(
  request: Request | undefined,
  response: Response,
  late: (error: unknown) => void,
): Promise<EventStreamFailure | undefined> | undefined {
  const stream = request === undefined ? undefined : streams.get(request);
  if (stream === undefined || response.body !== stream.body) return undefined;
  return stream.started().then((failure) => {
    if (failure !== undefined) {
      void stream.body.cancel().catch(() => undefined);
      return failure;
    }
    void stream.over.then((end) => end !== undefined && late(end.error));
    return undefined;
  });
}
