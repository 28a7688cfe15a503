/**
 * GET /feed — the live activity of users (created, updated, deleted) as server-sent events, which
 * the home page shows with `new EventSource('/feed')`. The contract's `events` types each event's
 * data (and checks it in development and tests); a client that reconnects sends the id of the last
 * event it got (`Last-Event-ID`), and gets exactly what it missed. `eventStream` keeps the
 * connection alive with heartbeats, and ends it with a last event when the server shuts down.
 */
import { defineHandler } from 'express-file-endpoints';
import { Activity, entriesAfter, nextEntry } from '../_lib/activity';

export const GET = defineHandler(
  { summary: 'Live activity: users created, updated and deleted', events: Activity },
  (_request, { eventStream }) =>
    eventStream(
      async (stream) => {
        let last = stream.lastEventId === undefined ? undefined : Number(stream.lastEventId);
        while (!stream.closed) {
          for (const entry of entriesAfter(last)) {
            await stream.send({ id: String(entry.id), event: 'activity', data: entry.activity });
            last = entry.id;
          }
          last ??= 0;
          await nextEntry(stream.signal);
        }
      },
      // A dropped client comes back after a second (a browser's own default is about three).
      { retry: 1000 },
    ),
);
