/**
 * GET /events — server-sent events: a few ticks 200 ms apart, then a `done` event, and the stream
 * ends. `eventStream` writes the framing, and stops the loop when the client goes away (`sleep`
 * resolves `false`). Try `curl -N http://localhost:3000/events`.
 */
import { eventStream } from 'express-file-endpoints';

const TICKS = 5;
const INTERVAL_MS = 200;

export function GET(request: Request): Response {
  return eventStream(request, async (stream) => {
    for (let tick = 1; tick <= TICKS; tick++) {
      if (!(await stream.sleep(INTERVAL_MS))) return;
      await stream.send({ event: 'tick', id: String(tick), data: { tick, time: new Date().toISOString() } });
    }
    await stream.send({ event: 'done', data: {} });
  });
}
