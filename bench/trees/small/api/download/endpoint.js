// (f) download: 256 MiB streamed in 64 KiB chunks of `a`, with backpressure (pull).
const CHUNK = new Uint8Array(64 * 1024).fill(0x61);
const COUNT = 4096;

export function GET() {
  let sent = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (sent++ < COUNT) controller.enqueue(CHUNK);
      else controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'application/octet-stream' } });
}
