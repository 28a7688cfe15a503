// (c) 1 MiB streamed: 16 chunks of 64 KiB of `a`, no Content-Length (chunked).
const CHUNK = new Uint8Array(64 * 1024).fill(0x61);
const COUNT = 16;

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
