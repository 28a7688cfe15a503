/**
 * POST /soak/echo — streams the request body back as it arrives (both directions under
 * backpressure), through a counted response stream. The integrity client checks what comes back.
 */
'use strict';
/* global Response */
const { countedStream } = require('../_lib/stream-account.cjs');

function POST(request) {
  const reader = request.body.getReader();
  const { stream, returned } = countedStream(request, {
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return true;
      controller.enqueue(value);
      return false;
    },
    cancel: (reason) => reader.cancel(reason),
  });
  returned();
  return new Response(stream, { headers: { 'content-type': 'application/octet-stream' } });
}

module.exports = { POST };
