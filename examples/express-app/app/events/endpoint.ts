/**
 * GET /events — server-sent events from a `ReadableStream`: a few ticks 200 ms apart, then the
 * stream closes. Each chunk reaches the client as it is enqueued (no buffering by the library).
 * Try `curl -N http://localhost:3000/events`, or `new EventSource('/events')` in a browser.
 */
const TICKS = 5;
const INTERVAL_MS = 200;

export function GET(): Response {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let tick = 0;
      const send = () => {
        tick += 1;
        const data = JSON.stringify({ tick, time: new Date().toISOString() });
        controller.enqueue(encoder.encode(`event: tick\nid: ${tick}\ndata: ${data}\n\n`));
        if (tick >= TICKS) {
          clearInterval(timer);
          controller.enqueue(encoder.encode('event: done\ndata: {}\n\n'));
          controller.close();
        }
      };
      // A comment line first, so the client sees the stream open at once.
      controller.enqueue(encoder.encode(': stream open\n\n'));
      timer = setInterval(send, INTERVAL_MS);
    },
    // The client went away: stop ticking.
    cancel() {
      clearInterval(timer);
    },
  });

  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      // Tells nginx-style proxies not to buffer the stream.
      'X-Accel-Buffering': 'no',
    },
  });
}
