/**
 * event-stream: `eventStream(request, run)`, server-sent events for handlers, framed as the WHATWG
 * HTML standard parses them, with heartbeats, `Last-Event-ID`, backpressure and a final event on
 * shutdown. Web Request/Response only: no Node objects, so hosts, `.fetch` and unit tests share it.
 */
export { eventStream, eventStreamFailure, eventStreamOf, setEventData } from './event-stream';
export type {
  EventDataSettings,
  EventStream,
  EventStreamControl,
  EventStreamFailure,
  EventStreamOptions,
  EventStreamRun,
} from './types';
export type { EventMessage } from './format';
export { EventWriter } from './event-writer';
