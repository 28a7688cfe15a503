/**
 * GET /soak/download?size=<bytes>&wait=<ms> — a streamed download made chunk by chunk as the
 * client reads, answered after an `await` (as an endpoint that looks something up first), so a
 * client may leave before the answer, during the head, or mid-body.
 */
'use strict';
/* global Response */
const { countedStream } = require('../_lib/stream-account.cjs');

const CHUNK = Buffer.alloc(64 * 1024, 'soak ');

async function GET(request) {
  const query = new URL(request.url).searchParams;
  const size = Number(query.get('size') ?? 1024 * 1024);
  await new Promise((resolve) => setTimeout(resolve, Number(query.get('wait') ?? 0)));
  let sent = 0;
  const { stream, returned } = countedStream(request, {
    pull(controller) {
      if (sent >= size) return true;
      const chunk = CHUNK.subarray(0, Math.min(CHUNK.length, size - sent));
      sent += chunk.length;
      controller.enqueue(new Uint8Array(chunk));
      return false;
    },
  });
  returned();
  return new Response(stream, { headers: { 'content-type': 'application/octet-stream' } });
}

module.exports = { GET };
